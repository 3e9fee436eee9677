"""The one way a room changes: new version → write to the store → commit in memory → broadcast.

"Persist before acknowledging": every change of a live room (a seat taken or removed, settings,
start, rematch, an action, the room closed) first writes its new row in the database threads;
only when that write succeeded does memory change, so a failed write leaves the room exactly as
it was and the client that asked gets `server_error` with nothing changed (nobody else hears of
it). Keeping this order in one function is what lets the lobby, play and idle modules stay
short without one of them forgetting a step.

A write refused because another process took the room's lease (`leases.LeaseLost`) is not a
passing trouble: the room is dropped from this process (`lost`) and the client that asked
gets `room_moved`; its socket is closed so it reconnects to the room's new owner.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

from yanniv.db.session import Database
from yanniv.kit.events import Event
from yanniv.server.cluster.leases import LeaseLost
from yanniv.server.errors import game_error
from yanniv.server.realtime.connections import Connection
from yanniv.server.rooms.room import Room

log = logging.getLogger(__name__)
T = TypeVar("T")


def utcnow() -> datetime:
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """SQLite hands datetimes back naive; they were written in UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def next_row(room: Room, **changes: Any) -> dict[str, Any]:
    """The room's row as it will be after this change (version + 1, touched now)."""
    row = room.row()
    row.update(version=room.version + 1, updated_at=utcnow(), **changes)
    return row


async def change_room(
    db: Database,
    room: Room,
    write: Callable[[dict[str, Any]], T] | None,
    commit: Callable[[T], None],
    *,
    what: str,
    events: tuple[Event, ...] | list[Event] = (),
    ack: Callable[[], tuple[Connection, bytes]] | None = None,
    announce: bool = True,
    write_async: Callable[[dict[str, Any]], Awaitable[T]] | None = None,
    lost: Callable[[Room], None] | None = None,
    **row: Any,
) -> T:
    """Change `room` (call under its lock), in this order:

    1. its next row (`row` fields changed, version + 1) is handed to `write`, which runs in a
       database thread and returns what `commit` needs (a new match's id…) — or to
       `write_async`, awaited on the loop, which returns once its transaction committed (the
       action log's group commit, `writer.ActionWriter`);
    2. if the write failed: logged, `server_error` raised, memory untouched; if it was
       refused for a lost lease, `lost(room)` drops the room and `room_moved` is raised;
    3. memory takes the new version, status and host, then `commit(result)` changes the rest
       (seats, settings, match, timers) — no await in between, so nobody sees half of it;
    4. `ack` names the client that asked and its answer, which goes first (its `ack`
       precedes its `state`, in one write), then every connection gets the new state with
       `events` (unless `announce` is False: a closed room has nobody left to tell).
    """
    snapshot = next_row(room, **row)
    try:
        if write_async is not None:
            result = await write_async(snapshot)
        else:
            assert write is not None
            result = await db.run(write, snapshot)
    except LeaseLost:
        log.warning("room %s: its lease was taken by another process, %s not written; "
                    "dropping the room", room.code, what)
        if lost is not None:
            lost(room)
        raise game_error("room_moved") from None
    except Exception:
        log.exception("room %s: writing %s failed", room.code, what)
        raise game_error("server_error") from None
    room.version = snapshot["version"]
    room.updated_at = snapshot["updated_at"]
    room.status = snapshot["status"]
    room.host_seat = snapshot["host_seat"]
    commit(result)
    lead = None if ack is None else ack()
    if announce:
        room.broadcast(events, lead)
    elif lead is not None:
        lead[0].send(lead[1])
    return result
