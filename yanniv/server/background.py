"""Background tasks of the server's long-lived parts (the lease keeper, the lobby feed and
its Redis bus, the shared socket caps): one way to stop them."""

from __future__ import annotations

import asyncio
import contextlib


async def cancel_and_wait(task: asyncio.Task[None] | None) -> None:
    """Cancel `task` (if any) and wait until it has finished unwinding, so nothing it holds
    outlives the stop that asked for it; its cancellation is not an error for the caller."""
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
