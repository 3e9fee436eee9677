"""A socket's message inbox and writable flag (yanniv/server/realtime/socket_inbox.py) keep the
order
and the wake-ups of asyncio's Queue and Event, for one reader, including cancelled waits."""

from __future__ import annotations

import asyncio

import pytest

from tests.fresh_loop import run_fresh
from yanniv.server.realtime.socket_inbox import Flag, Inbox


def test_messages_come_out_in_order_whether_the_reader_waits_or_not() -> None:
    async def run() -> list[str]:
        inbox = Inbox(asyncio.get_running_loop())
        got: list[str] = []
        inbox.put_nowait("a")
        inbox.put_nowait("b")
        assert inbox.qsize() == 2 and not inbox.empty()
        got.append(await inbox.get())
        reader = asyncio.ensure_future(inbox.get())
        await asyncio.sleep(0)
        got.append(await reader)  # "b" was waiting: the reader did not wait
        waiting = asyncio.ensure_future(inbox.get())
        await asyncio.sleep(0)
        assert inbox.empty()
        inbox.put_nowait("c")  # straight to the waiting reader
        inbox.put_nowait("d")
        got.append(await waiting)
        got.append(await inbox.get())
        assert inbox.empty() and inbox.qsize() == 0
        return got

    assert run_fresh(run) == ["a", "b", "c", "d"]


def test_a_cancelled_reader_loses_no_message() -> None:
    async def run() -> str:
        inbox = Inbox(asyncio.get_running_loop())

        async def read() -> str:
            return await inbox.get()

        task = asyncio.create_task(read())
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        inbox.put_nowait("kept")
        return await inbox.get()

    assert run_fresh(run) == "kept"


def test_two_readers_at_once_are_refused() -> None:
    async def run() -> None:
        inbox = Inbox(asyncio.get_running_loop())
        first = inbox.get()
        with pytest.raises(RuntimeError):
            inbox.get()
        inbox.put_nowait("x")
        assert await first == "x"

    run_fresh(run)


def test_the_flag_wakes_every_waiter_and_forgets_cancelled_ones() -> None:
    async def run() -> None:
        flag = Flag(asyncio.get_running_loop())
        assert flag.is_set() and await flag.wait()
        flag.clear()
        assert not flag.is_set()
        waiters = [asyncio.create_task(flag.wait()) for _ in range(3)]
        await asyncio.sleep(0)
        waiters[0].cancel()
        await asyncio.sleep(0)
        assert not any(w.done() and not w.cancelled() for w in waiters)
        flag.set()
        assert await waiters[1] and await waiters[2]
        assert waiters[0].cancelled()
        flag.set()  # already set: nothing to wake
        flag.clear()
        late = asyncio.create_task(flag.wait())
        await asyncio.sleep(0)
        assert not late.done()
        flag.set()
        assert await late

    run_fresh(run)
