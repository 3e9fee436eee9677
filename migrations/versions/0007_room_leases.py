"""Room leases: which server process serves each room, fenced by an epoch (docs/cluster.md).

Every room already stored gets a free, expired lease (no owner, epoch 0): the first process
that starts takes the live ones.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "room_leases",
        sa.Column("room_code", sa.String(12), nullable=False),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("epoch", sa.Integer(), nullable=False),
        sa.Column("expires_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["room_code"], ["rooms.code"], name="fk_room_leases_room_code_rooms",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("room_code", name="pk_room_leases"),
    )
    op.execute(
        "INSERT INTO room_leases (room_code, owner, epoch, expires_ms) "
        "SELECT code, '', 0, 0 FROM rooms"
    )


def downgrade() -> None:
    op.drop_table("room_leases")
