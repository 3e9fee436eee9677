"""Every profiles test runs against SQLite and against PostgreSQL (a fresh database each).

The schema comes from the real Alembic migrations (0001 + 0002), as in production.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from yanniv.db.session import Database


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database URL of each kind; PostgreSQL comes from the shared `postgres_url` fixture."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'yanniv.db'}"
    return request.getfixturevalue("postgres_url")


@pytest.fixture
def database(db_url: str) -> Iterator[Database]:
    db = Database(db_url)
    db.upgrade()
    yield db
    db.close()


@pytest.fixture
def session(database: Database) -> Iterator[Session]:
    with database.sessions() as s:
        yield s
