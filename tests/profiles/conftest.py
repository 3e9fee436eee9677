"""Every profiles test runs against SQLite and against PostgreSQL (a fresh database each)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine
from sqlalchemy.orm import Session, sessionmaker

import yanniv.profiles.models  # noqa: F401  (registers the tables on Base.metadata)
from yanniv.db.base import Base


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database URL of each kind; PostgreSQL comes from the shared `postgres_url` fixture."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'yanniv.db'}"
    return request.getfixturevalue("postgres_url")


@pytest.fixture
def engine(db_url: str) -> Iterator[Engine]:
    eng = create_engine(db_url)
    Base.metadata.create_all(eng)
    yield eng
    eng.dispose()


@pytest.fixture
def session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


@pytest.fixture
def session(session_factory: sessionmaker[Session]) -> Iterator[Session]:
    with session_factory() as s:
        yield s
