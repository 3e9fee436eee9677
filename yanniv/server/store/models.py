"""Tables of the server: rooms, their seats, and each match as a seed plus its action log.

A match is never stored as a state: `new_match(config, seed)` then the logged actions, in
`step` order, rebuild it exactly. Table names start with `room` to keep clear of the
profiles' tables (`finished_matches`, ...).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from yanniv.db.base import Base


class RoomRow(Base):
    __tablename__ = "rooms"

    code: Mapped[str] = mapped_column(String(12), primary_key=True)
    #: The registered game the room plays (`yanniv.games.GAMES`). The server default only
    #: served rows older than games (migration 0005); the server always writes it.
    game: Mapped[str] = mapped_column(String(32), server_default="yanniv")
    public: Mapped[bool] = mapped_column(Boolean, default=False)
    #: waiting | playing | finished | closed (only computer players were left; never reloaded)
    status: Mapped[str] = mapped_column(String(16), index=True)
    host_seat: Mapped[int] = mapped_column(Integer, default=0)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: Increases by one per change of the room (lobby change or match action).
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RoomSeatRow(Base):
    __tablename__ = "room_seats"
    __table_args__ = (UniqueConstraint("room_code", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_code: Mapped[str] = mapped_column(
        ForeignKey("rooms.code", ondelete="CASCADE"), index=True
    )
    seat: Mapped[int] = mapped_column(Integer)
    pseudo: Mapped[str] = mapped_column(String(40))
    #: sha256 hex of the seat token; the token itself is only ever in the player's hands.
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    #: sha256 hex of the `yanniv_owner` cookie of the browser that took the seat (the cookie
    #: itself is never stored here), handed to profiles at the end.
    owner_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: A computer player's level (`facile`, `moyen`, `difficile`); None for a person.
    bot_level: Mapped[str | None] = mapped_column(String(16), nullable=True)


class RoomMatchRow(Base):
    __tablename__ = "room_matches"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_code: Mapped[str] = mapped_column(
        ForeignKey("rooms.code", ondelete="CASCADE"), index=True
    )
    seed: Mapped[str] = mapped_column(String(64))
    #: What the match is: its game, the rules code version and the game's config (ruleset
    #: included, `Game.config_to_data`). Restore and replay use exactly these.
    #: (Server defaults: see migration 0005; the server always writes all three.)
    game: Mapped[str] = mapped_column(String(32), server_default="yanniv")
    rules_version: Mapped[str] = mapped_column(String(32), server_default="yanniv-1")
    config: Mapped[dict[str, Any]] = mapped_column(JSON, server_default=text("'{}'"))
    seats: Mapped[int] = mapped_column(Integer)
    manches: Mapped[int] = mapped_column(Integer)
    first_player: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: Seat pseudos at the start, in seat order (the room's seats may change after the match).
    pseudos: Mapped[list[str]] = mapped_column(JSON)
    #: playing | finished | abandoned (closed with only computer players left)
    status: Mapped[str] = mapped_column(String(16))
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: When the seat that must act will be played for by the timer (epoch ms), if any.
    deadline_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    #: Id returned by profiles' `record_finished_match`.
    record_id: Mapped[int | None] = mapped_column(Integer, nullable=True)


class RoomActionRow(Base):
    __tablename__ = "room_actions"

    match_id: Mapped[int] = mapped_column(
        ForeignKey("room_matches.id", ondelete="CASCADE"), primary_key=True
    )
    step: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    #: The room version this action produced (what the acknowledgement carried).
    version: Mapped[int] = mapped_column(Integer)
    #: The action as its game stores it (`Game.decode_action(...).data`).
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: The client's id for the action (duplicate detection); None when the timer played.
    client_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    by_timer: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RoomLeaseRow(Base):
    """Which server process serves a room (docs/cluster.md): one row per room, taken with
    epoch + 1 on every take-over. Every write of the room is fenced on (owner, epoch), so a
    process that lost the lease can never write; `expires_ms` (the database's clock, epoch
    ms) only says when another process may take it."""

    __tablename__ = "room_leases"

    room_code: Mapped[str] = mapped_column(
        ForeignKey("rooms.code", ondelete="CASCADE"), primary_key=True
    )
    #: The holding process's id (`leases.process_id`); empty: nobody yet.
    owner: Mapped[str] = mapped_column(String(64))
    epoch: Mapped[int] = mapped_column(Integer)
    expires_ms: Mapped[int] = mapped_column(BigInteger)
    #: Where the holder serves (`YANNIV_ADVERTISE_URL`): other processes send the room's
    #: requests there. Empty: not advertised (then nobody routes to it).
    owner_url: Mapped[str] = mapped_column(String(200), server_default="")
    #: The holder lists the room among the public ones (public, waiting, a free seat, someone
    #: connected), as of its last renewal: the public list of a cluster is read from here.
    listed: Mapped[bool] = mapped_column(Boolean, server_default=false())
