"""Seats keep the sha256 of the browser's owner secret, never the secret itself.

The raw `yanniv_owner` cookie in `room_seats` would let anyone who reads the database play
as that browser's profiles; its hash is all profiles need to link a finished seat. Existing
rows are hashed in place.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

from __future__ import annotations

import hashlib

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_seats = sa.table(
    "room_seats",
    sa.column("id", sa.Integer),
    sa.column("owner_secret", sa.String),
    sa.column("owner_hash", sa.String),
)


def upgrade() -> None:
    with op.batch_alter_table("room_seats") as batch:
        batch.add_column(sa.Column("owner_hash", sa.String(64), nullable=True))
    conn = op.get_bind()
    rows = conn.execute(
        sa.select(_seats.c.id, _seats.c.owner_secret).where(_seats.c.owner_secret.is_not(None))
    ).all()
    for row_id, secret in rows:
        # Same digest as yanniv.profiles.identity.hash_secret (kept here: migrations are frozen).
        digest = hashlib.sha256(secret.encode()).hexdigest()
        conn.execute(_seats.update().where(_seats.c.id == row_id).values(owner_hash=digest))
    with op.batch_alter_table("room_seats") as batch:
        batch.drop_column("owner_secret")


def downgrade() -> None:
    # The secrets cannot be recovered from their hashes: seats lose the link to profiles.
    with op.batch_alter_table("room_seats") as batch:
        batch.add_column(sa.Column("owner_secret", sa.String(128), nullable=True))
        batch.drop_column("owner_hash")
