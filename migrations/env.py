"""Alembic environment: uses the connection handed over by `yanniv.db.migrate`, or a URL.

Run by hand with `alembic upgrade head` (URL from `DATABASE_URL`, default the SQLite file).
"""

from __future__ import annotations

import contextlib
import importlib
import os

from alembic import context
from sqlalchemy import create_engine

from yanniv.db.base import Base
from yanniv.db.session import normalize_url

# Every module declaring tables, so that `Base.metadata` is complete for autogenerate.
for _module in ("yanniv.server.store.models", "yanniv.profiles.models"):
    with contextlib.suppress(ImportError):  # a part not written yet
        importlib.import_module(_module)

config = context.config
target_metadata = Base.metadata


def _run(connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_offline() -> None:
    context.configure(
        url=normalize_url(os.environ.get("DATABASE_URL")),
        target_metadata=target_metadata,
        literal_binds=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = create_engine(normalize_url(os.environ.get("DATABASE_URL")))
    with engine.begin() as conn:
        _run(conn)
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
