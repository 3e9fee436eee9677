"""The host changes a waiting room's game (`PATCH /api/rooms/{code}/settings` with `game`):
the platform's choices stay, the new game's settings and seat count apply, and a change the
seated players or computer players do not fit is refused with its reason, changing nothing."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient


def _room(client: TestClient, game: str = "yanniv", **extra: Any) -> tuple[str, dict[str, str]]:
    created = client.post("/api/rooms", json={"pseudo": "Léa", "game": game, **extra}).json()
    return created["code"], {"X-Seat-Token": created["token"]}


def _patch(client: TestClient, code: str, headers: dict[str, str], body: dict[str, Any]) -> Any:
    return client.patch(f"/api/rooms/{code}/settings", json=body, headers=headers)


def _look(client: TestClient, code: str) -> dict[str, Any]:
    return client.get(f"/api/rooms/{code}").json()


def test_the_host_switches_to_yaniv_and_gets_its_settings_and_seats(client: TestClient) -> None:
    code, headers = _room(client, public=True)
    assert _patch(client, code, headers, {"timer_seconds": 45, "manches": 3}).status_code == 200
    answer = _patch(client, code, headers, {"game": "yaniv", "threshold": 120})
    assert answer.status_code == 200, answer.text
    settings = _look(client, code)["settings"]
    # The platform's choices stay; YANNIV's manches go, Yaniv's fields come with defaults.
    assert settings["game"] == "yaniv" and settings["public"] is True
    assert settings["timer_seconds"] == 45 and "manches" not in settings
    assert settings["threshold"] == 120 and settings["two_decks"] is False
    # Yaniv seats eight: seven computer players of its own levels sit.
    for _ in range(7):
        added = client.post(f"/api/rooms/{code}/bots", json={"level": "moyen"}, headers=headers)
        assert added.status_code == 200, added.text
    assert len(_look(client, code)["seats"]) == 8
    listed = [r for r in client.get("/api/rooms/public").json() if r["code"] == code]
    assert listed == [] or listed[0]["game"] == "yaniv"  # full rooms are not listed


def test_back_to_yanniv_with_more_players_than_it_seats_is_refused(client: TestClient) -> None:
    code, headers = _room(client, "yaniv")
    for _ in range(4):
        client.post(f"/api/rooms/{code}/bots", json={"level": "facile"}, headers=headers)
    before = _look(client, code)
    answer = _patch(client, code, headers, {"game": "yanniv"})
    assert answer.status_code == 409 and answer.json()["code"] == "too_many_for_game"
    assert "4" in answer.json()["message"] and "retirez" in answer.json()["message"]
    after = _look(client, code)
    assert after["version"] == before["version"] and after["settings"] == before["settings"]
    # One player fewer, and the same change goes through.
    client.delete(f"/api/rooms/{code}/seats/4", headers=headers)
    assert _patch(client, code, headers, {"game": "yanniv"}).status_code == 200
    assert _look(client, code)["settings"]["game"] == "yanniv"


def test_a_computer_player_the_new_game_lacks_refuses_the_switch(client: TestClient) -> None:
    """YANNIV's « difficile » has no Yaniv counterpart: it could not play there."""
    code, headers = _room(client)
    client.post(f"/api/rooms/{code}/bots", json={"level": "difficile"}, headers=headers)
    before = _look(client, code)
    answer = _patch(client, code, headers, {"game": "yaniv"})
    assert answer.status_code == 409, answer.text
    body = answer.json()
    assert body["code"] == "bot_level_not_in_game"
    assert "« difficile »" in body["message"] and "“hard”" in body["message_en"]
    after = _look(client, code)
    assert after["version"] == before["version"] and after["settings"]["game"] == "yanniv"


def test_a_bad_game_value_changes_nothing(client: TestClient) -> None:
    code, headers = _room(client)
    before = _look(client, code)
    for wrong in ("belote", 3, None, ["yaniv"]):
        answer = _patch(client, code, headers, {"game": wrong})
        assert answer.status_code in (400, 422), (wrong, answer.text)
        assert answer.json()["code"] == "bad_setting", wrong
    # A field of the new game checked against its own bounds: nothing changes either.
    answer = _patch(client, code, headers, {"game": "yaniv", "threshold": 20})
    assert answer.json()["code"] == "bad_setting" and "50" in answer.json()["message"]
    # A field of the old game is not one of the new game's.
    answer = _patch(client, code, headers, {"game": "yaniv", "manches": 3})
    assert answer.json()["code"] == "bad_setting" and "manches" in answer.json()["message"]
    assert _look(client, code) == before


def test_only_the_host_switches_the_game(client: TestClient) -> None:
    code, _ = _room(client)
    guest = client.post(f"/api/rooms/{code}/join", json={"pseudo": "Hugo"}).json()
    answer = _patch(client, code, {"X-Seat-Token": guest["token"]}, {"game": "yaniv"})
    assert answer.status_code == 403 and answer.json()["code"] == "not_host"
    assert _look(client, code)["settings"]["game"] == "yanniv"
