"""The HTTP half of the bad-input table: every refused request (the framework's own 404, 405
and 422 included) answers `{code, message, message_en}` with its status, a French message in
French; the room does not change and no socket of the room hears of it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from bad_input_scene import Scene, check_error
from fastapi.testclient import TestClient

NO_BODY = object()


@dataclass(frozen=True)
class HttpCase:
    name: str
    method: str
    #: `{code}` is the scene's room code.
    path: str
    status: int
    code: str
    body: Any = NO_BODY
    #: Bytes sent as the JSON body instead of `body`.
    raw: bytes | None = None
    #: Whose seat token goes in `X-Seat-Token`: "host", "other", "wrong" or None.
    token: str | None = None
    playing: bool = False
    setup: Callable[[Scene], None] | None = None


ROOM = "/api/rooms/{code}"


def _full_room(scene: Scene) -> None:
    """Two computer players fill the room's last seats."""
    for _ in range(2):
        added = scene.client.post(f"/api/rooms/{scene.code}/bots", json={"level": "facile"},
                                  headers=scene.headers("host"))
        assert added.status_code == 200, added.text
    scene.drain()


def _first_player_three(scene: Scene) -> None:
    patched = scene.client.patch(f"/api/rooms/{scene.code}/settings", json={"first_player": 3},
                                 headers=scene.headers("host"))
    assert patched.status_code == 200, patched.text
    scene.drain()


