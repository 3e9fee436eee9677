"""The journal a socket receives on connect is the tail of what that seat (or a spectator)
was sent live, in order and redacted the same way, after a restart too; and the host's
settings changes carry the version they were chosen at, so they never undo each other."""

from __future__ import annotations

import contextlib
import random
from typing import Any

from fastapi.testclient import TestClient

from yanniv.server.rooms.room import JOURNAL_EVENTS


def _live_events(player: Any) -> list[dict[str, Any]]:
    """Every event the player's socket received in `state` messages, in order."""
    return [e for m in player.received if m["type"] == "state" for e in m["events"]]


def _journal_on_connect(client: TestClient, player_cls: Any, code: str,
                        token: str | None, stack: Any) -> tuple[dict, dict]:
    fresh = player_cls(client, code, token, None, stack)
    first = fresh.recv()
    second = fresh.recv()
    return first, second


def test_a_new_socket_gets_the_events_its_seat_was_sent(client: TestClient, table_cls: Any,
                                                        player_cls: Any) -> None:
    table = table_cls(client, 3, {"manches": 1})
    try:
        players = table.connect()
        spectator = player_cls(client, table.code, None, None, table.stack)
        spectator.recv()
        rng = random.Random(18)
        for _ in range(12):
            assert table.step(rng)
        version = table.sync()["version"]
        spectator.wait_version(version)  # (the players are in step: `sync`)
        for player in [*players, spectator]:
            first, journal = _journal_on_connect(client, player_cls, table.code, player.token,
                                                 table.stack)
            assert first["type"] == "state" and first["events"] == []
            assert journal["type"] == "journal" and journal["version"] == version
            live = _live_events(player)
            assert len(live) > 12
            # Same events, same order, same redaction as this seat got them live; before
            # them the deal, broadcast before these sockets connected.
            events = journal["events"]
            deal = events[:len(events) - len(live)]
            assert events[len(deal):] == live
            assert deal and deal[-1]["type"] == "TurnStarted"
            assert {e["type"] for e in deal} <= {"Misdeal", "MancheStarted", "TurnStarted"}
        # Seat 0's journal shows the cards it drew from the pile, the spectator's does not
        # (played on until seat 0 has drawn from the pile: a deal may start with takes).
        def pile_draws(events: list[dict[str, Any]]) -> list[Any]:
            return [e["card"] for e in events
                    if e["type"] == "Drew" and e["seat"] == 0 and e["source"] == "pile"]

        for _ in range(60):
            if pile_draws(_live_events(players[0])) or not table.step(rng):
                break
        mine = _journal_on_connect(client, player_cls, table.code, table.tokens[0],
                                   table.stack)[1]["events"]
        theirs = _journal_on_connect(client, player_cls, table.code, None,
                                     table.stack)[1]["events"]
        assert pile_draws(mine) and all(pile_draws(mine))
        assert len(pile_draws(theirs)) == len(pile_draws(mine))
        assert not any(pile_draws(theirs))
    finally:
        table.close()


def test_the_journal_keeps_the_latest_events_and_survives_a_restart(
        app_factory: Any, table_cls: Any, player_cls: Any) -> None:
    with TestClient(app_factory()) as client:
        table = table_cls(client, 2, {"manches": 3})
        try:
            players = table.connect()
            rng = random.Random(7)
            steps = 0
            while len(_live_events(players[1])) <= JOURNAL_EVENTS + 20 and table.step(rng):
                steps += 1
            live = _live_events(players[1])
            assert len(live) > JOURNAL_EVENTS, "the match was long enough to drop old events"
            code, token = table.code, table.tokens[1]
        finally:
            table.close()
    # A new server process on the same database.
    with TestClient(app_factory()) as client, contextlib.ExitStack() as stack:
        _, journal = _journal_on_connect(client, player_cls, code, token, stack)
    print(f"{steps} steps, {len(live)} events sent to seat 1, journal {len(journal['events'])}")
    assert journal["events"] == live[-JOURNAL_EVENTS:]


def test_no_journal_in_the_lobby(client: TestClient, table_cls: Any) -> None:
    table = table_cls(client, 2, start=False)
    try:
        with client.websocket_connect(f"/ws/{table.code}?token={table.tokens[0]}") as ws:
            assert ws.receive_json()["type"] == "state"
            ws.send_json({"type": "ping"})
            assert ws.receive_json()["type"] == "presence"
            assert ws.receive_json() == {"type": "pong"}
    finally:
        table.close()


# ---------------------------------------------------------------- settings versions


def _settings(room: dict[str, Any]) -> tuple[int, int | None]:
    return room["settings"]["manches"], room["settings"]["timer_seconds"]


def test_a_change_based_on_an_old_version_is_refused(client: TestClient, table_cls: Any) -> None:
    table = table_cls(client, 2, start=False)
    url = f"/api/rooms/{table.code}/settings"
    version = client.get(f"/api/rooms/{table.code}").json()["version"]
    first = client.patch(url, json={"manches": 2, "version": version}, headers=table.host)
    assert first.status_code == 200 and first.json()["version"] == version + 1
    stale = client.patch(url, json={"manches": 6, "version": version}, headers=table.host)
    assert stale.status_code == 409
    body = stale.json()
    assert body["code"] == "stale_settings" and str(version + 1) in body["message"]
    assert body["message_en"] and body["message_en"] != body["message"]
    room = client.get(f"/api/rooms/{table.code}").json()
    assert _settings(room) == (2, None) and room["version"] == version + 1
    wrong = client.patch(url, json={"manches": 3, "version": "7"}, headers=table.host)
    assert wrong.status_code == 422 and wrong.json()["code"] == "bad_setting"
    wrong = client.patch(url, json={"manches": 3, "version": True}, headers=table.host)
    assert wrong.status_code == 422
    table.close()


def test_two_quick_changes_never_undo_each_other(client: TestClient, table_cls: Any,
                                                 player_cls: Any) -> None:
    """The client's way: each change sends only its field; the second, chosen on the same
    version as the first, is refused, then sent again on the version the room has now. The
    other seat's socket sees manches go to 2 and stay there."""
    table = table_cls(client, 2, start=False)
    try:
        players = table.connect()
        url = f"/api/rooms/{table.code}/settings"
        seen = players[0].last_state["version"]
        assert client.patch(url, json={"manches": 2, "version": seen},
                            headers=table.host).status_code == 200
        second = client.patch(url, json={"timer_seconds": 30, "version": seen},
                              headers=table.host)
        assert second.json()["code"] == "stale_settings"
        now = client.get(f"/api/rooms/{table.code}").json()["version"]
        again = client.patch(url, json={"timer_seconds": 30, "version": now}, headers=table.host)
        assert again.status_code == 200 and _settings(again.json()) == (2, 30)
        states = players[1].recv_until(
            lambda m: m["type"] == "state" and m["room"]["settings"]["timer_seconds"] == 30)
        manches = [m["room"]["settings"]["manches"] for m in states if m["type"] == "state"]
        assert manches and all(n == 2 for n in manches), manches
    finally:
        table.close()
