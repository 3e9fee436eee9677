"""Timers: the seat that must act has a deadline; when it passes the server plays the default
action for it, connected or not, and the deadline survives a restart."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from yanniv.db.session import normalize_url

# 10 s per decision, scaled to 50 ms.
FAST = {"timer_scale": 0.005}


def test_timer_plays_default_action(app_factory: Callable[..., FastAPI], table_cls: Any) -> None:
    with (
        TestClient(app_factory(**FAST)) as client,
        table_cls(client, 2, {"timer_seconds": 10, "manches": 1}) as table,
    ):
        table.connect()
        first = table.sync()
        assert first["deadline"] is not None
        assert first["deadline"] - time.time() * 1000 < 1000
        # Nobody acts: the timer plays, again and again, until the match ends.
        watcher = table.players[0]
        final = watcher.recv_until(
            lambda m: m["type"] == "state" and m["view"]["finished"]
        )[-1]
        assert final["deadline"] is None
        assert final["version"] > first["version"] + 5
        room = client.app.state.rooms.get(table.code)
        assert room.status == "finished"


def test_timer_then_players_go_on(app_factory: Callable[..., FastAPI], table_cls: Any) -> None:
    with (
        TestClient(app_factory(**FAST)) as client,
        table_cls(client, 3, {"timer_seconds": 10, "manches": 1}) as table,
    ):
        table.connect()
        watcher = table.players[0]
        version = table.sync()["version"]
        # Let one deadline pass, then play along (actions racing the timer may be stale).
        watcher.wait_version(version + 1)
        rng = random.Random(2)
        acks = 0
        state = watcher.last_state
        while not state["view"]["finished"]:
            actor = table.players[state["view"]["pending"]["seat"]]
            own = actor.wait_version(state["version"])
            if own["version"] == state["version"] and own["view"]["legal_actions"]:
                answer = actor.act(rng.choice(own["view"]["legal_actions"]), own["version"])
                if answer["type"] == "ack":
                    acks += 1
                else:
                    assert answer["code"] in ("stale_version", "not_your_turn"), answer
            state = watcher.wait_version(state["version"] + 1)
        assert acks > 0


def test_deadline_survives_restart(app_factory: Callable[..., FastAPI], table_cls: Any,
                                   player_cls: Any) -> None:
    app1 = app_factory(timer_scale=0.2)  # 10 s → 2 s
    with TestClient(app1) as client:
        table = table_cls(client, 2, {"timer_seconds": 10})
        code, tokens = table.code, table.tokens
        table.connect()
        state = table.sync()
        deadline, version = state["deadline"], state["version"]
        table.close()
    app2 = app_factory(timer_scale=0.2)
    with TestClient(app2) as client, table:
        room = app2.state.rooms.get(code)
        assert room.match.deadline_ms == deadline
        player = player_cls(client, code, tokens[0], 0, table.stack)
        later = player.recv_until(lambda m: m["type"] == "state" and m["version"] > version)[-1]
        assert time.time() * 1000 >= deadline - 50
        assert later["version"] == version + 1


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
@pytest.mark.parametrize("timer", [10, None])
def test_the_stored_deadline_follows_every_action(
        database: str, timer: int | None, request: pytest.FixtureRequest,
        app_factory: Callable[..., FastAPI], table_cls: Any) -> None:
    """What a restart would read (`room_matches.deadline_ms`, read back here with plain SQL)
    is the deadline the seats were sent, after every action: a new one with a timer, none
    without (the write skips an unchanged deadline; on PostgreSQL, the group commit's one
    statement does)."""
    url = request.getfixturevalue("sqlite_url" if database == "sqlite" else "postgres_url")
    engine = create_engine(normalize_url(url))
    settings = {"timer_seconds": timer, "manches": 1}
    try:
        with TestClient(app_factory(url)) as client, table_cls(client, 2, settings) as table:
            table.connect()
            state = table.sync()
            room = client.app.state.rooms.get(table.code)
            rng = random.Random(5)
            for _ in range(8):
                actor = table.players[state["view"]["pending"]["seat"]]
                own = actor.wait_version(state["version"])
                answer = actor.act(rng.choice(own["view"]["legal_actions"]), own["version"])
                assert answer["type"] == "ack", answer
                state = table.players[0].wait_version(answer["version"])
                with engine.connect() as conn:
                    stored = conn.execute(
                        text("SELECT deadline_ms FROM room_matches WHERE id = :id"),
                        {"id": room.match.id}).scalar_one()
                assert stored == state["deadline"]
                assert (stored is None) == (timer is None)
    finally:
        engine.dispose()


def test_an_action_without_a_deadline_leaves_the_match_row_alone(
        sqlite_url: str, app_factory: Callable[..., FastAPI], table_cls: Any) -> None:
    """Without a timer, SQLite's group commit does not touch the match's row at all (no
    statement for a deadline that stays None): a value put there behind the server's back
    survives the next action. With a timer, the next action writes its deadline over it."""
    engine = create_engine(normalize_url(sqlite_url))
    try:
        for timer in (None, 10):
            with (TestClient(app_factory(sqlite_url)) as client,
                  table_cls(client, 2, {"timer_seconds": timer, "manches": 1}) as table):
                table.connect()
                state = table.sync()
                match_id = client.app.state.rooms.get(table.code).match.id
                with engine.begin() as conn:
                    conn.execute(text("UPDATE room_matches SET deadline_ms = 7 WHERE id = :id"),
                                 {"id": match_id})
                actor = table.players[state["view"]["pending"]["seat"]]
                own = actor.wait_version(state["version"])
                answer = actor.act(own["view"]["legal_actions"][0], own["version"])
                assert answer["type"] == "ack", answer
                state = table.players[0].wait_version(answer["version"])
                with engine.connect() as conn:
                    stored = conn.execute(
                        text("SELECT deadline_ms FROM room_matches WHERE id = :id"),
                        {"id": match_id}).scalar_one()
                assert stored == (7 if timer is None else state["deadline"]), timer
    finally:
        engine.dispose()
