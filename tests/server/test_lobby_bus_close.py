"""A stop never waits forever for Redis to close: redis-py's close can hang on its socket's end
(redis/redis-py#3941), which once held an app's shutdown for a test's whole timeout."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.fresh_loop import run_fresh
from yanniv.server.cluster import lobby_bus
from yanniv.server.cluster.lobby_bus import LobbyBus, close_within


async def _forever() -> None:
    await asyncio.Event().wait()


class HungPubSub:
    """Subscribes, hears nothing, and never finishes closing."""

    closes = 0

    async def subscribe(self, channel: str) -> None:
        pass

    async def listen(self) -> AsyncIterator[dict[str, Any]]:
        await _forever()
        yield {}

    async def aclose(self) -> None:
        HungPubSub.closes += 1
        await _forever()


class Subscriber:
    def pubsub(self, **options: Any) -> HungPubSub:
        return HungPubSub()


def test_a_subscription_that_never_closes_does_not_hold_the_stop(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lobby_bus, "CLOSE_SECONDS", 0.2)

    async def scene() -> float:
        bus = LobbyBus(redis=None, subscriber=Subscriber(), owner="a", heard=lambda: None)
        bus.start()
        await asyncio.sleep(0.05)  # subscribed, listening
        started = time.monotonic()
        await asyncio.wait_for(bus.stop(), 10)
        return time.monotonic() - started

    HungPubSub.closes = 0
    took = run_fresh(scene)
    assert HungPubSub.closes == 1
    assert 0.15 < took < 5


def test_close_within_gives_up_and_swallows_errors() -> None:
    async def failing() -> None:
        raise ConnectionError("gone")

    async def scene() -> float:
        started = time.monotonic()
        await close_within(_forever(), 0.1)
        await close_within(failing(), 0.1)
        return time.monotonic() - started

    assert run_fresh(scene) < 2
