"""Helpers for the server tests: an app on a fresh database, and players driving real sockets.

Players only ever see what the server sends them; they choose among the `legal_actions` of
the view they received, as a browser client would.
"""

from __future__ import annotations

import contextlib
import random
import re
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.threaded_uvicorn import start_threaded, stop_threaded
from yanniv.app import create_app
from yanniv.server.settings import Settings

CARD_CODE = re.compile(r"^[A2-9TJQK][SHDC]$")


def make_settings(url: str, **overrides: Any) -> Settings:
    """Test settings: bots play far faster than people, and every test client shares one
    address, so flood limits and the lookup budget are raised unless a test sets them."""
    values: dict[str, Any] = {"flood_rate": 100_000.0, "flood_burst": 100_000,
                              "code_lookup_limit": 100_000}
    values.update(overrides)
    return Settings(database_url=url, **values)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'yanniv.sqlite3'}"


@pytest.fixture
def app_factory(sqlite_url: str) -> Callable[..., FastAPI]:
    def make(url: str | None = None, **overrides: Any) -> FastAPI:
        return create_app(make_settings(url or sqlite_url, **overrides))

    return make


@pytest.fixture
def client(app_factory: Callable[..., FastAPI]) -> Iterator[TestClient]:
    with TestClient(app_factory()) as test_client:
        yield test_client


class Player:
    """One seat's socket, remembering every message it received."""

    def __init__(self, client: TestClient, code: str, token: str | None, seat: int | None,
                 stack: contextlib.ExitStack) -> None:
        self.code = code
        self.token = token
        self.seat = seat
        url = f"/ws/{code}" + (f"?token={token}" if token else "")
        self.ws = stack.enter_context(client.websocket_connect(url))
        self.received: list[dict[str, Any]] = []
        self.last_state: dict[str, Any] | None = None

    def recv(self) -> dict[str, Any]:
        message = self.ws.receive_json()
        self.received.append(message)
        if message["type"] == "state":
            self.last_state = message
        return message

    def recv_until(self, predicate: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
        got = []
        while True:
            message = self.recv()
            got.append(message)
            if predicate(message):
                return got

    def wait_version(self, version: int) -> dict[str, Any]:
        if self.last_state is not None and self.last_state["version"] >= version:
            return self.last_state
        self.recv_until(lambda m: m["type"] == "state" and m["version"] >= version)
        assert self.last_state is not None
        return self.last_state

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_json(message)

    def act(self, action: dict[str, Any], version: int,
            action_id: str | None = None) -> dict[str, Any]:
        """Send an action and return the server's answer to it (ack or error)."""
        action_id = action_id or uuid.uuid4().hex
        self.send({"type": "action", "id": action_id, "version": version, "action": action})
        got = self.recv_until(lambda m: m["type"] in ("ack", "error") and m.get("id") == action_id)
        return got[-1]


class Table:
    """A room created over HTTP with `seats` players, started, each player on a socket."""

    def __init__(self, client: TestClient, seats: int, settings: dict[str, Any] | None = None,
                 start: bool = True) -> None:
        self.client = client
        self.stack = contextlib.ExitStack()
        created = client.post("/api/rooms", json={"pseudo": "Joueur0"})
        assert created.status_code == 201, created.text
        self.code: str = created.json()["code"]
        self.tokens = [created.json()["token"]]
        for n in range(1, seats):
            joined = client.post(f"/api/rooms/{self.code}/join", json={"pseudo": f"Joueur{n}"})
            assert joined.status_code == 200, joined.text
            assert joined.json()["seat"] == n
            self.tokens.append(joined.json()["token"])
        if settings:
            patched = client.patch(f"/api/rooms/{self.code}/settings", json=settings,
                                   headers=self.host)
            assert patched.status_code == 200, patched.text
        if start:
            started = client.post(f"/api/rooms/{self.code}/start", headers=self.host)
            assert started.status_code == 200, started.text
        self.players: list[Player] = []
        self.last_action: dict[str, Any] | None = None

    @property
    def host(self) -> dict[str, str]:
        return {"X-Seat-Token": self.tokens[0]}

    def connect(self) -> list[Player]:
        self.players = [
            Player(self.client, self.code, token, seat, self.stack)
            for seat, token in enumerate(self.tokens)
        ]
        for player in self.players:
            player.recv_until(lambda m: m["type"] == "state")
        return self.players

    def close(self) -> None:
        self.stack.close()

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def sync(self) -> dict[str, Any]:
        """Let every player catch up with the newest version; return one player's state."""
        version = max(p.last_state["version"] for p in self.players if p.last_state)
        states = [p.wait_version(version) for p in self.players]
        return states[0]

    def step(self, rng: random.Random) -> bool:
        """The seat that must act plays a random legal action; False once the match is over."""
        state = self.sync()
        view = state["view"]
        if view is None or view["finished"]:
            return False
        actor = self.players[view["pending"]["seat"]]
        own = actor.last_state
        assert own is not None
        legal = own["view"]["legal_actions"]
        assert legal, "the seat that must act sees its legal actions"
        action = self.choose(legal, rng)
        answer = actor.act(action, own["version"])
        assert answer["type"] == "ack", answer
        self.last_action = action
        for player in self.players:
            player.wait_version(answer["version"])
        return True

    def choose(self, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
        """The action the seat plays (a subclass plays another game or another way)."""
        yanniv = [a for a in legal if a["type"] == "CallYanniv"]
        return yanniv[0] if yanniv and rng.random() < 0.7 else rng.choice(legal)

    def play_to_end(self, rng: random.Random, max_steps: int = 5000,
                    each: Callable[[Table], None] | None = None) -> dict[str, Any]:
        for _ in range(max_steps):
            if not self.step(rng):
                break
            if each is not None:
                each(self)
        final = self.sync()
        assert final["view"]["finished"], "the match ended"
        return final


def card_codes(value: Any, skip: frozenset[str] = frozenset()) -> set[str]:
    """Every card code in a JSON value, outside keys named in `skip`."""
    found: set[str] = set()
    if isinstance(value, str):
        if CARD_CODE.match(value):
            found.add(value)
    elif isinstance(value, list):
        for item in value:
            found |= card_codes(item, skip)
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in skip:
                found |= card_codes(item, skip)
    return found


@contextlib.contextmanager
def uvicorn_in_thread(config: Any) -> Iterator[None]:
    """Run a `uvicorn.Config` on a thread of the test process until the block ends."""
    import uvicorn

    server = uvicorn.Server(config)
    thread = start_threaded(server)
    try:
        yield
    finally:
        stop_threaded(server, thread)


@pytest.fixture
def run_uvicorn() -> Callable[[Any], contextlib.AbstractContextManager[None]]:
    """`with run_uvicorn(config): ...` serves the app of `config` for the block."""
    return uvicorn_in_thread


@pytest.fixture
def table_cls() -> type[Table]:
    return Table


@pytest.fixture
def player_cls() -> type[Player]:
    return Player


@pytest.fixture
def card_codes_of() -> Callable[..., set[str]]:
    return card_codes
