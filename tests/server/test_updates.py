"""`?updates=1`: a socket that asked for updates, merging each `update` into the `state` it
holds as PROTOCOL.md 5.4 says, holds at every version exactly the `state` a plain socket of the
same seat was sent (the plain socket is the oracle; the merge here is the client's, written
from the document): through a whole match of several manches, a reconnect, a presence change,
the lobby of a rematch and the next match."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import orjson
from fastapi.testclient import TestClient

from yanniv.server.protocol import SERVER_MESSAGE


class Merging:
    """A socket with `updates=1`, holding the whole `state` it was sent, version by version."""

    def __init__(self, client: TestClient, code: str, token: str | None,
                 stack: contextlib.ExitStack) -> None:
        url = f"/ws/{code}?updates=1" + (f"&token={token}" if token else "")
        self.ws = stack.enter_context(client.websocket_connect(url))
        self.held: dict[str, Any] | None = None
        #: Version → the whole state held after that version's message.
        self.by_version: dict[int, dict[str, Any]] = {}
        #: Version → the kind of message that brought it, and that message's size.
        self.kinds: dict[int, str] = {}
        self.sizes: dict[int, int] = {}
        #: For each update, whether it carried the room summary.
        self.update_rooms: list[bool] = []

    def recv(self) -> dict[str, Any]:
        text = self.ws.receive_text()
        message = SERVER_MESSAGE.validate_json(text).model_dump()
        kind = message["type"]
        if kind == "state":
            self.held = message
        elif kind == "update":
            held = self.held
            assert held is not None and held["view"] is not None, "an update needs a view held"
            room = message["room"]
            self.update_rooms.append(room is not None)
            if room is None:
                room = {**held["room"], "version": message["version"]}
            self.held = {"type": "state", "version": message["version"], "room": room,
                         "view": {**held["view"], **message["view"]},
                         "events": message["events"], "deadline": message["deadline"]}
        elif kind == "presence" and self.held is not None:
            connected = {s["seat"]: s["connected"] for s in message["seats"]}
            seats = [{**s, "connected": connected.get(s["seat"], s["connected"])}
                     for s in self.held["room"]["seats"]]
            self.held = {**self.held, "room": {**self.held["room"], "seats": seats}}
            self.by_version[self.held["version"]] = self.held
        if kind in ("state", "update"):
            assert self.held is not None
            self.kinds[message["version"]] = kind
            self.sizes[message["version"]] = len(text)
            self.by_version[message["version"]] = self.held
        return message

    def wait_version(self, version: int) -> None:
        while self.held is None or self.held["version"] < version:
            self.recv()


def _plain_states(player: Any) -> dict[int, dict[str, Any]]:
    """Version → the `state` a plain socket was sent (presence applied as the page does)."""
    out: dict[int, dict[str, Any]] = {}
    held: dict[str, Any] | None = None
    for message in player.received:
        if message["type"] == "state":
            held = message
            out[message["version"]] = held
        elif message["type"] == "presence" and held is not None:
            connected = {s["seat"]: s["connected"] for s in message["seats"]}
            seats = [{**s, "connected": connected.get(s["seat"], s["connected"])}
                     for s in held["room"]["seats"]]
            held = {**held, "room": {**held["room"], "seats": seats}}
            out[held["version"]] = held
    return out


def _same_as_plain(merging: Merging, plain: Any) -> int:
    """Every version both sockets got: the same whole state. Returns how many were compared."""
    oracle = _plain_states(plain)
    common = sorted(set(oracle) & set(merging.by_version))
    first = min(merging.kinds)  # the state on connect, whose events are none (5.1)
    for version in common:
        held, expected = merging.by_version[version], oracle[version]
        if version == first:
            assert held["events"] == []
            held, expected = {**held, "events": None}, {**expected, "events": None}
        assert held == expected, f"version {version}"
    return len(common)


def test_merged_updates_are_the_plain_states(client: TestClient, table_cls: Any,
                                             player_cls: Any) -> None:
    table = table_cls(client, 3, {"manches": 3})
    try:
        players = table.connect()
        plain_spectator = player_cls(client, table.code, None, None, table.stack)
        plain_spectator.recv()
        merging = [Merging(client, table.code, token, table.stack) for token in table.tokens]
        spectator = Merging(client, table.code, None, table.stack)
        rng = random.Random(19)
        steps = 0
        while table.step(rng):
            steps += 1
            version = table.sync()["version"]
            for watcher in [*merging, spectator]:
                watcher.wait_version(version)
            plain_spectator.wait_version(version)
            if steps == 25:
                # Seat 1 reconnects its updating socket: a whole state first, updates after.
                merging[1].ws.close()
                merging[1] = Merging(client, table.code, table.tokens[1], table.stack)
                merging[1].recv()
                assert list(merging[1].kinds.values()) == ["state"]
            if steps == 40:
                # Seat 0 leaves (both its sockets close) and comes back: two presence
                # changes, so the next update of every other socket carries the room summary.
                merging[0].ws.close()
                players[0].ws.close()
                players[0] = player_cls(client, table.code, table.tokens[0], 0, table.stack)
                table.players[0] = players[0]
                players[0].recv()
                merging[0] = Merging(client, table.code, table.tokens[0], table.stack)
                merging[0].recv()
        assert steps > 60
        pairs = [*zip(merging, players, strict=True), (spectator, plain_spectator)]
        assert min(_same_as_plain(m, p) for m, p in pairs) > 20
        for watcher, _ in pairs:
            kinds = list(watcher.kinds.values())
            assert kinds[0] == "state"
            assert kinds.count("update") > 0.9 * len(kinds)
        assert not merging[2].update_rooms[0] and any(merging[2].update_rooms)
        # What updates leave out: most of a state (history, rules, the room summary).
        m = merging[0]
        updates = [m.sizes[v] for v, k in m.kinds.items() if k == "update"]
        states = [len(orjson.dumps(p)) for p in players[0].received if p["type"] == "state"]
        assert sum(updates) / len(updates) < 0.6 * sum(states) / len(states)
    finally:
        table.close()


def test_updates_across_a_rematch(client: TestClient, table_cls: Any) -> None:
    """The lobby of a rematch has no view: the next match's first message is a whole state,
    and updates follow."""
    table = table_cls(client, 2, {"manches": 1})
    try:
        players = table.connect()
        merging = [Merging(client, table.code, token, table.stack) for token in table.tokens]
        rng = random.Random(20)
        table.play_to_end(rng)
        rematch = client.post(f"/api/rooms/{table.code}/rematch", headers=table.host)
        assert rematch.status_code == 200, rematch.text
        started = client.post(f"/api/rooms/{table.code}/start", headers=table.host)
        assert started.status_code == 200, started.text
        version = started.json()["version"]
        for player in players:
            player.wait_version(version)
        for _ in range(10):
            assert table.step(rng)
        version = table.sync()["version"]
        for m, p in zip(merging, players, strict=True):
            m.wait_version(version)
            assert _same_as_plain(m, p) > 20
            lobby = [v for v, s in m.by_version.items() if s["view"] is None]
            assert lobby, "the rematch's lobby was sent"
            after = sorted(v for v in m.by_version if v > max(lobby))
            assert m.kinds[after[0]] == "state" and m.kinds[after[-1]] == "update"
    finally:
        table.close()
