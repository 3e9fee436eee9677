"""The committed JSON Schema (docs/protocol.schema.json) is current, and real traffic obeys it.

Messages come from a complete match played by real socket clients against the app, for every
recipient (each seat and a spectator), plus the room and profiles HTTP answers; they are
checked with the `jsonschema` library against the committed file, not against the models
that generated it.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from fastapi.testclient import TestClient

from yanniv.cli import main as cli_main
from yanniv.server.realtime.protocol_schema import protocol_schema

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "docs" / "protocol.schema.json"
RANKS = "A23456789TJQK"
SUITS = "SHDC"


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


def validator(schema: dict[str, Any], target: dict[str, Any]) -> jsonschema.Validator:
    return jsonschema.Draft202012Validator({**target, "$defs": schema["$defs"]})


def defined(schema: dict[str, Any], name: str) -> jsonschema.Validator:
    return validator(schema, {"$ref": f"#/$defs/{name}"})


def check(v: jsonschema.Validator, value: Any, what: str) -> None:
    error = jsonschema.exceptions.best_match(v.iter_errors(value))
    if error is not None:
        pytest.fail(f"{what} does not match the schema at {list(error.absolute_path)}: "
                    f"{error.message[:300]}")


def test_committed_schema_is_current() -> None:
    if json.loads(SCHEMA_FILE.read_text(encoding="utf-8")) != protocol_schema():
        pytest.fail("docs/protocol.schema.json is out of date with the code: run "
                    "`yanniv schema` and commit the file")


def test_schema_command_writes_and_checks(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "schema.json"
    assert cli_main(["schema", "--check", "--output", str(target)]) == 1
    assert not target.exists()
    assert cli_main(["schema", "--output", str(target)]) == 0
    assert json.loads(target.read_text(encoding="utf-8")) == json.loads(
        SCHEMA_FILE.read_text(encoding="utf-8"))
    assert cli_main(["schema", "--check", "--output", str(target)]) == 0
    capsys.readouterr()


def test_schema_is_a_valid_draft_2020_12_schema(schema: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_card_codes(schema: dict[str, Any]) -> None:
    card = defined(schema, "Card")
    for rank in RANKS:
        for suit in SUITS:
            assert card.is_valid(rank + suit)
    for wrong in ("1S", "10H", "th", "AX", "KSS", "", "T"):
        assert not card.is_valid(wrong), wrong


def test_actions_and_client_messages(schema: dict[str, Any]) -> None:
    client = defined(schema, "ClientMessage")
    examples = [
        {"type": "Play", "cards": ["5H", "5S"]}, {"type": "CallYanniv"}, {"type": "DrawPile"},
        {"type": "TakeDiscard", "card": "5H"}, {"type": "UseQueen"},
        {"type": "QueenKeep", "keep": "3S", "order": ["9H", "KD"]},
        {"type": "ChoosePower", "rank": 11}, {"type": "ChooseColour", "colour": "red"},
        {"type": "PlayAtOnce", "card": "5D"}, {"type": "AskFour", "target": 2, "rank": 7},
        {"type": "GiveCard", "card": "7C"}, {"type": "KingSwap", "card": "9S", "target": 1},
        {"type": "Skip"},
    ]
    for action in examples:
        check(client, {"type": "action", "id": "a" * 32, "version": 3, "action": action},
              action["type"])
    check(client, {"type": "ping"}, "ping")
    wrong = [
        {"type": "action", "id": "", "version": 3, "action": {"type": "Skip"}},
        {"type": "action", "id": "x" * 65, "version": 3, "action": {"type": "Skip"}},
        {"type": "action", "id": "x", "version": 3, "action": {"type": "Jump"}},
        {"type": "action", "id": "x", "version": 3, "action": {"type": "Play", "cards": ["1S"]}},
        {"type": "action", "id": "x", "version": 3, "action": {"type": "Skip", "more": 1}},
        {"type": "action", "id": "x", "action": {"type": "Skip"}},
        {"type": "ping", "extra": True},
        {"type": "hello"},
    ]
    for message in wrong:
        assert not client.is_valid(message), message


class Endpoints:
    """Validators of the committed schema's HTTP routes (`x-endpoints`)."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema
        self.routes = schema["x-endpoints"]
        self.error = defined(schema, "ErrorBody")
        self.used: set[str] = set()

    def answer(self, route: str, response: Any, body: Any = None) -> dict[str, Any]:
        entry = self.routes[route]
        self.used.add(route)
        if body is not None:
            check(validator(self.schema, entry["request"]), body, f"request of {route}")
        assert response.status_code == entry["status"], (route, response.text)
        data = response.json()
        check(validator(self.schema, entry["response"]), data, f"answer of {route}")
        return data

    def refusal(self, response: Any, status: int, code: str) -> None:
        assert response.status_code == status, response.text
        check(self.error, response.json(), f"error {code}")
        assert response.json()["code"] == code


