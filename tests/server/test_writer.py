"""The action log's group commit (`server.writer.ActionWriter`): batches form while a write is
in flight, nobody returns before the transaction holding its action committed, and a bad row
fails only its own action."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests.fresh_loop import run_fresh
from yanniv.db.session import Database
from yanniv.server.cluster.leases import LeaseLost
from yanniv.server.store import group_commit as writer_module
from yanniv.server.store.action_sql import Busy
from yanniv.server.store.group_commit import ActionWriter
from yanniv.server.store.room_store import ActionWrite


class FakeStore:
    """Records each transaction; commits after a pause (a slow disk); refuses bad rows."""

    #: Written in a database thread, as on SQLite with `sqlite_group_commit_on_loop` off.
    writes_on_loop = False
    writes_here = False

    def __init__(self) -> None:
        self.committed: set[int] = set()
        self.transactions: list[list[int]] = []
        self.lock = threading.Lock()

    def append_actions(self, writes: list[ActionWrite]) -> set[str]:
        """A room marked `lost` is named and skipped, the rest committed (as PostgreSQL's
        one-statement batch does)."""
        time.sleep(0.02)
        return self._apply(writes)

    def _apply(self, writes: list[ActionWrite]) -> set[str]:
        if any(w.action.get("bad") for w in writes):
            raise ValueError("constraint failed")  # the whole transaction rolls back
        kept = [w for w in writes if not w.action.get("lost")]
        with self.lock:
            self.transactions.append([w.action["step"] for w in kept])
            self.committed.update(w.action["step"] for w in kept)
        return {w.room["code"] for w in writes if w.action.get("lost")}


class FakeLoopStore(FakeStore):
    """The same, written on the event loop (as PostgreSQL's store does)."""

    writes_on_loop = True

    async def append_actions_on_loop(self, writes: list[ActionWrite]) -> set[str]:
        await asyncio.sleep(0.02)
        return self._apply(writes)


class FakeHereStore(FakeStore):
    """Written on the loop, synchronously, as SQLite's store does; every other batch finds
    the database locked (`Busy`) and goes to the thread."""

    writes_here = True

    def __init__(self) -> None:
        super().__init__()
        self.tries = 0
        self.threads: set[str] = set()

    def append_actions(self, writes: list[ActionWrite], here: bool = False) -> set[str]:
        self.threads.add(threading.current_thread().name)
        if not here:
            return super().append_actions(writes)
        self.tries += 1
        if self.tries % 2:
            raise Busy
        return self._apply(writes)


def _write(step: int, bad: bool = False, lost: bool = False) -> ActionWrite:
    return ActionWrite(room={"code": f"R{step}"}, match_id=step,
                       action={"step": step, "bad": bad, "lost": lost}, deadline_ms=None)


@pytest.fixture(params=[FakeStore, FakeLoopStore, FakeHereStore],
                ids=["thread", "loop", "sqlite-loop"])
def store_cls(request: pytest.FixtureRequest) -> type[FakeStore]:
    return request.param  # type: ignore[no-any-return]


def _run(tmp_path: Path, writes: list[ActionWrite], store_cls: type[FakeStore],
         window: float = 0.0, spacing: float = 0.0, times: list[float] | None = None
         ) -> tuple[FakeStore, ActionWriter, dict[int, Any]]:
    """Every write appended at once, or `spacing` seconds after the one before, or at
    `times` (seconds from the start)."""
    db = Database(f"sqlite:///{tmp_path / 'w.sqlite3'}")
    store = store_cls()
    writer = ActionWriter(db, store, window)  # type: ignore[arg-type]
    outcome: dict[int, Any] = {}

    async def one(write: ActionWrite) -> None:
        try:
            await writer.append(write)
        except Exception as exc:  # the outcome is what the test looks at
            outcome[write.action["step"]] = exc
            return
        # Returned: its transaction must already be committed.
        outcome[write.action["step"]] = write.action["step"] in store.committed

    async def later(n: int, write: ActionWrite) -> None:
        await asyncio.sleep(n * spacing if times is None else times[n])
        await one(write)

    async def main() -> None:
        await asyncio.gather(*(later(n, w) for n, w in enumerate(writes)))

    try:
        run_fresh(main)
    finally:
        db.close()
    return store, writer, outcome


def test_actions_arriving_together_share_transactions(tmp_path: Path,
        store_cls: type[FakeStore]) -> None:
    store, writer, outcome = _run(tmp_path, [_write(n) for n in range(60)], store_cls)
    assert outcome == {n: True for n in range(60)}  # each returned only after its commit
    assert sorted(s for t in store.transactions for s in t) == list(range(60))
    assert writer.actions == 60
    assert writer.batches == len(store.transactions) < 60


@pytest.mark.parametrize("window", [0.0, 0.2])
def test_a_window_gathers_the_actions_that_arrive_during_it(tmp_path: Path,
        store_cls: type[FakeStore], window: float) -> None:
    """Five actions 5 ms apart: without a window the first is written alone (the others
    arrive during its 20 ms write and form the next batch); with a window longer than their
    spread they share one transaction. Each returns only once committed, either way."""
    store, writer, outcome = _run(tmp_path, [_write(n) for n in range(5)], store_cls,
                                  window=window, spacing=0.005)
    assert outcome == {n: True for n in range(5)}
    if window:
        assert store.transactions == [[0, 1, 2, 3, 4]]
    else:
        assert store.transactions[0] == [0]
        assert len(store.transactions) >= 2
    assert writer.actions == 5


def test_a_full_batch_goes_without_waiting_out_its_window(tmp_path: Path,
        store_cls: type[FakeStore]) -> None:
    """`BATCH_TARGET` actions 1 ms apart under a 30 s window: the batch goes once it holds
    them, all in one transaction (waiting out the window, the run would last 30 s)."""
    target = writer_module.BATCH_TARGET
    started = time.perf_counter()
    store, writer, outcome = _run(tmp_path, [_write(n) for n in range(target)], store_cls,
                                  window=30.0, spacing=0.001)
    assert time.perf_counter() - started < 10
    assert outcome == {n: True for n in range(target)}
    assert store.transactions == [list(range(target))]
    assert writer.actions == target


class SlowLoopStore(FakeLoopStore):
    """Written on the loop, as on PostgreSQL, in 0.1 s."""

    async def append_actions_on_loop(self, writes: list[ActionWrite]) -> set[str]:
        await asyncio.sleep(0.08)
        return await super().append_actions_on_loop(writes)


def test_a_batch_formed_during_a_write_waits_out_its_own_window(tmp_path: Path) -> None:
    """On PostgreSQL actions arrive while a batch is written (its write yields to the loop).
    The batch they form waits out its own window, as the first did, instead of going as soon
    as the write before it ends: the first batch goes at 0.3 s and is written until 0.4 s;
    the actions of 0.33 and 0.36 s (during that write) and of 0.45 s (after it, within 0.3 s
    of the first of them) share the second transaction."""
    store, _writer, outcome = _run(tmp_path, [_write(n) for n in range(4)], SlowLoopStore,
                                   window=0.3, times=[0.0, 0.33, 0.36, 0.45])
    assert outcome == {n: True for n in range(4)}
    assert len(store.transactions) == 2, store.transactions
    assert store.transactions[-1][-2:] == [2, 3]


def test_a_bad_row_fails_only_its_own_action(tmp_path: Path,
        store_cls: type[FakeStore]) -> None:
    writes = [_write(n, bad=(n == 7)) for n in range(20)]
    store, _writer, outcome = _run(tmp_path, writes, store_cls)
    assert isinstance(outcome.pop(7), Exception)
    assert outcome == {n: True for n in range(20) if n != 7}
    assert 7 not in store.committed


def test_a_room_whose_lease_is_gone_fails_alone_in_a_written_batch(tmp_path: Path,
        store_cls: type[FakeStore]) -> None:
    """The store wrote the batch but for one room (its fence failed): that room's caller
    gets `LeaseLost`, every other returns committed, and the batch is not retried."""
    writes = [_write(n, lost=(n == 3)) for n in range(20)]
    store, writer, outcome = _run(tmp_path, writes, store_cls)
    assert isinstance(outcome.pop(3), LeaseLost)
    assert outcome == {n: True for n in range(20) if n != 3}
    assert 3 not in store.committed
    assert writer.actions == 19
    assert sum(len(t) for t in store.transactions) == 19  # nothing written twice


def test_sqlite_batches_go_to_the_thread_only_when_the_database_is_locked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On the loop unless locked (`Busy`: then the thread writes it), and a checkpoint in
    the thread every `CHECKPOINT_BATCHES` batches written on the loop."""
    monkeypatch.setattr(writer_module, "CHECKPOINT_BATCHES", 3)
    checkpoints: list[str] = []
    monkeypatch.setattr(FakeHereStore, "checkpoint",
                        lambda self: checkpoints.append(threading.current_thread().name),
                        raising=False)
    store, writer, outcome = _run(tmp_path, [_write(n) for n in range(12)], FakeHereStore,
                                  spacing=0.03)
    assert outcome == {n: True for n in range(12)}
    assert writer.busy == (store.tries + 1) // 2 > 0  # every other try found it locked
    assert any(name.startswith("yanniv-db") for name in store.threads)  # the locked ones
    assert any(not name.startswith("yanniv-db") for name in store.threads)  # the others
    assert checkpoints and all(name.startswith("yanniv-db") for name in checkpoints)


def test_the_loop_s_sqlite_connection_never_waits_for_a_lock(tmp_path: Path) -> None:
    """A real SQLite file locked by another connection: the loop's connection raises `Busy`
    at once (no busy timeout), keeps nothing half done, and writes once the lock is gone."""
    import sqlite3

    from sqlalchemy import create_engine

    from yanniv.server.store.action_sql import DriverStatement, LoopSQLite

    path = tmp_path / "locked.sqlite3"
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        conn.exec_driver_sql("PRAGMA journal_mode=WAL")
        conn.exec_driver_sql("CREATE TABLE t (n INTEGER)")
    insert = DriverStatement("INSERT INTO t (n) VALUES (?)", ("n",))
    here = LoopSQLite(engine)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    started = time.monotonic()
    with pytest.raises(Busy):
        here.run([(insert, [{"n": 1}])], lambda _i, _rows: None)
    assert time.monotonic() - started < 1.0
    other.execute("COMMIT")
    here.run([(insert, [{"n": 2}])], lambda _i, _rows: None)
    assert [n for (n,) in other.execute("SELECT n FROM t")] == [2]
    assert other.execute("PRAGMA wal_autocheckpoint").fetchone() == (1000,)  # its own only
    here.close()
    other.close()
    engine.dispose()


def test_every_sqlite_connection_gets_the_page_cache_of_the_settings(tmp_path: Path) -> None:
    """`Settings.sqlite_cache_kib` bounds the resident page cache of the database thread's
    connections and of the loop's own writer alike (each connection has its own cache)."""
    from yanniv.app import create_app
    from yanniv.server.settings import Settings
    from yanniv.server.store.action_sql import LoopSQLite

    settings = Settings(database_url=f"sqlite:///{tmp_path / 'cache.sqlite3'}",
                        sqlite_cache_kib=300)
    assert Settings().sqlite_cache_kib < 2000  # below SQLite's own default of 2,000 KiB
    db = create_app(settings).state.db  # the app's database, built from the settings
    try:
        with db.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA cache_size").scalar() == -300
        here = LoopSQLite(db.engine)
        raw = here.connect()
        assert raw.execute("PRAGMA cache_size").fetchone() == (-300,)
        raw.close()
    finally:
        db.close()
