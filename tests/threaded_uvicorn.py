"""Stopping a `uvicorn.Server` run on a thread of the test process, for sure.

`should_exit` alone asks for a graceful shutdown, which waits for open connections and
background tasks before the app's lifespan ends; if that takes longer than the join, the
server went on running on its (daemon) thread after its test, and its lease keeper logged a
failed renewal every second once the test's PostgreSQL database was dropped (seen at the end
of a CI run: 48 lines "renewing the room leases failed … database … does not exist")."""

from __future__ import annotations

import threading
from typing import Any

#: Seconds a graceful shutdown may take before it is forced, then before the test fails.
GRACE = 10.0


def stop_threaded(server: Any, thread: threading.Thread) -> None:
    """Ask `server` to exit, force it if it has not within `GRACE`, and fail if it still
    runs: a server left behind keeps serving, and logging, for the rest of the session."""
    server.should_exit = True
    thread.join(GRACE)
    if thread.is_alive():
        server.force_exit = True  # skip the wait for connections and tasks; lifespan still ends
        thread.join(GRACE)
    assert not thread.is_alive(), "the threaded uvicorn server did not stop"
