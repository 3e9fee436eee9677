"""The migration builds exactly the tables the models declare, on SQLite and PostgreSQL."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import select

import yanniv.profiles.models as models
from yanniv.db.base import Base
from yanniv.db.session import Database
from yanniv.profiles.models import ProfileCounts

PROFILE_TABLES = {
    "profiles",
    "profile_counts",
    "profile_owners",
    "finished_matches",
    "finished_match_players",
    "finished_manches",
}


def _table_of(diff: tuple | list) -> str | None:
    if isinstance(diff, list):  # column modifications: ("modify_type", schema, table, ...)
        return diff[0][2]
    for item in diff[1:]:
        name = getattr(item, "name", None)
        table = getattr(item, "table", None)
        if table is not None:
            return table.name
        if name in PROFILE_TABLES:
            return name
    return None


def test_migration_matches_the_models(database: Database) -> None:
    with database.engine.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"compare_type": True})
        diffs = compare_metadata(ctx, Base.metadata)
    assert [d for d in diffs if _table_of(d) in PROFILE_TABLES] == []
    with database.sessions() as s:
        counts = s.execute(select(ProfileCounts)).scalar_one()
        assert (counts.id, counts.profiles, counts.rated_profiles) == (1, 0, 0)


def test_partial_index_threshold_matches_the_code() -> None:
    from importlib import import_module

    migration = import_module("migrations.versions.0002_profiles")
    assert str(migration.RATED_WHERE) == f"matches_played >= {models.MIN_RATED_MATCHES}"
