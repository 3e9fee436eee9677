"""Complete matches played by 2, 3 and 4 socket clients through the app, and what each sees."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from yanniv.games import get_game
from yanniv.server.realtime.protocol import SERVER_MESSAGE

PAST_RESULTS = frozenset({"history", "last_result"})


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_complete_match(client: TestClient, table_cls: Any, seats: int) -> None:
    table = table_cls(client, seats, {"manches": 2})
    try:
        table.connect()
        final = table.play_to_end(random.Random(seats))
        view = final["view"]
        assert final["room"]["status"] == "finished"
        assert sorted(view["ranking"]) == list(range(seats))
        assert len(view["history"]) >= 2
        # Every seat received the same final scores.
        assert {tuple(p.last_state["view"]["scores"]) for p in table.players} == {
            tuple(view["scores"])
        }
        # Every message has the shape of its pydantic model (protocol.py).
        for player in table.players:
            for message in player.received:
                SERVER_MESSAGE.validate_python(message)
        # Each seat's view is its own.
        for player in table.players:
            assert player.last_state["view"]["viewer"] == player.seat
            assert player.last_state["room"]["your_seat"] == player.seat
    finally:
        table.close()
    room = client.get(f"/api/rooms/{table.code}").json()
    assert room["status"] == "finished"
    # Recorded for profiles in the same transaction that marked the match finished.
    with client.app.state.db.engine.connect() as conn:
        rows = conn.execute(text("SELECT status, record_id FROM room_matches")).all()
        assert len(rows) == 1 and rows[0][0] == "finished" and rows[0][1] is not None
        seed, config, rules_version, actions = conn.execute(
            text("SELECT seed, config, rules_version, actions FROM finished_matches "
                 "WHERE id = :id"), {"id": rows[0][1]}).one()
    # The record holds the whole log (read back from the database, not from memory): it
    # replays to the scores every seat saw.
    game = get_game("yanniv")
    state, _ = game.new_match(game.config_from_data(_json(config), rules_version), seed)
    logged = _json(actions)
    for action in logged:
        state, _ = game.apply(state, game.decode_action(action).action)
    assert game.is_over(state) and len(logged) == state.step
    assert list(state.scores) == view["scores"]


def _json(value: Any) -> Any:
    """A JSON column as data (SQLite's driver may hand back its text)."""
    return orjson.loads(value) if isinstance(value, str | bytes) else value


def _hidden_from(state: Any, seat: int) -> set[str]:
    """Cards in other seats' hands that `seat` does not know, on the server's own state."""
    hidden: set[str] = set()
    for owner in range(state.config.seats):
        if owner != seat:
            known = state.known[seat][owner]
            hidden |= {c.code for c in state.hands[owner] if c not in known}
    return hidden


def _checked_part(message: dict[str, Any]) -> dict[str, Any]:
    """What of a message must not leak: everything but revealed past hands (end-of-manche
    results) and events before a new deal (those cards went back into the deck)."""
    events = message.get("events", [])
    starts = [i for i, e in enumerate(events) if e["type"] == "MancheStarted"]
    if starts:
        events = events[starts[-1]:]
    events = [e for e in events if e["type"] != "MancheEnded"]
    return {**message, "events": events, "room": None}


@pytest.mark.parametrize("seats,seed", [(2, 11), (3, 12), (4, 13), (4, 14)])
def test_no_hidden_card_reaches_a_seat(client: TestClient, table_cls: Any, seats: int, seed: int,
                                       card_codes_of: Callable[..., set[str]]) -> None:
    table = table_cls(client, seats, {"manches": 2})
    rooms = client.app.state.rooms
    checked = 0

    def check(t: Any) -> None:
        nonlocal checked
        state = rooms.get(t.code).match.state
        for player in t.players:
            for message in player.received:
                leaked = card_codes_of(_checked_part(message), PAST_RESULTS)
                assert not leaked & _hidden_from(state, player.seat), (message, player.seat)
                checked += 1
            player.received.clear()

    try:
        table.connect()
        check(table)
        table.play_to_end(random.Random(seed), each=check)
    finally:
        table.close()
    assert checked > 100


def test_spectator_sees_no_hand(client: TestClient, table_cls: Any, player_cls: Any,
                                card_codes_of: Callable[..., set[str]]) -> None:
    table = table_cls(client, 2)
    try:
        table.connect()
        spectator = player_cls(client, table.code, None, None, table.stack)
        message = spectator.recv_until(lambda m: m["type"] == "state")[-1]
        assert message["view"]["hand"] is None
        assert message["room"]["your_seat"] is None
        assert message["view"]["legal_actions"] == []
        state = client.app.state.rooms.get(table.code).match.state
        public = set().union(*state.known[state.config.seats])
        private = {c.code for hand in state.hands for c in hand if c not in public}
        assert not card_codes_of(_checked_part(message), frozenset({"history"})) & private
        answer = spectator.act({"type": "DrawPile"}, message["version"])
        assert answer["code"] == "spectator"
    finally:
        table.close()


def test_known_cards_hidden_when_setting_off(client: TestClient, table_cls: Any) -> None:
    table = table_cls(client, 3, {"show_known_cards": False, "manches": 1})
    try:
        table.connect()
        table.play_to_end(random.Random(5), each=_assert_no_opponent_known_cards)
    finally:
        table.close()


def _assert_no_opponent_known_cards(table: Any) -> None:
    for player in table.players:
        for p in player.last_state["view"]["players"]:
            if p["seat"] != player.seat:
                assert p["known_cards"] == []
