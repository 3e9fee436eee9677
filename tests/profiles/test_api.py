"""The JSON API and the pages, over HTTP, on real data (SQLite and PostgreSQL)."""

from __future__ import annotations

from collections.abc import Iterator
from html import unescape

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.profiles import scripted as S
from yanniv.db.session import Database
from yanniv.profiles.api import router
from yanniv.profiles.record import check_pseudo, record_finished_match
from yanniv.server.api.refusals import install_error_handlers
from yanniv.webapp.pages import mount_static
from yanniv.webapp.pages import router as pages_router


@pytest.fixture
def app(database: Database) -> FastAPI:
    """The profiles router on an app shaped like the server's (`app.state.db`)."""
    app = FastAPI()
    app.state.db = database
    install_error_handlers(app)
    app.include_router(router)
    app.include_router(pages_router)
    mount_static(app)
    return app


@pytest.fixture
def ids(database: Database) -> list[int]:
    out = []
    with database.sessions.begin() as s:
        for m in [*S.SCRIPT, S.M7, S.M8]:
            out.append(record_finished_match(s, m))
    return out


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


def test_leaderboard_json_and_page(client: TestClient, ids: list[int]) -> None:
    for sort in ("rating", "wins", "matches"):
        res = client.get("/api/leaderboard", params={"sort": sort, "page": 1})
        assert res.status_code == 200
        body = res.json()
        assert body["sort"] == sort and body["total"] == 3 and body["game"] == "yanniv"
        assert {e["pseudo"] for e in body["entries"]} == {"Léa", "Bob", "Zoé"}
        assert all("±" in e["rating"]["display"] for e in body["entries"])
    assert client.get("/api/leaderboard", params={"sort": "nope"}).status_code == 422
    assert client.get("/api/leaderboard", params={"page": 0}).status_code == 422
    same = client.get("/api/leaderboard", params={"game": "yanniv", "sort": "wins"}).json()
    assert same == client.get("/api/leaderboard", params={"sort": "wins"}).json()
    unknown = client.get("/api/leaderboard", params={"game": "belote"})
    assert unknown.status_code == 422
    assert unknown.json() == {
        "code": "unknown_game",
        "message": "Ce jeu n'existe pas sur le site.",
        "message_en": "This game does not exist on this site.",
    }
    missing = client.get("/classement", params={"game": "belote"})
    assert missing.status_code == 404
    assert "Ce jeu n'existe pas sur le site." in unescape(missing.text)

    page = client.get("/classement", params={"sort": "wins"})
    assert page.status_code == 200
    assert "Classement" in page.text
    table = page.text[page.text.index('id="leaderboard"') :]
    assert 'href="/profil/Zo%C3%A9"' in table
    assert table.index(">Zoé<") < table.index(">Léa<") < table.index(">Bob<")


def test_profile_json_and_page(client: TestClient, ids: list[int]) -> None:
    res = client.get("/api/profiles/L%C3%89A")  # case-insensitive
    assert res.status_code == 200
    body = res.json()
    assert body["pseudo"] == "Léa"
    assert [(g["game"], g["matches_played"]) for g in body["games"]] == [("yanniv", 7)]
    assert body["games"][0]["calls"] >= body["games"][0]["calls_won"] > 0
    assert body["last_matches"][0]["url"] == f"/match/{ids[-1]}"
    assert body["owned"] is False
    client.cookies.set("yanniv_owner", S.LEA)
    assert client.get("/api/profiles/l%C3%A9a").json()["owned"] is True

    page = client.get("/profil/L%C3%A9a")
    assert page.status_code == 200
    assert "Profil de Léa" in page.text and f'href="/match/{ids[0]}"' in page.text
    assert 'id="password-form"' in page.text  # the owner can set a password
    assert '<h2 id="game-yanniv">YANNIV</h2>' in page.text  # one section per game played
    assert "Annonces (réussies)" in page.text

    missing = client.get("/api/profiles/Personne")
    assert missing.status_code == 404 and "Aucun profil" in missing.json()["message"]
    assert client.get("/profil/Personne").status_code == 404


