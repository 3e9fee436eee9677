"""Computer players in rooms: seated by the host, paced, deciding from their own seat's view
only, applied like a human's action, restored after a restart, and rooms left to bots closed."""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import text

from tests.games.yanniv.oracle.wire_oracle import to_wire
from yanniv.games import get_game
from yanniv.games.yanniv.rules import view as engine_view
from yanniv.server.realtime.protocol import SERVER_MESSAGE

FAST = {"bot_delay_scale": 0.0}
PAST_RESULTS = frozenset({"history", "last_result"})


def _room(client: TestClient, levels: list[str], manches: int = 1) -> tuple[str, str]:
    """A room of "Léa" (host, seat 0) and bots of `levels`; returns (code, Léa's token)."""
    created = client.post("/api/rooms", json={"pseudo": "Léa"}).json()
    code, token = created["code"], created["token"]
    host = {"X-Seat-Token": token}
    for level in levels:
        added = client.post(f"/api/rooms/{code}/bots", json={"level": level}, headers=host)
        assert added.status_code == 200, added.text
    patched = client.patch(f"/api/rooms/{code}/settings", json={"manches": manches}, headers=host)
    assert patched.status_code == 200, patched.text
    return code, token


def _start(client: TestClient, code: str, token: str) -> None:
    started = client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": token})
    assert started.status_code == 200, started.text


def _play(player: Any, rng: random.Random, max_actions: int | None = None) -> dict[str, Any]:
    """The human plays whenever its seat must decide, until the match ends (or it acted
    `max_actions` times); bots play the other seats on the server. Returns the last state."""
    acted = 0
    while True:
        state = player.last_state
        view = state["view"] if state else None
        if view is not None and view["finished"]:
            return state
        if view is not None and view["pending"]["seat"] == player.seat and view["legal_actions"]:
            if max_actions is not None and acted >= max_actions:
                return state
            legal = view["legal_actions"]
            yanniv = [a for a in legal if a["type"] == "CallYanniv"]
            action = yanniv[0] if yanniv else rng.choice(legal)
            answer = player.act(action, state["version"])
            assert answer["type"] == "ack", answer
            player.wait_version(answer["version"])
            acted += 1
        else:
            player.recv()


def test_add_bot_rules(client: TestClient) -> None:
    created = client.post("/api/rooms", json={"pseudo": "Léa"}).json()
    code, host = created["code"], {"X-Seat-Token": created["token"]}
    bob = client.post(f"/api/rooms/{code}/join", json={"pseudo": "Bob"}).json()
    url = f"/api/rooms/{code}/bots"
    refused = client.post(url, json={"level": "moyen"}, headers={"X-Seat-Token": bob["token"]})
    assert refused.status_code == 403 and refused.json()["code"] == "not_host"
    assert client.post(url, json={"level": "moyen"}).json()["code"] == "missing_token"
    bad = client.post(url, json={"level": "expert"}, headers=host)
    assert bad.status_code == 422 and bad.json()["code"] == "bad_bot_level"
    assert "facile, moyen ou difficile" in bad.json()["message"]
    assert client.post(url, json={"level": 3}, headers=host).json()["code"] == "invalid_request"
    first = client.post(url, json={"level": "moyen"}, headers=host)
    assert first.status_code == 200
    second = client.post(url, json={"level": "moyen"}, headers=host).json()
    seats = second["seats"]
    assert [s["is_bot"] for s in seats] == [False, False, True, True]
    assert seats[2]["pseudo"] == "Ordinateur (moyen)" and seats[2]["bot_level"] == "moyen"
    assert seats[3]["pseudo"] == "Ordinateur 2 (moyen)" and seats[3]["connected"]
    full = client.post(url, json={"level": "facile"}, headers=host)
    assert full.status_code == 409 and full.json()["code"] == "room_full"
    # The host removes a bot with the ordinary route; a human may not take a bot's name.
    removed = client.delete(f"/api/rooms/{code}/seats/2", headers=host).json()
    assert [s["pseudo"] for s in removed["seats"]] == ["Léa", "Bob", "Ordinateur 2 (moyen)"]
    taken = client.post(f"/api/rooms/{code}/join", json={"pseudo": "ordinateur 2 (moyen)"})
    assert taken.status_code == 422 and taken.json()["code"] == "pseudo_reserved"
    client.post(url, json={"level": "difficile"}, headers=host)
    _start(client, code, created["token"])
    late = client.post(url, json={"level": "facile"}, headers=host)
    assert late.status_code == 409 and late.json()["code"] == "not_waiting"


