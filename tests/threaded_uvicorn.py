"""Stopping a `uvicorn.Server` run on a thread of the test process, for sure.

`should_exit` alone asks for a graceful shutdown; a stop that hangs (one did: the socket caps'
heartbeat had lost its cancellation, `server/background.cancel_and_wait`) left the server
running on its daemon thread after its test, its lease keeper logging a failed renewal at each
interval once the test's PostgreSQL database was dropped (48 such lines at the end of a CI
run). Now it is forced, then the test fails and says where the server is stuck."""

from __future__ import annotations

import asyncio
import gc
import sys
import threading
import time
import traceback
import types
from typing import Any

#: Seconds a graceful shutdown may take before it is forced, then before the test fails.
GRACE = 10.0


#: Seconds a server may take to start (its lifespan: migrations, restoring rooms).
START_SECONDS = 30.0


def start_threaded(server: Any) -> threading.Thread:
    """Run `server` (a `uvicorn.Server`) on a daemon thread of the test process; return once
    it listens, or fail if it stopped or did not start within `START_SECONDS`."""
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + START_SECONDS
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the app did not start"
        time.sleep(0.02)
    return thread


def stop_threaded(server: Any, thread: threading.Thread) -> None:
    """Ask `server` to exit, force it if it has not within `GRACE`, and fail if it still
    runs: a server left behind keeps serving, and logging, for the rest of the session. The
    failure says where its thread and its loop's tasks are."""
    server.should_exit = True
    thread.join(GRACE)
    if thread.is_alive():
        server.force_exit = True  # no more waiting for connections and tasks, nor lifespan
        thread.join(GRACE)
    if thread.is_alive():
        raise AssertionError("the threaded uvicorn server did not stop\n" + _where(server, thread))


def _where(server: Any, thread: threading.Thread) -> str:
    """The stuck thread's stack, and each task of its loop with its own (read from this
    thread: a diagnosis, racing the loop, never a decision)."""
    frame = sys._current_frames().get(thread.ident or 0)
    lines = ["its thread:", "".join(traceback.format_stack(frame)) if frame else "(gone)"]
    loops = {s.get_loop() for s in getattr(server, "servers", [])}
    for loop in loops:
        for task in list(asyncio.all_tasks(loop)):
            lines.append(f"task {task.get_name()}, awaiting:")
            lines.extend(_awaiting(task.get_coro()))
    # An `asynccontextmanager`'s generator is awaited through an object with no frame: list
    # the project's suspended async generators (a lifespan) with their own chains.
    for obj in gc.get_objects():
        if (isinstance(obj, types.AsyncGeneratorType) and obj.ag_frame is not None
                and "/yanniv/" in obj.ag_frame.f_code.co_filename):
            lines.append(f"async generator {obj.__qualname__}, awaiting:")
            lines.extend(_awaiting(obj))
    return "\n".join(lines)


def _awaiting(coro: Any) -> list[str]:
    """Where a suspended coroutine waits: each coroutine (or async generator) of its `await`
    chain, innermost last, then what the innermost awaits."""
    found = []
    while coro is not None and len(found) < 20:
        frame = next((getattr(coro, name) for name in ("cr_frame", "ag_frame", "gi_frame")
                      if getattr(coro, name, None) is not None), None)
        if frame is None:  # not a coroutine: a future, a task, a generator's object
            found.append(f"  then {coro!r}")
            break
        found.append(f"  {frame.f_code.co_filename}:{frame.f_lineno} {frame.f_code.co_name}")
        coro = next((getattr(coro, name) for name in ("cr_await", "ag_await", "gi_yieldfrom")
                     if getattr(coro, name, None) is not None), None)
    return found
