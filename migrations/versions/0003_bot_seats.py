"""Computer players: a seat may be a bot of a given level (None for a person).

Revision ID: 0003
Revises: 0002
Create Date: 2024-06-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("room_seats") as batch:
        batch.add_column(sa.Column("bot_level", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("room_seats") as batch:
        batch.drop_column("bot_level")
