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
    "profile_games",
    "profile_game_counts",
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
    with database.sessions() as s:  # a game's counts row comes with its first profile
        assert s.execute(select(ProfileCounts)).all() == []


def test_partial_index_threshold_matches_the_code() -> None:
    from importlib import import_module

    for name in ("0002_profiles", "0006_profile_games"):
        migration = import_module(f"migrations.versions.{name}")
        assert str(migration.RATED_WHERE) == f"matches_played >= {models.MIN_RATED_MATCHES}"