def test_http_bodies_match_the_schema(client: TestClient, schema: dict[str, Any]) -> None:
    api = Endpoints(schema)
    body = {"pseudo": "Léa", "public": False}
    created = api.answer("POST /api/rooms", client.post("/api/rooms", json=body), body)
    code, host = created["code"], {"X-Seat-Token": created["token"]}
    body = {"pseudo": "Bob"}
    joined = api.answer("POST /api/rooms/{code}/join",
                        client.post(f"/api/rooms/{code}/join", json=body), body)
    api.answer("GET /api/rooms/{code}", client.get(f"/api/rooms/{code}"))
    api.answer("GET /api/rooms/{code}", client.get(
        f"/api/rooms/{code}", headers={"X-Seat-Token": joined["token"]}))
    body = {"manches": 1, "first_player": "host", "timer_seconds": 600, "public": True}
    api.answer("PATCH /api/rooms/{code}/settings", client.patch(
        f"/api/rooms/{code}/settings", json=body, headers=host), body)
    body = {"level": "facile"}
    room = api.answer("POST /api/rooms/{code}/bots", client.post(
        f"/api/rooms/{code}/bots", json=body, headers=host), body)
    assert room["seats"][2]["is_bot"] is True
    with client.websocket_connect(f"/ws/{code}?token={created['token']}") as ws:
        ws.receive_json()  # someone connected: the room shows in the public list
        listed = api.answer("GET /api/rooms/public", client.get("/api/rooms/public"))
        assert [r["code"] for r in listed] == [code]
    api.answer("DELETE /api/rooms/{code}/seats/{seat_index}",
               client.delete(f"/api/rooms/{code}/seats/2", headers=host))
    api.refusal(client.get("/api/rooms/ZZZZZZ"), 404, "room_not_found")
    api.refusal(client.patch(f"/api/rooms/{code}/settings", json={"manches": 99},
                             headers=host), 422, "bad_setting")
    api.refusal(client.post(f"/api/rooms/{code}/start"), 401, "missing_token")
    api.answer("POST /api/rooms/{code}/start",
               client.post(f"/api/rooms/{code}/start", headers=host))
    api.refusal(client.post(f"/api/rooms/{code}/rematch", headers=host), 409, "not_finished")


#: Private event fields, and who may see them, as docs/PROTOCOL.md §11 states it.
PRIVATE: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "Drew": (("card",), ("seat",)),
    "QueenKept": (("kept", "returned"), ("seat",)),
    "FourAnswered": (("card",), ("seat", "asker")),
    "FourExchanged": (("card",), ("seat", "target")),
    "KingSwapped": (("given", "taken"), ("seat", "target")),
}


def _check_redaction(event: dict[str, Any], recipient: int | None) -> None:
    """Non-parties get null private fields; parties get them (when there is a card)."""
    private = PRIVATE.get(event["type"])
    if private is None or (event["type"] == "Drew" and event["source"] == "discard"):
        if event["type"] == "Drew":
            assert event["card"] is not None, event  # a card from the discard is public
        return
    names, party_fields = private
    party = recipient is not None and recipient in {event[f] for f in party_fields}
    for name in names:
        if not party:
            assert event[name] is None, (recipient, event)
        elif event["type"] != "Drew" and event.get("given", True):
            assert event[name] is not None, (recipient, event)


def _validate_all(received: list[dict[str, Any]], server: jsonschema.Validator,
                  who: str) -> None:
    for message in received:
        check(server, message, f"message to {who}")


