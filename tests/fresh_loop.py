"""`asyncio.run` for tests, in a thread of its own.

A pytest worker that has run a browser test keeps Playwright's sync API (the session-scoped
`browser` fixture) and so a running event loop in its main thread, where `asyncio.run` then
refuses to start; which tests share a worker depends on the scheduler (`--dist worksteal`)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run_fresh(main: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run `main()` to completion on a new event loop in a new thread; its result or error."""
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = asyncio.run(main())
        except BaseException as exc:  # handed to the caller's thread
            outcome["error"] = exc

    thread = threading.Thread(target=target, name="fresh-loop")
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]  # type: ignore[no-any-return]
