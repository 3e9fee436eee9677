"""Profiles keep one rating and one set of statistics per game (`profile_games`).

Before this revision `profiles` held a single rating and counters, whatever the game; every
match recorded so far was YANNIV, so each profile's rating and counters become its `yanniv`
row. The leaderboard's page counts become per game too (`profile_game_counts` replaces the
single-row `profile_counts`). `yanniv_calls` / `yanniv_successes` become `calls` /
`calls_won`: every game of the family ends a manche with a call.

The moved columns are then dropped from `profiles` with plain `ALTER TABLE ... DROP COLUMN`
(SQLite has it natively since 3.35), never a batch rebuild: on SQLite a rebuilt `profiles` is
dropped and recreated, and the drop would cascade to `profile_owners` (ON DELETE CASCADE) and
null the players of `finished_match_players` (ON DELETE SET NULL). The indexes on those
columns go first (SQLite refuses to drop an indexed column).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlite3

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
#: Must equal yanniv.profiles.models.MIN_RATED_MATCHES (as in 0002).
RATED_WHERE = sa.text("matches_played >= 5")
#: Every match before this revision was YANNIV (migration 0005 filled `game` with it).
_GAME = "yanniv"
#: (old column on profiles, new column on profile_games)
_MOVED = (
    ("mu", "mu"),
    ("sigma", "sigma"),
    ("ordinal", "ordinal"),
    ("matches_played", "matches_played"),
    ("matches_won", "matches_won"),
    ("manches_played", "manches_played"),
    ("manches_won", "manches_won"),
    ("points_sum", "points_sum"),
    ("yanniv_calls", "calls"),
    ("yanniv_successes", "calls_won"),
    ("best_total", "best_total"),
)
_OLD_INDEXES = ("ix_profiles_rating", "ix_profiles_wins", "ix_profiles_matches")


def _check_sqlite() -> None:
    if op.get_bind().dialect.name == "sqlite" and sqlite3.sqlite_version_info < (3, 35):
        raise RuntimeError(
            f"migration 0006 needs SQLite >= 3.35 (ALTER TABLE DROP COLUMN) to drop columns "
            f"without rebuilding `profiles`; this one is {sqlite3.sqlite_version}"
        )


def upgrade() -> None:
    _check_sqlite()
    op.create_table(
        "profile_games",
        sa.Column("profile_id", BIG_ID, nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("matches_played", sa.Integer(), nullable=False),
        sa.Column("matches_won", sa.Integer(), nullable=False),
        sa.Column("manches_played", sa.Integer(), nullable=False),
        sa.Column("manches_won", sa.Integer(), nullable=False),
        sa.Column("points_sum", sa.Integer(), nullable=False),
        sa.Column("calls", sa.Integer(), nullable=False),
        sa.Column("calls_won", sa.Integer(), nullable=False),
        sa.Column("best_total", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["profile_id"],
            ["profiles.id"],
            name="fk_profile_games_profile_id_profiles",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("profile_id", "game", name="pk_profile_games"),
    )
    op.create_index(
        "ix_profile_games_rating",
        "profile_games",
        # matches_played too, so SQLite can answer the rating pages from the index alone.
        ["game", sa.text("ordinal DESC"), "profile_id", "matches_played"],
        postgresql_where=RATED_WHERE,
        sqlite_where=RATED_WHERE,
    )
    op.create_index(
        "ix_profile_games_wins", "profile_games", ["game", sa.text("matches_won DESC"),
                                                   "profile_id"]
    )
    op.create_index(
        "ix_profile_games_matches", "profile_games", ["game", sa.text("matches_played DESC"),
                                                      "profile_id"]
    )
    op.create_table(
        "profile_game_counts",
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("profiles", sa.Integer(), nullable=False),
        sa.Column("rated_profiles", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("game", name="pk_profile_game_counts"),
    )

    old = ", ".join(o for o, _ in _MOVED)
    new = ", ".join(n for _, n in _MOVED)
    op.execute(
        sa.text(
            f"INSERT INTO profile_games (profile_id, game, {new}) "
            f"SELECT id, :game, {old} FROM profiles"
        ).bindparams(game=_GAME)
    )
    # Counted afresh from the moved rows (what profile_counts should have held); no row
    # without profiles (GROUP BY: none), as `record_finished_match` expects.
    op.execute(
        sa.text(
            "INSERT INTO profile_game_counts (game, profiles, rated_profiles) "
            "SELECT game, COUNT(*), COUNT(CASE WHEN matches_played >= 5 THEN 1 END) "
            "FROM profile_games WHERE game = :game GROUP BY game"
        ).bindparams(game=_GAME)
    )
    op.drop_table("profile_counts")
    for name in _OLD_INDEXES:
        op.drop_index(name, table_name="profiles")
    for column, _ in _MOVED:
        op.drop_column("profiles", column)


def downgrade() -> None:
    # Back to one rating per profile: its YANNIV row (other games' statistics are lost).
    _check_sqlite()
    defaults = {"mu": "25.0", "sigma": str(25.0 / 3.0), "ordinal": "0.0", "best_total": None}
    for column, _ in _MOVED:
        kind = sa.Float() if column in ("mu", "sigma", "ordinal") else sa.Integer()
        default = defaults.get(column, "0")
        op.add_column("profiles", sa.Column(
            column, kind, nullable=default is None,
            server_default=None if default is None else sa.text(default),
        ))
    for column, moved in _MOVED:
        op.execute(
            sa.text(
                f"UPDATE profiles SET {column} = COALESCE((SELECT g.{moved} FROM profile_games g "
                f"WHERE g.profile_id = profiles.id AND g.game = :game), {column})"
            ).bindparams(game=_GAME)
        )
    op.create_index(
        "ix_profiles_rating",
        "profiles",
        [sa.text("ordinal DESC"), "id"],
        postgresql_where=RATED_WHERE,
        sqlite_where=RATED_WHERE,
    )
    op.create_index("ix_profiles_wins", "profiles", [sa.text("matches_won DESC"), "id"])
    op.create_index("ix_profiles_matches", "profiles", [sa.text("matches_played DESC"), "id"])
    counts = op.create_table(
        "profile_counts",
        sa.Column("id", sa.SmallInteger(), autoincrement=False, nullable=False),
        sa.Column("profiles", sa.Integer(), nullable=False),
        sa.Column("rated_profiles", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_profile_counts"),
    )
    op.bulk_insert(counts, [{"id": 1, "profiles": 0, "rated_profiles": 0}])
    op.execute(
        "UPDATE profile_counts SET profiles = (SELECT COUNT(*) FROM profiles), "
        "rated_profiles = (SELECT COUNT(*) FROM profiles WHERE matches_played >= 5)"
    )
    op.drop_table("profile_game_counts")
    op.drop_table("profile_games")