def test_a_full_match_matches_the_schema_for_every_recipient(
        client: TestClient, table_cls: Any, player_cls: Any, schema: dict[str, Any]) -> None:
    """Three seats and a spectator; with a timer (deadlines set) that never fires."""
    server = defined(schema, "ServerMessage")
    client_message = defined(schema, "ClientMessage")
    api = Endpoints(schema)
    table = table_cls(client, 3, {"manches": 2, "timer_seconds": 600})
    events_seen: set[str] = set()
    kinds_seen: set[str] = set()
    try:
        players = table.connect()
        spectator = player_cls(client, table.code, None, None, table.stack)
        spectator.recv()
        # A few refusals and a ping, so that error, pong and presence messages are checked too.
        first = players[0]
        first.send({"type": "ping"})
        first.ws.send_text("not json")
        first.send({"type": "hello"})
        first.send({"type": "action", "version": 1, "action": {}})
        spectator.send({"type": "action", "id": "s-1", "version": 1,
                        "action": {"type": "DrawPile"}})
        stale = first.act({"type": "DrawPile"}, 0)
        assert stale["type"] == "error"
        with contextlib.ExitStack() as stack:  # a second tab: presence does not change
            player_cls(client, table.code, table.tokens[1], 1, stack).recv()
        rng = random.Random(2026)

        def each(t: Any) -> None:
            for player in t.players:
                view = player.last_state["view"]
                kinds_seen.add(view["pending"]["kind"] if view["pending"] else "none")
                for action in view["legal_actions"]:
                    check(client_message, {"type": "action", "id": "f" * 32,
                                           "version": player.last_state["version"],
                                           "action": action}, "legal action")

        final = table.play_to_end(rng, each=each)
        spectator.wait_version(final["version"])
        for player in [*players, spectator]:
            who = "the spectator" if player.seat is None else f"seat {player.seat}"
            _validate_all(player.received, server, who)
            for message in player.received:
                for event in message.get("events", []):
                    events_seen.add(event["type"])
                    _check_redaction(event, player.seat)
        types = {m["type"] for p in players for m in p.received}
        assert types == {"state", "ack", "error", "presence", "pong", "journal"}
        assert {"MancheStarted", "TurnStarted", "Played", "Drew", "YannivCalled",
                "YannivChecked", "MancheEnded", "MatchEnded"} <= events_seen
        assert {"turn", "draw", "none"} <= kinds_seen
    finally:
        table.close()
    # The finished match reached profiles: their JSON answers follow the schema too.
    board = api.answer("GET /api/leaderboard", client.get("/api/leaderboard?sort=matches"))
    assert {e["pseudo"] for e in board["entries"]} == {"Joueur0", "Joueur1", "Joueur2"}
    profile = api.answer("GET /api/profiles/{pseudo}", client.get("/api/profiles/Joueur0"))
    match_id = profile["last_matches"][0]["id"]
    api.answer("GET /api/matches/{match_id}", client.get(f"/api/matches/{match_id}"))
    body = {"password": "un mot de passe"}
    api.answer("POST /api/profiles/{pseudo}/password",
               client.post("/api/profiles/Joueur0/password", json=body), body)
    body = {"pseudo": "Joueur0", "password": "un mot de passe"}
    api.answer("POST /api/profiles/login", client.post("/api/profiles/login", json=body), body)
    room = api.answer("POST /api/rooms/{code}/rematch", client.post(
        f"/api/rooms/{table.code}/rematch", headers=table.host))
    assert room["status"] == "waiting"


def test_endpoints_cover_every_api_route(client: TestClient, schema: dict[str, Any]) -> None:
    """Every JSON route the app serves (as its OpenAPI document lists them) is in the schema's
    `x-endpoints` with the same success status, and nothing else is."""
    openapi = client.get("/openapi.json").json()
    served = {
        f"{method.upper()} {path}": int(next(s for s in operation["responses"]
                                              if s.startswith("2")))
        for path, operations in openapi["paths"].items() if path.startswith("/api/")
        for method, operation in operations.items()
    }
    assert served == {name: entry["status"] for name, entry in schema["x-endpoints"].items()}
    for name, entry in schema["x-endpoints"].items():
        assert re.fullmatch(r"(GET|POST|PATCH|DELETE) /api/\S+", name)
        assert entry["status"] in (200, 201)
