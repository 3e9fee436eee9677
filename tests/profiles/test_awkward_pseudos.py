"""Profile pages, profile JSON, password route and leaderboard links for awkward pseudos.

Every pseudo of the table is one a person can sit down with (checked by creating a room),
and its profile address is written out by hand: percent-encoded as one path segment, except
`.` and `..`, which browsers resolve in a path and so travel as `?pseudo=`.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.profiles import scripted as S
from yanniv.app import create_app
from yanniv.profiles.record import record_finished_match
from yanniv.server.settings import Settings

#: (pseudo, its profile page) — the JSON is the same address under /api/profiles.
AWKWARD: list[tuple[str, str]] = [
    ("AC/DC", "/profil/AC%2FDC"),
    ("..", "/profil?pseudo=.."),
    (".", "/profil?pseudo=."),
    ("...", "/profil/..."),
    ("%", "/profil/%25"),
    ("100%25", "/profil/100%2525"),
    ("?", "/profil/%3F"),
    ("a?b=c&d", "/profil/a%3Fb%3Dc%26d"),
    ("#1", "/profil/%231"),
    ("Jean Luc", "/profil/Jean%20Luc"),
    ("Hélène", "/profil/H%C3%A9l%C3%A8ne"),
    ("東京", "/profil/%E6%9D%B1%E4%BA%AC"),
    ("Иван", "/profil/%D0%98%D0%B2%D0%B0%D0%BD"),
    ("a/../b", "/profil/a%2F..%2Fb"),
    ("/", "/profil/%2F"),
    ("../x", "/profil/..%2Fx"),
    ("x/..", "/profil/x%2F.."),
    ("+1", "/profil/%2B1"),
    ("\\o/", "/profil/%5Co%2F"),
    ("<b>&'\"", "/profil/%3Cb%3E%26%27%22"),
    ("~tilde", "/profil/~tilde"),
    ("a;b", "/profil/a%3Bb"),
    ("🃏 Joker", "/profil/%F0%9F%83%8F%20Joker"),
    ("login", "/profil/login"),
    ("password", "/profil/password"),
]

#: Pseudos whose password is set over HTTP too (argon2id is slow on purpose: not all 25).
SET_PASSWORD = {"AC/DC", "..", ".", "100%25", "a/../b", "x/..", "login", "password", "東京"}


def links(page: str) -> list[tuple[str, str]]:
    """(address, text) of the page's links, unescaped."""
    return [(html.unescape(u), html.unescape(t))
            for u, t in re.findall(r'<a href="([^"]*)">([^<]*)</a>', page)]


def secret_of(index: int) -> str:
    return f"owner-secret-{index:04d}-abcdef"


def api_of(page: str) -> str:
    return page.replace("/profil", "/api/profiles", 1)


def password_of(page: str) -> str:
    """The password route: after the pseudo's segment, or before the query."""
    path, _, query = page.partition("?")
    return api_of(path) + "/password" + (f"?{query}" if query else "")


@pytest.fixture
def app(db_url: str) -> Iterator[FastAPI]:
    """The whole server, each awkward pseudo with one finished match against a bot."""
    app = create_app(Settings(database_url=db_url))
    with TestClient(app):  # runs the schema upgrade
        with app.state.db.sessions.begin() as s:
            for i, (pseudo, _page) in enumerate(AWKWARD):
                record_finished_match(s, S.match(
                    500 + i, [(pseudo, secret_of(i)), ("Robot", None, True)],
                    [S.manche(1, 0, True, 0, (1, 9), (-5, 9))], (0, 1),
                ))
        yield app


def test_every_awkward_pseudo_is_accepted_at_a_table(app: FastAPI) -> None:
    with TestClient(app) as client:
        for i, (pseudo, _page) in enumerate(AWKWARD):
            client.cookies.set("yanniv_owner", secret_of(i))  # the profile's own browser
            res = client.post("/api/rooms", json={"pseudo": pseudo})
            assert res.status_code == 201, (pseudo, res.json())
            assert res.json()["room"]["seats"][0]["pseudo"] == pseudo


