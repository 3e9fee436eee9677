"""Run the Alembic migrations of `migrations/` from code: the app upgrades its schema at start.

Several processes may start at once on one PostgreSQL database (the replicas of
docker-compose.yml): each upgrade holds a transaction-scoped advisory lock, so they run one
after the other and the later ones find the schema current. Without it two of them create the
same tables at the same time and all but one fail (`DuplicateTable`, or a unique violation
in `pg_type`)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, text

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"
#: The advisory lock key of schema upgrades (any constant no other code of the database uses).
UPGRADE_LOCK = 0x59414E4E  # "YANN"


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return config


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Upgrade the database behind `engine` to `revision` (blocking). On PostgreSQL, one
    process at a time: the lock lasts until the upgrade's transaction ends (every migration
    runs in that one transaction: PostgreSQL's DDL is transactional)."""
    config = alembic_config()
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": UPGRADE_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
