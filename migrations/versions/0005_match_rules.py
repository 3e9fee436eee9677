"""Each stored match says what it is: its game, its rules version and its config.

Before this revision a match row held only YANNIV's seats, manches and first player, and
was replayed under whatever rules the code had. Rows now carry `game`, `rules_version` and
`config` (the game's own JSON form of everything the match is played under, its ruleset
included), and restore/replay use exactly those. Existing rows were all played under the
"yanniv-1" rules (optional powers, the old last lap): they are filled with that, so their
logs replay identically. Finished matches kept for profiles get the game and rules too.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

# Frozen here (migrations never import app code): the "yanniv-1" ruleset as
# `yanniv.games.yanniv.rules.ruleset.LEGACY_YANNIV.to_dict()` writes it.
_LEGACY_VERSION = "yanniv-1"
_LEGACY_RULES = {"mandatory_powers": False, "play_taken_discard": False,
                 "last_lap_each_once": False, "decline_each_use": False}

_matches = sa.table(
    "room_matches",
    sa.column("id", sa.Integer),
    sa.column("seats", sa.Integer),
    sa.column("manches", sa.Integer),
    sa.column("first_player", sa.Integer),
    sa.column("record_id", sa.Integer),
    sa.column("config", sa.JSON),
)
_finished = sa.table(
    "finished_matches",
    sa.column("id", sa.BigInteger),
    sa.column("seats", sa.SmallInteger),
    sa.column("manches", sa.SmallInteger),
    sa.column("config", sa.JSON),
)


def upgrade() -> None:
    # Plain ADD COLUMNs, never a batch rebuild: on SQLite a rebuilt `rooms` or `room_matches`
    # is dropped and recreated, and the drop would cascade to seats and action logs. Hence
    # server defaults (SQLite adds a NOT NULL column only with one); the code always writes
    # all three, the defaults only ever served the rows that existed before this revision.
    for table in ("room_matches", "finished_matches"):
        op.add_column(table, sa.Column("game", sa.String(32), nullable=False,
                                       server_default="yanniv"))
        op.add_column(table, sa.Column("rules_version", sa.String(32), nullable=False,
                                       server_default=_LEGACY_VERSION))
        op.add_column(table, sa.Column("config", sa.JSON, nullable=False,
                                       server_default=sa.text("'{}'")))
    op.add_column("rooms", sa.Column("game", sa.String(32), nullable=False,
                                     server_default="yanniv"))
    conn = op.get_bind()
    recorded: dict[int, dict] = {}
    rows = conn.execute(sa.select(_matches.c.id, _matches.c.seats, _matches.c.manches,
                                  _matches.c.first_player, _matches.c.record_id)).all()
    for row_id, seats, manches, first_player, record_id in rows:
        config = {"seats": seats, "manches": manches, "first_player": first_player,
                  "rules": _LEGACY_RULES}
        conn.execute(_matches.update().where(_matches.c.id == row_id).values(config=config))
        if record_id is not None:
            recorded[record_id] = config
    # A finished match takes its room match's config (which knows the first player); one
    # recorded without a room match (the seed script) was dealt from its seed's draw.
    rows = conn.execute(sa.select(_finished.c.id, _finished.c.seats, _finished.c.manches)).all()
    for row_id, seats, manches in rows:
        config = recorded.get(row_id) or {"seats": seats, "manches": manches,
                                          "first_player": None, "rules": _LEGACY_RULES}
        conn.execute(_finished.update().where(_finished.c.id == row_id).values(config=config))


def downgrade() -> None:
    op.drop_column("rooms", "game")
    for table in ("room_matches", "finished_matches"):
        for column in ("config", "rules_version", "game"):
            op.drop_column(table, column)