def test_leaderboard_links_each_profile_at_its_address(app: FastAPI) -> None:
    with TestClient(app) as client:
        body = client.get("/api/leaderboard", params={"sort": "matches"}).json()
        urls = {e["pseudo"]: e["url"] for e in body["entries"]}
        assert urls == dict(AWKWARD)
        page = client.get("/classement", params={"sort": "matches"}).text
        table = page[page.index('id="leaderboard"'):]
        assert set(links(table)) >= {(url, pseudo) for pseudo, url in AWKWARD}


#: The pseudos above before which « de » becomes « d' » (a vowel or a mute h).
ELIDED = {"AC/DC", "a?b=c&d", "Hélène", "a/../b", "a;b"}


def test_profile_page_json_and_password(app: FastAPI) -> None:
    with TestClient(app) as client:
        for index, (pseudo, page) in enumerate(AWKWARD):
            client.cookies.set("yanniv_owner", secret_of(index))
            check_profile(client, pseudo, page)


def check_profile(client: TestClient, pseudo: str, page: str) -> None:
    shown = client.get(page)
    assert shown.status_code == 200, pseudo
    title = re.search(r"<h1>([^<]*)</h1>", shown.text)
    # French elides « de » before a vowel sound (written out here, not computed).
    of = "d'" if pseudo in ELIDED else "de "
    assert title and html.unescape(title.group(1)) == f"Profil {of}{pseudo}"
    # The page's match list links back to this same address.
    assert (page, pseudo) in links(shown.text)
    # The owner's password form posts to the address written here by hand.
    form = re.search(r'id="password-form" class="row" data-url="([^"]*)"', shown.text)
    assert form and html.unescape(form.group(1)) == password_of(page), pseudo

    data = client.get(api_of(page))
    assert data.status_code == 200, pseudo
    assert data.json()["pseudo"] == pseudo and data.json()["owned"] is True
    assert data.json()["has_password"] is False

    if pseudo not in SET_PASSWORD:
        return
    ok = client.post(password_of(page), json={"password": "motdepasse"})
    assert ok.status_code == 200, (pseudo, ok.json())
    assert ok.json()["profile_url"] == page
    assert client.get(api_of(page)).json()["has_password"] is True


def test_ac_dc_both_spellings_and_unknown_pseudos(app: FastAPI) -> None:
    with TestClient(app) as client:
        assert client.get("/profil/AC%2FDC").status_code == 200
        assert client.get("/api/profiles/AC%2FDC").json()["pseudo"] == "AC/DC"
        # A bare slash reaches the same profile (the route takes the rest of the path).
        assert client.get("/api/profiles/AC/DC").json()["pseudo"] == "AC/DC"
        # The query form works for any pseudo, and the empty pseudo is nobody.
        assert client.get("/api/profiles", params={"pseudo": "AC/DC"}).json()["pseudo"] == "AC/DC"
        assert client.get("/profil", params={"pseudo": "東京"}).status_code == 200
        assert client.get("/profil/").status_code == 404
        assert client.get("/profil").status_code == 404
        assert client.get("/api/profiles/").status_code == 404
        assert client.get("/api/profiles/AC%2FDC%2F").status_code == 404  # "AC/DC/"
        assert client.get("/api/profiles", params={"pseudo": "..."}).json()["pseudo"] == "..."
        # A stranger's browser still cannot set the password of an awkward profile.
        client.cookies.set("yanniv_owner", "somebody-else-0123456")
        refused = client.post("/api/profiles/password", params={"pseudo": ".."},
                              json={"password": "motdepasse"})
        assert refused.status_code == 403
        # `login` and `password` are pseudos on GET; POST login is still the login.
        assert client.get("/api/profiles/login").json()["pseudo"] == "login"
        bad = client.post("/api/profiles/login", json={"pseudo": "login", "password": "faux"})
        assert bad.status_code == 401
