"""Engine and sessions for one database URL, plus an executor so sync SQLAlchemy stays off the loop.

SQLite (the default, a file in the working folder) gets one writer thread, WAL and a busy
timeout; PostgreSQL (`postgresql+psycopg://...`) gets a small pool of threads.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker

DEFAULT_URL = "sqlite:///yanniv.sqlite3"
T = TypeVar("T")


def normalize_url(url: str | None) -> str:
    """Accept the usual `postgres://` / `postgresql://` spellings and pick the psycopg 3 driver."""
    if not url:
        return DEFAULT_URL
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


#: SQLite's page cache per connection, in KiB, when the caller names none (SQLite's own
#: default, 2,000 KiB, is resident memory a small server does not need: `Settings`).
SQLITE_CACHE_KIB = 512


def _sqlite_pragmas(cache_kib: int) -> Callable[[Any, Any], None]:
    def pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute(f"PRAGMA cache_size=-{int(cache_kib)}")
        cursor.close()

    return pragmas


class Database:
    """One database: its engine, a session factory and the threads that run blocking calls."""

    def __init__(self, url: str | None = None, threads: int = 4,
                 sqlite_cache_kib: int = SQLITE_CACHE_KIB) -> None:
        self.url = normalize_url(url)
        self.is_sqlite = self.url.startswith("sqlite")
        if self.is_sqlite:
            self.engine: Engine = create_engine(
                self.url, connect_args={"check_same_thread": False, "timeout": 10}
            )
            event.listen(self.engine, "connect", _sqlite_pragmas(sqlite_cache_kib))
        else:
            self.engine = create_engine(self.url, pool_size=threads, max_overflow=4,
                                        pool_pre_ping=True)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._executor = ThreadPoolExecutor(
            max_workers=1 if self.is_sqlite else threads, thread_name_prefix="yanniv-db"
        )
        #: Told every call's function and its seconds in the thread (the server's metrics),
        #: so queueing for a thread is not counted as database time.
        self.observe: Callable[[Callable[..., Any], float], None] | None = None

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a blocking database function in the database threads, not on the event loop."""
        loop = asyncio.get_running_loop()
        if self.observe is not None:
            return await loop.run_in_executor(self._executor, _timed, self.observe, fn, args)
        return await loop.run_in_executor(self._executor, partial(fn, *args))

    def upgrade(self) -> None:
        """Bring the schema to the newest Alembic revision (blocking)."""
        from yanniv.db.migrate import upgrade

        upgrade(self.engine)

    def close(self) -> None:
        self._executor.shutdown(wait=True)
        self.engine.dispose()


def _timed(observe: Callable[[Callable[..., Any], float], None], fn: Callable[..., T],
           args: tuple[Any, ...]) -> T:
    started = time.perf_counter()
    try:
        return fn(*args)
    finally:
        observe(fn, time.perf_counter() - started)


def db_session(request: Request) -> Iterator[Session]:
    """FastAPI dependency for sync routes: a session of the app's database, committed on success."""
    database: Database = request.app.state.db
    with database.sessions.begin() as session:
        yield session


DbSession = Annotated[Session, Depends(db_session)]
