"""The stage of the bad-input tables: a room with two seated players and a spectator on real
sockets, and the checks every refusal must pass.

Each refusal must have the error shape (`code`, `message`, `message_en`, all strings), the
expected code, a French `message` free of English validator text, leave the room (its state,
version, settings, seats, and the set of rooms) exactly as it was, and reach nobody but its
sender. Expected codes and texts are written here, not imported from the server.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

from fastapi.testclient import TestClient

#: Seed of every match of the tables: seat 1 starts with 3D 4D 7H KH KD (34 points) and the
#: discard shows 8D, so the engine's answers to illegal moves are known in advance.
SEED = "bad-input"
#: Words of English validator (pydantic, Starlette, wire) text that a French message must not
#: contain (French words such as « invalide » or « entier » do not match).
ENGLISH = re.compile(
    r"\b(the|is|should|must|field|required|expected|unknown|missing|invalid|valid|input|"
    r"inputs|not|allowed|permitted|extra|value|string|integer|boolean|object|least|most|"
    r"characters?|found|method|detail|error|fields|unexpected|for|like|of|be|an|or|and)\b",
    re.IGNORECASE,
)


def check_error(body: Any, code: str) -> None:
    """`body` is a refusal with code `code` in the one error shape, its `message` French."""
    assert isinstance(body, dict), body
    for key in ("code", "message", "message_en"):
        assert isinstance(body.get(key), str) and body[key], (key, body)
    assert body["code"] == code, body
    english = ENGLISH.findall(body["message"])
    assert not english, f"English in the French message {body['message']!r}: {english}"


class Scene:
    """A room on a fresh app: host (seat 0) and Joueur1 (seat 1) seated and connected, plus a
    spectator; `playing` starts the match (seed `SEED`). Every socket has read everything."""

    def __init__(self, client: TestClient, table_cls: Any, player_cls: Any,
                 playing: bool = True) -> None:
        self.client = client
        self.rooms = client.app.state.rooms  # type: ignore[attr-defined]
        self.rooms.seed_factory = lambda: SEED
        self.table = table_cls(client, 2, start=False)
        self.code: str = self.table.code
        if playing:
            started = client.post(f"/api/rooms/{self.code}/start", headers=self.table.host)
            assert started.status_code == 200, started.text
        self.table.connect()
        self.spectator = player_cls(client, self.code, None, None, self.table.stack)
        self.spectator.recv_until(lambda m: m["type"] == "state")
        self.sockets = [*self.table.players, self.spectator]
        self.drain()
        self.state: dict[str, Any] | None = None
        if playing:
            self.state = self.table.sync()
            seat = self.state["view"]["pending"]["seat"]
            self.actor = self.table.players[seat]
            self.other = self.table.players[1 - seat]
            self.state = self.actor.last_state
        else:
            self.actor, self.other = self.table.players

    @property
    def room(self) -> Any:
        return self.rooms.get(self.code)

    def headers(self, who: str | None) -> dict[str, str]:
        tokens = {"host": self.table.tokens[0], "other": self.table.tokens[1],
                  "wrong": "not-a-seat-token"}
        return {"X-Seat-Token": tokens[who]} if who else {}

    def drain(self) -> None:
        """Read every socket up to the answer to a ping (presence messages of connecting)."""
        for player in self.sockets:
            player.send({"type": "ping"})
            player.recv_until(lambda m: m["type"] == "pong")

    def snapshot(self) -> dict[str, Any]:
        room = self.room
        return {
            "codes": set(self.rooms.rooms), "version": room.version, "status": room.status,
            "settings": room.settings.model_dump(), "summary": room.summary(None),
            "state": room.match.state if room.match else None,
            "step": room.game.step(room.match.state) if room.match else None,
        }

    def assert_unchanged(self, before: dict[str, Any]) -> None:
        after = self.snapshot()
        assert after["state"] is before["state"], "the match state changed"
        assert after == before

    def assert_quiet(self, sockets: list[Any]) -> None:
        """Each of `sockets` received nothing since the last drain: its next message is the
        answer to a ping sent now (the server answers a socket's messages in order, after
        anything already queued to it)."""
        for player in sockets:
            seen = len(player.received)
            player.send({"type": "ping"})
            got = player.recv_until(lambda m: m["type"] == "pong")
            assert len(got) == 1, f"socket of seat {player.seat} received {got[:-1]}"
            assert len(player.received) == seen + 1

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.table.close()
