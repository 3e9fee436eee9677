"""What the other processes of a cluster need to know about a room's holder (docs/cluster.md):
the address it advertises (`owner_url`: a request for the room reaching another process is
sent there) and whether it lists the room among the public ones (`listed`: someone is
connected to it, written with each renewal), so every process shows the same public list.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("room_leases") as batch:
        batch.add_column(sa.Column("owner_url", sa.String(200), nullable=False,
                                   server_default=""))
        batch.add_column(sa.Column("listed", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("room_leases") as batch:
        batch.drop_column("listed")
        batch.drop_column("owner_url")
