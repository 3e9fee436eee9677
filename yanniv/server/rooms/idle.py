"""Rooms nobody plays in any more: closed when no person is connected for too long, and
finished rooms dropped from memory.

A waiting or playing room with no person connected is closed after a grace period:
`bot_room_grace_seconds` if computer players are seated (they would play on for nobody), else
`idle_room_hours` (friends who paused can come back; an abandoned room must not stay in memory
and be reloaded at every start for ever). Closing is a change like any other: written first
(the room `closed`, its unfinished match `abandoned`), so a failed write keeps the room.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from yanniv.db.session import Database
from yanniv.server.errors import GameError
from yanniv.server.rooms.changes import aware, change_room, utcnow
from yanniv.server.rooms.room import Room
from yanniv.server.settings import Settings
from yanniv.server.store.room_store import RoomStore

log = logging.getLogger(__name__)

#: Rooms that hold players' attention: closed when nobody is connected for too long.
LIVE_STATUSES = ("waiting", "playing")


class IdleRooms:
    """One pending close per deserted room of `rooms` (shared with the registry)."""

    def __init__(self, db: Database, store: RoomStore, rooms: dict[str, Room],
                 settings: Settings, disarm: Callable[[Room], None],
                 drop: Callable[[Room], None]) -> None:
        self.db = db
        self.store = store
        self.rooms = rooms
        self.settings = settings
        #: Stops a room's deadline and bot turn (from `Play`) when it closes.
        self.disarm = disarm
        #: Forgets a room whose lease another process took (from `Play`).
        self.drop = drop
        #: Rooms with no person connected: closed when the handle fires.
        self._deserted: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def watch_humans(self, room: Room, idle_since: datetime | None = None) -> None:
        """A person's last socket closed (or the room was made, or the server started): start
        the room's grace period, from the latest departure. `idle_since` (at start: the room's
        last change) counts time already spent idle."""
        old = self._deserted.pop(room.code, None)
        if old is not None:  # a full grace period from the latest departure
            old.cancel()
        if room.status not in LIVE_STATUSES or room.humans_connected():
            return
        if room.bot_seats():
            grace = self.settings.bot_room_grace_seconds
        else:
            grace = self.settings.idle_room_hours * 3600.0
        if idle_since is not None:
            grace = max(0.0, grace - (utcnow() - aware(idle_since)).total_seconds())
        loop = asyncio.get_running_loop()
        self._deserted[room.code] = loop.call_later(
            grace, self._spawn, self._close_if_deserted, room
        )

    def forget_old_rooms(self) -> None:
        """Drop from memory finished rooms nobody watches any more (they stay in the database)."""
        limit = utcnow() - timedelta(hours=self.settings.keep_finished_hours)
        for code, room in list(self.rooms.items()):
            if room.status == "finished" and not room.connections and room.updated_at < limit:
                self.disarm(room)
                del self.rooms[code]

    def close(self) -> None:
        for handle in self._deserted.values():
            handle.cancel()
        self._deserted.clear()
        for task in self._tasks:
            task.cancel()

    def _spawn(self, work: Callable[[Room], Any], room: Room) -> None:
        task = asyncio.get_running_loop().create_task(work(room))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _close_if_deserted(self, room: Room) -> None:
        self._deserted.pop(room.code, None)
        async with room.lock:
            if self.rooms.get(room.code) is not room or room.humans_connected():
                return
            if room.status not in LIVE_STATUSES:
                return
            match = room.match
            abandoned = match.id if match is not None and room.status == "playing" else None

            def commit(_: None) -> None:
                self.disarm(room)
                del self.rooms[room.code]
                for conn in list(room.connections):  # spectators
                    conn.close(1000)

            try:
                await change_room(
                    self.db, room, lambda snapshot: self.store.close_room(snapshot, abandoned),
                    commit, what="its closing", announce=False, status="closed",
                    lost=self.drop,
                )
            except GameError:
                if self.rooms.get(room.code) is room:
                    self.watch_humans(room)
                return
            log.info("room %s closed: no person connected (%s)", room.code,
                     "computer players only" if room.bot_seats() else "idle")
