"""Group commit of the action log: every room's action writes that arrive while a batch is being
written go together in the next transaction.

One action is one log row (with its room's new version) and one match deadline. Written one
transaction each, the database thread spends its time in statement set-up and commits and the
event loop in thread hand-offs; written together they cost one hand-off, two prepared
`executemany` and one commit per batch (on PostgreSQL, one statement on the event loop; on
SQLite, the two on the event loop too, with a connection that never waits for a lock: a batch
that finds the database locked by another write goes to the thread instead). A batch waits
`window` seconds after its first action (`Settings.group_commit_window`, 20 ms; 0: it goes at
once), or until it holds `BATCH_TARGET` actions; the actions that arrive while a batch is being
written form the next one, which waits out its own window likewise, so batches grow with the
load.

Persist before acknowledging holds exactly as before: `append` returns only once the
transaction holding that action has committed, and raises if it did not (the caller then
changes nothing and answers `server_error`). A failed batch is retried one action at a time, so
one bad row fails only its own room, and one room whose lease was taken by another process
(`leases.LeaseLost`, raised to that room's caller as it is) fails only itself: PostgreSQL's
one-statement batch writes the others and names it, elsewhere the batch is retried.
"""

from __future__ import annotations

import asyncio
import logging
import time

from yanniv.db.session import Database
from yanniv.server.cluster.leases import LeaseLost
from yanniv.server.store.action_sql import Busy
from yanniv.server.store.room_store import ActionWrite, RoomStore

log = logging.getLogger(__name__)

#: Most actions in one transaction: a bound on its size, far above what one process sees in
#: the time of one commit.
MAX_BATCH = 1000
#: A batch this large goes at once, without waiting out the window: beyond it a bigger batch
#: saves little per action (its fixed cost is already shared), while the wait is paid by every
#: action in it. At 2,000 rooms on SQLite, whose batches are written on the loop while no
#: action can arrive, each batch waited its whole window after the broadcasts of the one
#: before, and held 40-50 actions that had each waited ~20 ms.
BATCH_TARGET = 16
#: Batches written on the loop between two checkpoints of SQLite's log (a few MB of log).
CHECKPOINT_BATCHES = 256


class ActionWriter:
    """Batches `RoomStore.append_actions` calls, one batch in flight at a time."""

    def __init__(self, db: Database, store: RoomStore, window: float = 0.0) -> None:
        self.db = db
        self.store = store
        #: Seconds a batch waits for more actions after its first (`Settings.group_commit_window`).
        self.window = window
        self._queue: list[tuple[ActionWrite, asyncio.Future[None]]] = []
        self._draining = False
        #: Batches and actions written (for the load harness and metrics), and batches that
        #: found SQLite locked on the loop and went to the database thread.
        self.batches = 0
        self.actions = 0
        self.busy = 0
        self._since_checkpoint = 0
        self._checkpoint: asyncio.Task[None] | None = None
        #: The loop of the batch being gathered: looked up once a batch, not once an action
        #: (`asyncio.get_running_loop` is a `getpid` system call each time on Python 3.11).
        self._loop: asyncio.AbstractEventLoop | None = None
        self._drainer: asyncio.Task[None] | None = None
        #: Resolved when the window ends, or sooner once the batch holds `BATCH_TARGET`.
        self._window_end: asyncio.Future[None] | None = None
        #: When the first action of the batch being gathered arrived (the loop's clock).
        self._first_at = 0.0

    async def append(self, write: ActionWrite) -> None:
        """Write `write`; return once its transaction committed (raise if it failed)."""
        loop = self._loop
        if not self._draining or loop is None:
            loop = self._loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        if not self._queue:
            self._first_at = loop.time()
        self._queue.append((write, future))
        if not self._draining:
            self._draining = True
            self._drainer = loop.create_task(self._drain(loop))
        elif len(self._queue) >= BATCH_TARGET and self._window_end is not None:
            _settle(self._window_end, None)
        # Not shielded: a caller cancelled meanwhile (a server stopping) cancels only its own
        # future; the batch is written all the same and `_settle` skips that future. The room
        # is then behind its row in memory, which a shield would not change (the caller gets
        # its cancellation either way), and a restart restores it from the log.
        await future

    async def _drain(self, loop: asyncio.AbstractEventLoop) -> None:
        try:
            while self._queue:
                # Every batch waits out its window, the ones that formed while another was
                # written (on PostgreSQL, whose writes yield to the loop) as the first.
                wait = self._first_at + self.window - loop.time()
                if wait > 0 and len(self._queue) < BATCH_TARGET:
                    self._window_end = end = loop.create_future()
                    timer = loop.call_later(wait, _settle, end, None)
                    try:
                        await end
                    finally:
                        self._window_end = None
                        timer.cancel()
                batch = self._queue[:MAX_BATCH]
                del self._queue[:MAX_BATCH]
                await self._write(batch)
        finally:
            self._draining = False

    async def _commit(self, writes: list[ActionWrite]) -> set[str]:
        """One batch: on the loop where the store can (PostgreSQL; SQLite unless another
        write holds the database), else in a database thread; timed for the metrics."""
        store = self.store
        if store.writes_here:
            started = time.perf_counter()
            try:
                lost = store.append_actions(writes, here=True)
            except Busy:
                self.busy += 1  # another write holds the database: the thread waits for it
            else:
                if self.db.observe is not None:
                    self.db.observe(store.append_actions, time.perf_counter() - started)
                self.written_here()
                return lost
        if not store.writes_on_loop:
            return await self.db.run(store.append_actions, writes)
        started = time.perf_counter()
        try:
            return await store.append_actions_on_loop(writes)
        finally:
            if self.db.observe is not None:
                self.db.observe(store.append_actions_on_loop, time.perf_counter() - started)

    async def _write(self, batch: list[tuple[ActionWrite, asyncio.Future[None]]]) -> None:
        try:
            lost = await self._commit([w for w, _ in batch])
        except Exception as exc:
            if len(batch) == 1:
                if isinstance(exc, LeaseLost):
                    _settle(batch[0][1], exc)
                    return
                log.exception("room %s: writing an action failed", batch[0][0].room["code"])
                _settle(batch[0][1], RuntimeError("action write failed"))
                return
            log.warning("a batch of %d actions failed; writing them one by one", len(batch))
            for item in batch:
                await self._write([item])
            return
        self.batches += 1
        self.actions += len(batch) - len(lost)
        for write, future in batch:
            code = write.room["code"]
            _settle(future, LeaseLost(code) if code in lost else None)


    def written_here(self, batches: int = 1) -> None:
        """Every `CHECKPOINT_BATCHES` batches written on the loop, a checkpoint in the database
        thread (the loop's connection runs none), one at a time. Other writes on the loop's
        connection (the lease renewals) count as `batches` of their size."""
        self._since_checkpoint += batches
        if self._since_checkpoint >= CHECKPOINT_BATCHES and self._checkpoint is None:
            self._since_checkpoint = 0
            self._checkpoint = asyncio.get_running_loop().create_task(self._run_checkpoint())

    async def _run_checkpoint(self) -> None:
        try:
            await self.db.run(self.store.checkpoint)
        except Exception:
            log.exception("checkpoint of the action log failed")
        finally:
            self._checkpoint = None


def _settle(future: asyncio.Future[None], error: Exception | None) -> None:
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)
