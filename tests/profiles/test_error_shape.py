"""One error shape for rooms and profiles: every refusal is `{code, message, message_en}` with
our own French and English texts, whichever layer refused (server app, real database).

Expected codes, statuses and texts are written here by hand, not read from the catalogue.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.profiles import scripted as S
from yanniv.app import create_app
from yanniv.profiles.record import record_finished_match
from yanniv.server.settings import Settings


def _shape(res: Any, status: int, code: str, fr: str, en: str) -> None:
    assert res.status_code == status, res.text
    assert res.json() == {"code": code, "message": fr, "message_en": en}


def test_rooms_and_profiles_refuse_in_one_shape(db_url: str) -> None:
    app = create_app(Settings(database_url=db_url))
    with TestClient(app) as client:
        _shape(client.get("/api/rooms/ZZZZZZ"), 404, "room_not_found",
               "Aucune salle ne porte ce code.", "No room has this code.")
        _shape(client.get("/api/profiles/Personne"), 404, "profile_not_found",
               "Aucun profil ne porte ce pseudo.", "No profile has this name.")
        _shape(client.get("/api/matches/999999"), 404, "match_not_found",
               "Cette partie n'existe pas.", "This match does not exist.")
        _shape(client.post("/api/profiles/login", json={"pseudo": "Personne", "password": "x"}),
               401, "login_failed", "Pseudo ou mot de passe incorrect.",
               "Wrong name or password.")
        with app.state.db.sessions.begin() as s:
            record_finished_match(s, S.M1)
        _shape(client.post("/api/profiles/L%C3%A9a/password", json={"password": "motdepasse"}),
               403, "not_owner",
               "Ce profil n'est pas à vous : seul le navigateur qui le détient peut changer son "
               "mot de passe.",
               "This profile is not yours: only the browser holding it may change its password.")


def test_an_owned_pseudo_is_refused_in_both_languages(db_url: str) -> None:
    """`pseudo_owned` names the owner's pseudo in French and English alike, and once the
    profile has a password, both say where to log in (English used to get a generic text)."""
    app = create_app(Settings(database_url=db_url))
    with TestClient(app) as owner, TestClient(app) as other:
        with app.state.db.sessions.begin() as s:
            record_finished_match(s, S.M1)
        _shape(other.post("/api/rooms", json={"pseudo": "LÉA"}), 409, "pseudo_owned",
               "Le pseudo « Léa » appartient déjà à un autre joueur : choisissez-en un autre.",
               "The pseudo “Léa” already belongs to another player: choose another one.")
        owner.cookies.set("yanniv_owner", S.LEA)
        assert owner.post("/api/profiles/L%C3%A9a/password",
                          json={"password": "motdepasse"}).status_code == 200
        _shape(other.post("/api/rooms", json={"pseudo": "léa"}), 409, "pseudo_owned",
               "Le pseudo « Léa » appartient déjà à un autre joueur : choisissez-en un autre, "
               "ou, si c'est le vôtre, connectez-vous depuis la page /profil/L%C3%A9a avec son "
               "mot de passe.",
               "The pseudo “Léa” already belongs to another player: choose another one, or, if "
               "it is yours, log in from the page /profil/L%C3%A9a with its password.")
        assert owner.post("/api/rooms", json={"pseudo": "Léa"}).status_code == 201


def test_every_profiles_refusal_is_catalogued() -> None:
    """Profiles name their refusals by code; each must have a status and both texts in the
    one catalogue, or it would answer 500 instead."""
    from yanniv.profiles.errors import CODES, ProfileRefusal
    from yanniv.server.errors import MESSAGES

    expected = {"profile_not_found", "match_not_found", "not_owner", "login_failed",
                "login_throttled", "unknown_game"}
    assert set(CODES) == expected
    for code in CODES:
        status, fr, en = MESSAGES[code]
        assert 400 <= status < 500 and fr and en and fr != en
    with pytest.raises(ValueError):
        ProfileRefusal("no_such_code")