@pytest.mark.parametrize("levels", [["moyen"], ["facile", "moyen", "facile"]])
def test_human_plays_a_match_against_bots(app_factory: Callable[..., FastAPI], player_cls: Any,
                                          card_codes_of: Callable[..., set[str]],
                                          levels: list[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A complete match; every bot decision saw exactly its own seat's view, nothing more."""
    app = app_factory(**FAST)
    seen: list[dict[str, Any]] = []
    game_cls = type(get_game("yanniv"))
    real = game_cls.bot_decide

    def recording(self: Any, memory: Any, view: Any) -> Any:
        level = memory.level
        # Runs in the worker thread: record now, assert in the test (errors here are caught).
        room = next(iter(app.state.rooms.rooms.values()))
        state = room.match.state  # the room cannot move while its bot must decide
        hidden = {c.code for c in state.pile if c not in view.pile_known}
        for owner in range(state.config.seats):
            if owner != view.viewer:
                known = state.known[view.viewer][owner]
                hidden |= {c.code for c in state.hands[owner] if c not in known}
        seen.append({
            "viewer": view.viewer, "level": level, "memory_seat": memory.seat,
            "own_view": view == engine_view(state, view.viewer),
            # (past manches' results show hands that were since reshuffled)
            "leaked": hidden & card_codes_of(to_wire(view), PAST_RESULTS),
        })
        return real(self, memory, view)

    monkeypatch.setattr(game_cls, "bot_decide", recording)
    records: list[Any] = []
    import yanniv.profiles.record as record

    real_record = record.record_finished_match
    monkeypatch.setattr(record, "record_finished_match",
                        lambda session, m: records.append(m) or real_record(session, m))
    with TestClient(app) as client, contextlib.ExitStack() as stack:
        code, token = _room(client, levels, manches=2)
        human = player_cls(client, code, token, 0, stack)
        human.recv()
        _start(client, code, token)
        final = _play(human, random.Random(len(levels)))
        assert final["room"]["status"] == "finished"
        assert sorted(final["view"]["ranking"]) == list(range(len(levels) + 1))
        for message in human.received:
            SERVER_MESSAGE.validate_python(message)
        # The human only ever saw its own view.
        assert all(m["view"]["viewer"] == 0 for m in human.received
                   if m["type"] == "state" and m["view"])
        with client.app.state.db.engine.connect() as conn:
            rows = conn.execute(text("SELECT seat, by_timer, client_id FROM room_actions")).all()
    bot_seats = set(range(1, len(levels) + 1))
    assert {d["viewer"] for d in seen} == bot_seats
    for decision in seen:
        assert decision["level"] == levels[decision["viewer"] - 1]
        assert decision["memory_seat"] == decision["viewer"]
        assert decision["own_view"]
        assert not decision["leaked"], decision
    # Bot moves are logged like a human's, without a client id and not as the timer's.
    assert {seat for seat, by_timer, client in rows if client is None} == bot_seats
    assert not any(by_timer for _seat, by_timer, _client in rows)
    (finished,) = records
    assert [p.is_bot for p in finished.players] == [False] + [True] * len(levels)
    assert all(p.owner_hash is None for p in finished.players[1:])
    assert finished.players[0].owner_hash is not None


def test_bot_room_survives_a_restart(app_factory: Callable[..., FastAPI],
                                     player_cls: Any) -> None:
    """Bots come back from the seat table, their memory rebuilt from the log, and finish."""
    rng = random.Random(5)
    app1 = app_factory(**FAST)
    with TestClient(app1) as client1, contextlib.ExitStack() as stack:
        app1.state.rooms.seed_factory = lambda: "bots-restart-seed"
        code, token = _room(client1, ["moyen", "facile", "moyen"], manches=2)
        human = player_cls(client1, code, token, 0, stack)
        human.recv()
        _start(client1, code, token)
        state = _play(human, rng, max_actions=6)
        hand = state["view"]["hand"]
        version = state["version"]
    app2 = app_factory(**FAST)
    with TestClient(app2) as client2, contextlib.ExitStack() as stack:
        room = app2.state.rooms.get(code)
        assert room is not None and room.status == "playing"
        assert [s.bot_level for s in room.seats] == [None, "moyen", "facile", "moyen"]
        assert all(s.bot is not None and s.bot.seat == s.seat for s in room.seats[1:])
        human = player_cls(client2, code, token, 0, stack)
        back = human.recv()
        assert back["version"] == version and back["view"]["hand"] == hand
        final = _play(human, rng)
        assert final["room"]["status"] == "finished"
        assert [s["is_bot"] for s in final["room"]["seats"]] == [False, True, True, True]


def test_room_left_to_bots_is_closed(app_factory: Callable[..., FastAPI],
                                     player_cls: Any) -> None:
    app = app_factory(bot_delay_scale=0.0, bot_room_grace_seconds=0.3)
    with TestClient(app) as client:
        created = client.post("/api/rooms", json={"pseudo": "Léa"}).json()
        code, token = created["code"], created["token"]
        host = {"X-Seat-Token": token}
        with contextlib.ExitStack() as stack:
            human = player_cls(client, code, token, 0, stack)
            human.recv()
            for level in ("facile", "facile"):
                client.post(f"/api/rooms/{code}/bots", json={"level": level}, headers=host)
            _start(client, code, token)
            _play(human, random.Random(1), max_actions=3)
        rooms = app.state.rooms
        deadline = time.monotonic() + 10
        while rooms.get(code) is not None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert rooms.get(code) is None, "the room left to bots was closed"
        assert client.get(f"/api/rooms/{code}").json()["code"] == "room_not_found"
        assert not rooms.bot_turns._handles and not rooms.timers._handles
        with app.state.db.engine.connect() as conn:
            assert conn.execute(text("SELECT status FROM rooms")).scalar_one() == "closed"
            assert conn.execute(text("SELECT status FROM room_matches")).scalar_one() \
                == "abandoned"
        # A room whose person is connected stays, bots or not.
        other = client.post("/api/rooms", json={"pseudo": "Hugo"}).json()
        with contextlib.ExitStack() as stack:
            human = player_cls(client, other["code"], other["token"], 0, stack)
            human.recv()
            client.post(f"/api/rooms/{other['code']}/bots", json={"level": "moyen"},
                        headers={"X-Seat-Token": other["token"]})
            time.sleep(0.5)
            assert rooms.get(other["code"]) is not None
    # Closed rooms are not brought back by a restart.
    with TestClient(app_factory(**FAST)) as client:
        assert client.app.state.rooms.get(code) is None
        assert client.app.state.rooms.get(other["code"]) is not None
