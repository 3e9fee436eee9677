"""The address each lease holder advertises (docs/cluster.md, routing by room code): a process
that gets a request for a room another process serves sends it there.

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


def downgrade() -> None:
    with op.batch_alter_table("room_leases") as batch:
        batch.drop_column("owner_url")
