"""Profiles (with owners, password, rating, counters) and finished-match records.

Revision ID: 0002
Revises: 0001
Create Date: 2024-06-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)
BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
#: Must equal yanniv.profiles.models.MIN_RATED_MATCHES (a test checks it).
RATED_WHERE = sa.text("matches_played >= 5")


def upgrade() -> None:
    op.create_table(
        "profiles",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("pseudo", sa.String(40), nullable=False),
        sa.Column("pseudo_key", sa.String(40), nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("last_played_at", TZ, nullable=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("matches_played", sa.Integer(), nullable=False),
        sa.Column("matches_won", sa.Integer(), nullable=False),
        sa.Column("manches_played", sa.Integer(), nullable=False),
        sa.Column("manches_won", sa.Integer(), nullable=False),
        sa.Column("points_sum", sa.Integer(), nullable=False),
        sa.Column("yanniv_calls", sa.Integer(), nullable=False),
        sa.Column("yanniv_successes", sa.Integer(), nullable=False),
        sa.Column("best_total", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_profiles"),
        sa.UniqueConstraint("pseudo_key", name="uq_profiles_pseudo_key"),
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

    op.create_table(
        "profile_owners",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("profile_id", BIG_ID, nullable=False),
        sa.Column("secret_hash", sa.String(64), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.ForeignKeyConstraint(
            ["profile_id"],
            ["profiles.id"],
            name="fk_profile_owners_profile_id_profiles",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_profile_owners"),
    )
    op.create_index(
        "uq_profile_owners_profile_secret",
        "profile_owners",
        ["profile_id", "secret_hash"],
        unique=True,
    )
    op.create_index("ix_profile_owners_secret_hash", "profile_owners", ["secret_hash"])

    op.create_table(
        "finished_matches",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("room_code", sa.String(16), nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("started_at", TZ, nullable=False),
        sa.Column("finished_at", TZ, nullable=False),
        sa.Column("seats", sa.SmallInteger(), nullable=False),
        sa.Column("manches", sa.SmallInteger(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("actions", sa.JSON(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_finished_matches"),
    )
    op.create_index("ix_finished_matches_finished_at", "finished_matches", ["finished_at"])

    op.create_table(
        "finished_match_players",
        sa.Column("match_id", BIG_ID, nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("profile_id", BIG_ID, nullable=True),
        sa.Column("pseudo", sa.String(40), nullable=False),
        sa.Column("is_bot", sa.Boolean(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("rank", sa.SmallInteger(), nullable=False),
        sa.Column("finished_at", TZ, nullable=False),
        sa.Column("ordinal_before", sa.Float(), nullable=True),
        sa.Column("ordinal_after", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["finished_matches.id"],
            name="fk_finished_match_players_match_id_finished_matches",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["profile_id"],
            ["profiles.id"],
            name="fk_finished_match_players_profile_id_profiles",
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("match_id", "seat", name="pk_finished_match_players"),
    )
    op.create_index(
        "ix_finished_match_players_profile_recent",
        "finished_match_players",
        ["profile_id", sa.text("finished_at DESC")],
    )

    op.create_table(
        "finished_manches",
        sa.Column("match_id", BIG_ID, nullable=False),
        sa.Column("number", sa.SmallInteger(), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("tiebreak", sa.Boolean(), nullable=False),
        sa.Column("played", sa.Boolean(), nullable=False),
        sa.Column("points", sa.SmallInteger(), nullable=False),
        sa.Column("delta", sa.SmallInteger(), nullable=False),
        sa.Column("called", sa.Boolean(), nullable=False),
        sa.Column("call_won", sa.Boolean(), nullable=True),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["finished_matches.id"],
            name="fk_finished_manches_match_id_finished_matches",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("match_id", "number", "seat", name="pk_finished_manches"),
    )


def downgrade() -> None:
    op.drop_table("finished_manches")
    op.drop_table("finished_match_players")
    op.drop_table("finished_matches")
    op.drop_table("profile_owners")
    op.drop_table("profile_counts")
    op.drop_table("profiles")
