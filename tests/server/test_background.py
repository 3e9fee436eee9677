"""Stopping a background task: `cancel_and_wait` ends it even when a library lost the first
cancellation, and never swallows the cancellation of its own caller."""

from __future__ import annotations

import asyncio

import pytest

from tests.fresh_loop import run_fresh
from yanniv.server.ops import background
from yanniv.server.ops.background import cancel_and_wait, raise_if_cancelled


async def _loses_its_first_cancellation(lost: list[int]) -> None:
    """A heartbeat loop whose first cancellation is lost, as `shared_caps.RedisAddressCounts`'s
    was when Python 3.11's `asyncio.timeout` turned it into a `TimeoutError` that the loop
    logged before sleeping on: it goes on until cancelled again."""
    while True:
        try:
            await asyncio.sleep(0.01)
        except asyncio.CancelledError:
            if lost:
                raise
            lost.append(1)


def test_a_task_that_lost_its_cancellation_is_cancelled_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(background, "UNWIND_SECONDS", 0.2)

    async def scene() -> list[int]:
        lost: list[int] = []
        task = asyncio.get_running_loop().create_task(_loses_its_first_cancellation(lost))
        await asyncio.sleep(0.05)
        await asyncio.wait_for(cancel_and_wait(task), 5)
        assert task.cancelled()
        return lost

    assert run_fresh(scene) == [1]


def test_a_failure_of_the_task_reaches_the_caller_and_its_cancellation_does_not() -> None:
    async def fails() -> None:
        raise ValueError("broken")

    async def scene() -> None:
        task = asyncio.get_running_loop().create_task(fails())
        await asyncio.sleep(0)
        with pytest.raises(ValueError):
            await cancel_and_wait(task)
        quiet = asyncio.get_running_loop().create_task(asyncio.sleep(10))
        await cancel_and_wait(quiet)
        assert quiet.cancelled()

    run_fresh(scene)


def test_the_caller_s_own_cancellation_is_not_swallowed() -> None:
    async def stubborn() -> None:
        while True:
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                await asyncio.sleep(0.05)  # takes its time to unwind

    async def scene() -> bool:
        inner = asyncio.get_running_loop().create_task(stubborn())
        stopping = asyncio.get_running_loop().create_task(cancel_and_wait(inner))
        await asyncio.sleep(0.02)
        stopping.cancel()
        try:
            await stopping
        except asyncio.CancelledError:
            return True
        finally:
            inner.cancel()
        return False

    assert run_fresh(scene)


def test_a_loop_that_checks_stops_at_the_first_cancellation() -> None:
    """`raise_if_cancelled` in the loop's error branch: the lost cancellation is raised
    again there, and the stop does not wait out `UNWIND_SECONDS`."""
    async def heartbeat() -> None:
        while True:
            try:
                try:
                    await asyncio.sleep(0.01)
                except asyncio.CancelledError:
                    raise TimeoutError("the timeout won the race") from None
            except Exception as exc:
                raise_if_cancelled(exc)

    async def scene() -> float:
        task = asyncio.get_running_loop().create_task(heartbeat())
        await asyncio.sleep(0.05)
        started = asyncio.get_running_loop().time()
        await cancel_and_wait(task)
        assert task.cancelled()
        return asyncio.get_running_loop().time() - started

    assert run_fresh(scene) < 1.0