def test_match_json_and_page(client: TestClient, ids: list[int]) -> None:
    res = client.get(f"/api/matches/{ids[3]}")
    assert res.status_code == 200
    body = res.json()
    assert [p["pseudo"] for p in body["players"]] == ["Zoé", "Bob", "Léa"]
    assert body["manches"][2]["tiebreak"] is True
    page = client.get(f"/match/{ids[3]}")
    assert page.status_code == 200
    assert "Feuille de scores" in page.text and "départage" in page.text
    assert client.get("/api/matches/999999").status_code == 404
    assert client.get("/match/999999").status_code == 404
    assert client.get("/match/0").status_code == 422


def test_english_pages(client: TestClient, ids: list[int]) -> None:
    client.cookies.set("lang", "en")
    assert "Leaderboard" in client.get("/classement").text
    assert "Léa&#39;s profile" in client.get("/profil/L%C3%A9a").text
    assert "Score sheet" in client.get(f"/match/{ids[0]}").text


def test_password_and_login_over_http(app: FastAPI, database: Database, ids: list[int]) -> None:
    with TestClient(app) as owner, TestClient(app) as stranger, TestClient(app) as phone:
        owner.cookies.set("yanniv_owner", S.LEA)
        stranger.cookies.set("yanniv_owner", "stranger")
        url = "/api/profiles/L%C3%A9a/password"
        refused = stranger.post(url, json={"password": "motdepasse"})
        assert refused.status_code == 403 and "pas à vous" in refused.json()["message"]
        assert owner.post(url, json={"password": "court"}).status_code == 422
        ok = owner.post(url, json={"password": "motdepasse"})
        assert ok.status_code == 200 and ok.json()["message"] == "Mot de passe enregistré."

        page = phone.get("/profil/L%C3%A9a")
        assert 'id="login-form"' in page.text and 'id="password-form"' not in page.text
        bad = phone.post("/api/profiles/login", json={"pseudo": "léa", "password": "faux"})
        assert (
            bad.status_code == 401 and bad.json()["message"] == "Pseudo ou mot de passe incorrect."
        )
        good = phone.post("/api/profiles/login", json={"pseudo": "léa", "password": "motdepasse"})
        assert good.status_code == 200
        assert good.json()["profile_url"] == "/profil/L%C3%A9a"
        cookie = good.headers["set-cookie"]
        assert (
            "yanniv_owner=" in cookie and "HttpOnly" in cookie and "samesite=lax" in cookie.lower()
        )
        secret = phone.cookies.get("yanniv_owner")
        assert secret
        with database.sessions() as s:
            assert check_pseudo(s, "LÉA", secret) is None
            assert check_pseudo(s, "LÉA", "stranger") is not None
        assert phone.get("/api/profiles/L%C3%A9a").json()["owned"] is True


def test_openapi_documents_the_api(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    paths = spec["paths"]
    for path in (
        "/api/leaderboard",
        "/api/profiles/{pseudo}",
        "/api/matches/{match_id}",
        "/api/profiles/login",
        "/api/profiles/{pseudo}/password",
    ):
        assert path in paths
    ok = paths["/api/leaderboard"]["get"]["responses"]["200"]["content"]["application/json"]
    assert ok["schema"]["$ref"].endswith("/LeaderboardPage")
    assert "/classement" not in paths
    assert {"LeaderboardPage", "ProfileOut", "MatchOut", "RatingOut"} <= set(
        spec["components"]["schemas"]
    )


def test_through_the_server_app(db_url: str) -> None:
    """The real `create_app`: schema upgraded at start, the owner cookie middleware in front."""
    from yanniv.app import create_app
    from yanniv.server.settings import Settings

    app = create_app(Settings(database_url=db_url))
    with TestClient(app) as owner, TestClient(app) as phone:
        with app.state.db.sessions.begin() as s:
            record_finished_match(s, S.M1)
        owner.cookies.set("yanniv_owner", S.LEA)
        for path in ("/classement", "/profil/L%C3%A9a", "/api/leaderboard", "/api/matches/1"):
            assert owner.get(path).status_code == 200, path
        url = "/api/profiles/L%C3%A9a/password"
        assert owner.post(url, json={"password": "motdepasse"}).status_code == 200
        # A device without any cookie logs in: the cookie it ends up with owns Léa.
        res = phone.post("/api/profiles/login", json={"pseudo": "LÉA", "password": "motdepasse"})
        assert res.status_code == 200
        secret = phone.cookies.get("yanniv_owner")
        with app.state.db.sessions() as s:
            assert check_pseudo(s, "léa", secret) is None
        assert phone.get("/api/profiles/L%C3%A9a").json()["owned"] is True
