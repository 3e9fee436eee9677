"""Rooms, seats, matches (seed + settings) and their ordered action logs.

Revision ID: 0001
Revises:
Create Date: 2024-06-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("code", sa.String(12), nullable=False),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("host_seat", sa.Integer(), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("updated_at", TZ, nullable=False),
        sa.PrimaryKeyConstraint("code", name="pk_rooms"),
    )
    op.create_index("ix_rooms_status", "rooms", ["status"])
    op.create_table(
        "room_seats",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("room_code", sa.String(12), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("pseudo", sa.String(40), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("owner_secret", sa.String(128), nullable=True),
        sa.Column("joined_at", TZ, nullable=False),
        sa.ForeignKeyConstraint(
            ["room_code"], ["rooms.code"], name="fk_room_seats_room_code_rooms",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_room_seats"),
        sa.UniqueConstraint("room_code", "seat", name="uq_room_seats_room_code"),
        sa.UniqueConstraint("token_hash", name="uq_room_seats_token_hash"),
    )
    op.create_index("ix_room_seats_room_code", "room_seats", ["room_code"])
    op.create_table(
        "room_matches",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("room_code", sa.String(12), nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("manches", sa.Integer(), nullable=False),
        sa.Column("first_player", sa.Integer(), nullable=True),
        sa.Column("pseudos", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("started_at", TZ, nullable=False),
        sa.Column("finished_at", TZ, nullable=True),
        sa.Column("deadline_ms", sa.BigInteger(), nullable=True),
        sa.Column("record_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["room_code"], ["rooms.code"], name="fk_room_matches_room_code_rooms",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_room_matches"),
    )
    op.create_index("ix_room_matches_room_code", "room_matches", ["room_code"])
    op.create_table(
        "room_actions",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("client_id", sa.String(64), nullable=True),
        sa.Column("by_timer", sa.Boolean(), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["room_matches.id"], name="fk_room_actions_match_id_room_matches",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("match_id", "step", name="pk_room_actions"),
    )


def downgrade() -> None:
    op.drop_table("room_actions")
    op.drop_index("ix_room_matches_room_code", table_name="room_matches")
    op.drop_table("room_matches")
    op.drop_index("ix_room_seats_room_code", table_name="room_seats")
    op.drop_table("room_seats")
    op.drop_index("ix_rooms_status", table_name="rooms")
    op.drop_table("rooms")
