"""The app's start and stop: a part whose start fails leaves nothing running that started
before it. Otherwise the lease keeper renews the leases of the rooms it just took for ever,
and another process cannot take them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy
from fastapi import FastAPI
from fastapi.testclient import TestClient

from yanniv.server.cluster.lobby_bus import SharedState


class StartFailed(RuntimeError):
    pass


def _lease_expiry(url: str, code: str) -> int:
    engine = sqlalchemy.create_engine(url)
    try:
        with engine.connect() as conn:
            return int(conn.execute(
                sqlalchemy.text("SELECT expires_ms FROM room_leases WHERE room_code = :c"),
                {"c": code}).scalar_one())
    finally:
        engine.dispose()


def test_a_failed_start_gives_back_the_leases_it_took(
        app_factory: Callable[..., FastAPI], sqlite_url: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    with TestClient(app_factory()) as client:
        code = client.post("/api/rooms", json={"pseudo": "Léa"}).json()["code"]
    assert _lease_expiry(sqlite_url, code) == 0  # a clean stop gives it back

    async def fail(self: SharedState) -> None:
        raise StartFailed("the shared state could not start")

    stopped: list[str] = []
    real_stop = SharedState.stop

    async def stop(self: SharedState) -> None:
        stopped.append("shared")
        await real_stop(self)

    monkeypatch.setattr(SharedState, "start", fail)
    monkeypatch.setattr(SharedState, "stop", stop)
    app = app_factory()
    rooms: Any = app.state.rooms
    with pytest.raises(StartFailed), TestClient(app):
        pass
    # The rooms were loaded (the room's lease taken) and the keeper started before the
    # failing part: both undone.
    assert code in rooms.rooms
    assert _lease_expiry(sqlite_url, code) == 0, "the lease stays taken after a failed start"
    assert not rooms.keeper.ready()
    # The failing part is stopped too (whatever it started before it failed).
    assert stopped == ["shared"]
