"""Reconnection with a seat token, and a server restart in the middle of a match (SQLite and
PostgreSQL): the new app rebuilds the room from the seed and the action log."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from typing import Any

import orjson
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import text

from yanniv.games import get_game
from yanniv.games.yanniv.rules import MatchConfig, apply, view
from yanniv.games.yanniv.rules.setup import start_match

SEED = "restart-seed-42"


def test_reconnect_same_seat_same_hand(client: TestClient, table_cls: Any,
                                       player_cls: Any) -> None:
    table = table_cls(client, 3, {"manches": 2})
    rng = random.Random(3)
    try:
        table.connect()
        for _ in range(7):
            assert table.step(rng)
        before = table.sync()
        leaving = table.players[1]
        hand = leaving.last_state["view"]["hand"]
        leaving.ws.close()
        others = [table.players[0], table.players[2]]
        presence = others[0].recv_until(lambda m: m["type"] == "presence")[-1]
        assert {"seat": 1, "connected": False} in presence["seats"]
        back = player_cls(client, table.code, table.tokens[1], 1, table.stack)
        state = back.recv_until(lambda m: m["type"] == "state")[-1]
        assert state["version"] == before["version"]
        assert state["room"]["your_seat"] == 1
        assert state["view"]["viewer"] == 1
        assert state["view"]["hand"] == hand
        table.players[1] = back
        table.play_to_end(rng)
    finally:
        table.close()


def _interrupted_match(app_factory: Callable[..., FastAPI], url: str, table_cls: Any,
                       player_cls: Any) -> None:
    rng = random.Random(77)
    actions: list[dict[str, Any]] = []
    app1 = app_factory(url)
    with TestClient(app1) as client1:
        app1.state.rooms.seed_factory = lambda: SEED
        table = table_cls(client1, 3, {"manches": 3})
        code, tokens = table.code, table.tokens
        table.connect()
        for _ in range(60):
            assert table.step(rng)
        version = table.sync()["version"]
        hands = [p.last_state["view"]["hand"] for p in table.players]
        last_activity = app1.state.rooms.get(code).updated_at
        table.close()
    with app1.state.db.engine.connect() as conn:
        stored = conn.execute(text("SELECT version FROM rooms WHERE code = :c"),
                              {"c": code}).scalar()
    assert stored < version  # an action writes its log row, not its room's row
    app2 = app_factory(url)
    with TestClient(app2) as client2:
        room = app2.state.rooms.get(code)
        assert room is not None and room.status == "playing"
        # The room as its latest action left it: its version, and its last activity (from
        # which an empty room's idle time counts).
        assert room.version == version
        assert room.updated_at == last_activity
        table.client = client2
        table.stack = contextlib.ExitStack()
        table.players = [player_cls(client2, code, t, n, table.stack)
                         for n, t in enumerate(tokens)]
        for player, hand in zip(table.players, hands, strict=True):
            state = player.recv_until(lambda m: m["type"] == "state")[-1]
            assert state["version"] == version
            assert state["view"]["hand"] == hand
        final = table.play_to_end(rng)
        table.close()
        match = room.match
        assert match.seed == SEED
        with app2.state.db.engine.connect() as conn:  # the log as stored, in step order
            rows = conn.execute(
                text("SELECT action FROM room_actions WHERE match_id = :m ORDER BY step"),
                {"m": match.id})
            actions = [orjson.loads(a) if isinstance(a, str | bytes) else a for (a,) in rows]
    # An uninterrupted run with the same seed and the same actions ends identically.
    state, _ = start_match(MatchConfig(seats=3, manches=3, first_player=None), SEED)
    for action in actions:
        state, _ = apply(state, get_game("yanniv").decode_action(action).action)
    assert state.finished
    assert list(state.scores) == final["view"]["scores"]
    assert list(state.ranking) == final["view"]["ranking"]
    encoded = get_game("yanniv").view_encoder().view(view(state, 0))
    assert encoded == table.players[0].last_state["view"]


def test_restart_sqlite(app_factory: Callable[..., FastAPI], sqlite_url: str, table_cls: Any,
                        player_cls: Any) -> None:
    _interrupted_match(app_factory, sqlite_url, table_cls, player_cls)


@pytest.mark.postgres
def test_restart_postgres(app_factory: Callable[..., FastAPI], postgres_url: str,
                          table_cls: Any, player_cls: Any) -> None:
    _interrupted_match(app_factory, postgres_url, table_cls, player_cls)


def test_duplicate_action_id_after_restart(app_factory: Callable[..., FastAPI], table_cls: Any,
                                           player_cls: Any) -> None:
    app1 = app_factory()
    with TestClient(app1) as client1:
        table = table_cls(client1, 2)
        table.connect()
        state = table.sync()
        actor = table.players[state["view"]["pending"]["seat"]]
        action = actor.last_state["view"]["legal_actions"][0]
        first = actor.act(action, state["version"], action_id="once")
        assert first["type"] == "ack"
        again = actor.act(action, state["version"], action_id="once")
        assert again == first
        step = app1.state.rooms.get(table.code).match.state.step
        table.close()
    app2 = app_factory()
    with TestClient(app2) as client2:
        seat = actor.seat
        player = player_cls(client2, table.code, table.tokens[seat], seat, table.stack)
        player.recv_until(lambda m: m["type"] == "state")
        assert player.act(action, state["version"], action_id="once") == first
        assert app2.state.rooms.get(table.code).match.state.step == step
        # The fingerprint of what was sent under the id survived the restart too.
        refused = player.act({"type": "DrawPile"}, first["version"], action_id="once")
        step_after = app2.state.rooms.get(table.code).match.state.step
        table.close()
    assert refused["type"] == "error" and refused["code"] == "duplicate_id"
    assert step_after == step


def test_waiting_room_survives_restart(app_factory: Callable[..., FastAPI]) -> None:
    app1 = app_factory()
    with TestClient(app1) as client:
        host = client.post("/api/rooms", json={"pseudo": "Léa", "public": True}).json()
        bob = client.post(f"/api/rooms/{host['code']}/join", json={"pseudo": "Bob"}).json()
        client.patch(f"/api/rooms/{host['code']}/settings", json={"manches": 4},
                     headers={"X-Seat-Token": host["token"]})
        before = client.get(f"/api/rooms/{host['code']}",
                            headers={"X-Seat-Token": bob["token"]}).json()
    with TestClient(app_factory()) as client:
        after = client.get(f"/api/rooms/{host['code']}",
                           headers={"X-Seat-Token": bob["token"]}).json()
        assert after == before and after["your_seat"] == 1
        started = client.post(f"/api/rooms/{host['code']}/start",
                              headers={"X-Seat-Token": host["token"]})
        assert started.json()["status"] == "playing"
        assert started.json()["version"] == before["version"] + 1