def _chunks(total: int, size: int = 1000) -> Iterator[bytes]:
    yield b'{"pseudo": "'
    for _ in range(total // size):
        yield b"y" * size
    yield b'"}'


def _settings(name: str, patch: Any, code: str = "bad_setting", status: int = 422) -> HttpCase:
    return HttpCase(name, "PATCH", ROOM + "/settings", status, code, patch, token="host")


CASES: list[HttpCase] = [
    # Creating a room.
    HttpCase("empty pseudo", "POST", "/api/rooms", 422, "pseudo_length", {"pseudo": "   "}),
    HttpCase("long pseudo", "POST", "/api/rooms", 422, "pseudo_length", {"pseudo": "x" * 21}),
    HttpCase("control character in pseudo", "POST", "/api/rooms", 422, "pseudo_chars",
             {"pseudo": "Léa\x07"}),
    HttpCase("pseudo not text", "POST", "/api/rooms", 422, "invalid_request", {"pseudo": 12}),
    HttpCase("pseudo null", "POST", "/api/rooms", 422, "invalid_request", {"pseudo": None}),
    HttpCase("pseudo missing", "POST", "/api/rooms", 422, "invalid_request", {}),
    HttpCase("public as text", "POST", "/api/rooms", 422, "invalid_request",
             {"pseudo": "Léa", "public": "yes"}),
    HttpCase("public as number", "POST", "/api/rooms", 422, "invalid_request",
             {"pseudo": "Léa", "public": 1}),
    HttpCase("extra field at creation", "POST", "/api/rooms", 422, "invalid_request",
             {"pseudo": "Léa", "admin": True}),
    HttpCase("body not JSON", "POST", "/api/rooms", 422, "invalid_request", raw=b"{pseudo: L"),
    HttpCase("body a list", "POST", "/api/rooms", 422, "invalid_request", ["Léa"]),
    HttpCase("no body", "POST", "/api/rooms", 422, "invalid_request"),
    # Joining.
    HttpCase("taken pseudo", "POST", ROOM + "/join", 409, "pseudo_taken", {"pseudo": "joueur0"}),
    HttpCase("join pseudo not text", "POST", ROOM + "/join", 422, "invalid_request",
             {"pseudo": ["Bob"]}),
    HttpCase("join extra field", "POST", ROOM + "/join", 422, "invalid_request",
             {"pseudo": "Bob", "seat": 0}),
    HttpCase("join unknown room", "POST", "/api/rooms/ZZZZZZ/join", 404, "room_not_found",
             {"pseudo": "Bob"}),
    HttpCase("join a full room", "POST", ROOM + "/join", 409, "room_full", {"pseudo": "Bob"},
             setup=_full_room),
    HttpCase("join a started room", "POST", ROOM + "/join", 409, "room_started",
             {"pseudo": "Bob"}, playing=True),
    HttpCase("look at unknown room", "GET", "/api/rooms/ZZZZZZ", 404, "room_not_found"),
    # Seat tokens and the host's rights.
    HttpCase("start without token", "POST", ROOM + "/start", 401, "missing_token"),
    HttpCase("start with wrong token", "POST", ROOM + "/start", 403, "bad_token", token="wrong"),
    HttpCase("start by non-host", "POST", ROOM + "/start", 403, "not_host", token="other"),
    HttpCase("settings without token", "PATCH", ROOM + "/settings", 401, "missing_token",
             {"manches": 3}),
    HttpCase("settings by non-host", "PATCH", ROOM + "/settings", 403, "not_host",
             {"manches": 3}, token="other"),
    HttpCase("bot by non-host", "POST", ROOM + "/bots", 403, "not_host", {"level": "moyen"},
             token="other"),
    # Settings: every value is checked, with its exact type.
    _settings("manches zero", {"manches": 0}),
    _settings("manches 21", {"manches": 21}),
    _settings("manches as text", {"manches": "6"}),
    _settings("manches true", {"manches": True}),
    _settings("manches as float", {"manches": 6.5}),
    _settings("timer too short", {"timer_seconds": 5}),
    _settings("timer too long", {"timer_seconds": 601}),
    _settings("timer as text", {"timer_seconds": "30"}),
    _settings("first player 7", {"first_player": 7}),
    _settings("first player unknown word", {"first_player": "me"}),
    _settings("public as text in settings", {"public": "yes"}),
    _settings("show_known_cards as number", {"show_known_cards": 1}),
    _settings("log_visible null", {"log_visible": None}),
    _settings("unknown setting", {"jokers": True}),
    _settings("settings body a list", [1, 2], "invalid_request"),
    HttpCase("settings body not JSON", "PATCH", ROOM + "/settings", 422, "invalid_request",
             raw=b"{manches: 3", token="host"),
    HttpCase("huge body", "PATCH", ROOM + "/settings", 413, "request_too_large",
             {"x": "y" * 20000}, token="host"),
    HttpCase("huge chunked body", "POST", "/api/rooms", 413, "request_too_large",
             raw=b"chunked"),
    # Seats, computer players, start and rematch.
    HttpCase("remove the host", "DELETE", ROOM + "/seats/0", 409, "cannot_remove_host",
             token="host"),
    HttpCase("remove an empty seat", "DELETE", ROOM + "/seats/3", 404, "seat_not_found",
             token="host"),
    HttpCase("seat number not a number", "DELETE", ROOM + "/seats/abc", 422, "invalid_request",
             token="host"),
    HttpCase("unknown bot level", "POST", ROOM + "/bots", 422, "bad_bot_level",
             {"level": "champion"}, token="host"),
    HttpCase("bot level not text", "POST", ROOM + "/bots", 422, "invalid_request",
             {"level": 3}, token="host"),
    HttpCase("bot in a full room", "POST", ROOM + "/bots", 409, "room_full",
             {"level": "moyen"}, token="host", setup=_full_room),
    HttpCase("first player absent", "POST", ROOM + "/start", 409, "first_player_absent",
             token="host", setup=_first_player_three),
    HttpCase("rematch while waiting", "POST", ROOM + "/rematch", 409, "not_finished",
             token="host"),
    # While the match is played.
    HttpCase("settings while playing", "PATCH", ROOM + "/settings", 409, "not_waiting",
             {"manches": 3}, token="host", playing=True),
    HttpCase("start while playing", "POST", ROOM + "/start", 409, "not_waiting", token="host",
             playing=True),
    HttpCase("bot while playing", "POST", ROOM + "/bots", 409, "not_waiting",
             {"level": "moyen"}, token="host", playing=True),
    HttpCase("remove while playing", "DELETE", ROOM + "/seats/1", 409, "not_waiting",
             token="host", playing=True),
    HttpCase("rematch while playing", "POST", ROOM + "/rematch", 409, "not_finished",
             token="host", playing=True),
    # The framework's own refusals, in the same shape.
    HttpCase("unknown API address", "GET", "/api/nothing", 404, "not_found"),
    HttpCase("unknown room action", "POST", ROOM + "/dance", 404, "not_found", token="host"),
    HttpCase("wrong method on rooms", "DELETE", "/api/rooms", 405, "method_not_allowed"),
    HttpCase("wrong method on start", "PUT", ROOM + "/start", 405, "method_not_allowed",
             token="host"),
    # Profiles and leaderboard.
    HttpCase("unknown profile", "GET", "/api/profiles/Personne", 404, "profile_not_found"),
    HttpCase("unknown match", "GET", "/api/matches/999999", 404, "match_not_found"),
    HttpCase("match id zero", "GET", "/api/matches/0", 422, "invalid_request"),
    HttpCase("match id not a number", "GET", "/api/matches/abc", 422, "invalid_request"),
    HttpCase("leaderboard page zero", "GET", "/api/leaderboard?page=0", 422, "invalid_request"),
    HttpCase("leaderboard unknown sort", "GET", "/api/leaderboard?sort=luck", 422,
             "invalid_request"),
    HttpCase("login fields missing", "POST", "/api/profiles/login", 422, "invalid_request", {}),
    HttpCase("login password not text", "POST", "/api/profiles/login", 422, "invalid_request",
             {"pseudo": "Léa", "password": 12345678}),
    HttpCase("login extra field", "POST", "/api/profiles/login", 422, "invalid_request",
             {"pseudo": "Léa", "password": "motdepasse", "remember": True}),
    HttpCase("password too short", "POST", "/api/profiles/L%C3%A9a/password", 422,
             "invalid_request", {"password": "court"}),
    HttpCase("login unknown pseudo", "POST", "/api/profiles/login", 401, "login_failed",
             {"pseudo": "Personne", "password": "motdepasse"}),
]


def _request(scene: Scene, case: HttpCase) -> Any:
    kwargs: dict[str, Any] = {"headers": scene.headers(case.token)}
    if case.raw == b"chunked":  # no Content-Length: the cap holds while reading
        kwargs["content"] = _chunks(20000)
        kwargs["headers"]["content-type"] = "application/json"
    elif case.raw is not None:
        kwargs["content"] = case.raw
        kwargs["headers"]["content-type"] = "application/json"
    elif case.body is not NO_BODY:
        kwargs["json"] = case.body
    return scene.client.request(case.method, case.path.format(code=scene.code), **kwargs)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_http_input(client: TestClient, table_cls: Any, player_cls: Any,
                        case: HttpCase) -> None:
    scene = Scene(client, table_cls, player_cls, playing=case.playing)
    try:
        if case.setup is not None:
            case.setup(scene)
        before = scene.snapshot()
        response = _request(scene, case)
        assert response.status_code == case.status, response.text
        assert response.headers["content-type"].startswith("application/json")
        check_error(response.json(), case.code)
        scene.assert_unchanged(before)
        scene.assert_quiet(scene.sockets)
    finally:
        scene.close()


@pytest.mark.parametrize("patch", [{}, {"manches": 6, "public": False, "timer_seconds": None}],
                         ids=["empty", "current values"])
def test_settings_change_that_changes_nothing(client: TestClient, table_cls: Any,
                                              player_cls: Any, patch: dict[str, Any]) -> None:
    """`PATCH /settings` with nothing new: the current summary, no version, no broadcast."""
    scene = Scene(client, table_cls, player_cls, playing=False)
    try:
        before = scene.snapshot()
        answer = client.patch(f"/api/rooms/{scene.code}/settings", json=patch,
                              headers=scene.headers("host"))
        assert answer.status_code == 200, answer.text
        assert answer.json() == {**before["summary"], "your_seat": 0}
        scene.assert_unchanged(before)
        scene.assert_quiet(scene.sockets)
        # A real change still bumps the version and reaches everyone.
        changed = client.patch(f"/api/rooms/{scene.code}/settings", json={"manches": 3},
                               headers=scene.headers("host"))
        assert changed.json()["version"] == before["version"] + 1
        for player in scene.sockets:
            assert player.wait_version(before["version"] + 1)["room"]["settings"]["manches"] == 3
    finally:
        scene.close()


def test_unknown_page_is_a_french_html_404(client: TestClient) -> None:
    """A browser asking for a page that does not exist gets the site's HTML page, in French."""
    page = client.get("/nulle-part", headers={"accept": "text/html"})
    assert page.status_code == 404
    assert page.headers["content-type"].startswith("text/html")
    assert '<html lang="fr"' in page.text
    api = client.get("/api/nulle-part", headers={"accept": "text/html"})
    assert api.status_code == 404 and api.json()["code"] == "not_found"
