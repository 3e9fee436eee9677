"""Background tasks of the server's long-lived parts (the lease keeper, the lobby feed and
its Redis bus, the shared socket caps): one way to stop them."""

from __future__ import annotations

import asyncio

#: Seconds a cancelled task may take to unwind (a Redis close is given 2) before it is
#: cancelled again, and again after as long, until it ends.
UNWIND_SECONDS = 5.0


async def cancel_and_wait(task: asyncio.Task[None] | None) -> None:
    """Cancel `task` (if any) and wait until it has finished unwinding, so nothing it holds
    outlives the stop that asked for it; its cancellation is not an error for the caller, its
    other failure is.

    Cancelled again while it runs after `UNWIND_SECONDS`: a cancellation can be lost inside
    a library. On Python 3.11 a timeout (`asyncio.timeout`, redis-py's socket timeout) that
    fires as the cancellation arrives can turn it into a `TimeoutError`, which a loop that
    logs errors and goes on then swallows: the socket caps' heartbeat did, under load, and
    held its process's stop for ever (`tests/server/test_background.py`). The wait itself is
    `asyncio.wait`, so a cancellation of the caller is the caller's, never swallowed here."""
    if task is None:
        return
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=UNWIND_SECONDS)
    failure = None if task.cancelled() else task.exception()
    if failure is not None:
        raise failure


def raise_if_cancelled(error: Exception) -> None:
    """For a background loop that logs a failed call and goes on: raise `CancelledError`
    instead when the running task was asked to stop meanwhile, since the call's error may be
    that request, lost (Python 3.11's `asyncio.timeout` racing it, above)."""
    task = asyncio.current_task()
    if task is not None and task.cancelling() > 0:
        raise asyncio.CancelledError from error
