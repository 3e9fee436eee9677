"""The room registry: every live room in memory, and the one object the routes talk to.

The work is done by modules with one job each, around one primitive (`changes.change_room`:
new version → write → commit in memory → broadcast): `lobby` (create, join, seats, settings,
start, rematch), `play` (actions, deadlines, bots' moves), `restore` (rooms brought back at
start), `idle` (rooms nobody plays in), `results` (the finished match for profiles). This
facade wires them on one shared `rooms` dict and keeps the routes and tests to one name.

A room is in that dict only while this process holds its lease (`leases`, docs/cluster.md):
rooms are loaded once their lease is taken, and dropped when it is lost; the `keeper` renews
the leases and, in a cluster, takes over the rooms of a process that died.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from yanniv.db.session import Database
from yanniv.server.cluster.keeper import LeaseKeeper
from yanniv.server.cluster.leases import Holder, Leases, process_id
from yanniv.server.cluster.public_list import listed_rooms
from yanniv.server.errors import GameError
from yanniv.server.ops.metrics import Metrics
from yanniv.server.realtime.connections import Connection
from yanniv.server.rooms.changes import utcnow
from yanniv.server.rooms.idle import IdleRooms
from yanniv.server.rooms.lobby import Lobby
from yanniv.server.rooms.play import Play
from yanniv.server.rooms.restore import restore_room
from yanniv.server.rooms.room import Room, Seat
from yanniv.server.settings import Settings
from yanniv.server.store.room_store import LoadedRoom, RoomStore

log = logging.getLogger(__name__)
#: Most rooms one claim takes over (the rest wait for the next renewal period), so restoring
#: a dead process's rooms never stalls this process's loop for long.
CLAIM_BATCH = 200


def listable_room(r: Room) -> bool:
    """A public room waiting for players, with a free seat and someone connected."""
    return (r.settings.public and r.status == "waiting" and len(r.seats) < r.game.max_seats
            and any(s.connections for s in r.seats))  # someone is there to play with


class Rooms:
    """All rooms of this server process, keyed by code."""

    def __init__(self, db: Database, settings: Settings) -> None:
        self.db = db
        self.settings = settings
        self.leases = Leases(db.engine, process_id(), int(settings.lease_seconds * 1000),
                             settings.advertise_url.rstrip("/"))
        self.store = RoomStore(db.sessions, self.leases,
                               here=settings.sqlite_group_commit_on_loop)
        self.rooms: dict[str, Room] = {}
        #: This process's Prometheus metrics (`GET /metrics`).
        self.metrics = Metrics()
        self._loop_probe: asyncio.Task[None] | None = None
        db.observe = self.metrics.db_call  # every database call's time, in its thread
        self.play = Play(db, self.store, self.rooms, settings, self.metrics)
        self.metrics.watch(self.rooms, self.play.writer)
        self.idle = IdleRooms(db, self.store, self.rooms, settings, self.play.disarm,
                              self.play.drop)
        self.keeper = LeaseKeeper(
            db, self.leases, settings.lease_renew_seconds, settings.lease_seconds,
            held=lambda: {code: room.lease_epoch for code, room in self.rooms.items()},
            lost=self._lost, claim=self._take_over if settings.cluster else None,
            listed=self._listed_codes if settings.cluster else None,
            renew_here=self._renew_here,
        )
        self.lobby = Lobby(db, self.store, self.rooms, self.play, self.idle)
        self.timers = self.play.timers
        self.bot_turns = self.play.bot_turns
        # The lobby's and play's methods, under the names the routes use.
        self.create = self.lobby.create
        self.join = self.lobby.join
        self.add_bot = self.lobby.add_bot
        self.update_settings = self.lobby.update_settings
        self.remove_seat = self.lobby.remove_seat
        self.start = self.lobby.start
        self.rematch = self.lobby.rematch
        self.watch_humans = self.idle.watch_humans

    def _renew_here(self, held: dict[str, int], listed: list[str]) -> set[str] | None:
        """The keeper's renewal on the event loop where it can (`renew_leases_here`); what it
        adds to SQLite's log counts towards the writer's next checkpoint (a lease row is a
        few dozen bytes: a hundred of them as much as a batch of actions)."""
        kept = self.store.renew_leases_here(held, listed)
        if kept is not None:
            self.play.writer.written_here(1 + len(held) // 100)
        return kept

    @property
    def seed_factory(self) -> Callable[[], str]:
        """Seeds of new matches; tests may replace it to replay a known match."""
        return self.lobby.seed_factory

    @seed_factory.setter
    def seed_factory(self, factory: Callable[[], str]) -> None:
        self.lobby.seed_factory = factory

    # ------------------------------------------------------------ life cycle

    async def load(self) -> None:
        """Take the leases of the waiting, playing and recently finished rooms (alone: all of
        them; in a cluster: those nobody holds), bring those rooms back by replaying their
        match logs, and start renewing the leases."""
        since = self._live_since()
        await self.db.run(self.leases.add_missing, since)
        epochs = await self.db.run(self.leases.claim, since, not self.settings.cluster)
        self.metrics.leases("taken", len(epochs))
        self._restore(await self.db.run(self.store.load, epochs))
        log.info("loaded %d rooms (process %s)", len(self.rooms), self.leases.owner)
        self.keeper.start()
        self._loop_probe = asyncio.get_running_loop().create_task(self.metrics.probe_loop())

    def _live_since(self) -> datetime:
        return utcnow() - timedelta(hours=self.settings.keep_finished_hours)

    def _restore(self, loaded_rooms: list[LoadedRoom]) -> None:
        for loaded in loaded_rooms:
            try:
                room = restore_room(loaded)
            except Exception:  # e.g. a log the current rules refuse: keep the others running
                log.exception("room %s could not be restored", loaded.room["code"])
                continue
            old = self.rooms.get(room.code)
            if old is not None:  # a stale copy whose loss we had not noticed: the log rules
                self.play.drop(old)
            self.rooms[room.code] = room
            room.watcher = self.lobby.watcher
            log.info("room %s: restored (%s, lease epoch %d)", room.code, room.status,
                     room.lease_epoch)
            self.play.arm(room)
            self.idle.watch_humans(room, idle_since=room.updated_at)

    async def _take_over(self) -> int:
        """Take the rooms whose lease ran out (their process died or stopped)."""
        epochs = await self.db.run(self.leases.claim, self._live_since(), False, CLAIM_BATCH)
        self.metrics.leases("taken", len(epochs))
        if epochs:
            self._restore(await self.db.run(self.store.load, epochs))
        return len(epochs)

    def _lost(self, code: str, epoch: int) -> None:
        """A renewal found the lease of `code` taken: drop the room if it is still that one."""
        room = self.rooms.get(code)
        if room is not None and room.lease_epoch == epoch:
            log.warning("room %s: its lease was taken by another process; dropping it", code)
            self.play.drop(room)

    def close(self) -> None:
        """Stop timers and tell every socket the server is going away (1012: restart)."""
        if self._loop_probe is not None:
            self._loop_probe.cancel()
        self.play.close()
        self.idle.close()
        for room in self.rooms.values():
            for conn in list(room.connections):
                conn.close(1012)

    async def stop(self) -> None:
        """A graceful stop: no more renewals, timers stopped, sockets told to reconnect
        (`close`), then the leases let go, so another process takes the rooms at once
        instead of after their expiry."""
        await self.keeper.stop()
        self.close()
        codes = list(self.rooms)
        if not codes:
            return
        try:
            await self.db.run(self.leases.release, codes)
        except Exception:  # they will simply run out
            log.exception("releasing %d room leases failed", len(codes))
            return
        self.metrics.leases("released", len(codes))
        log.info("released the leases of %d rooms", len(codes))

    # ------------------------------------------------------------ lookups

    def get(self, code: str) -> Room | None:
        return self.rooms.get(code)

    async def holder(self, code: str) -> Holder | None:
        """Who serves the live room `code` if it is not in our memory (routing, cluster)."""
        return await self.db.run(self.leases.locate, code, self._live_since())

    def listable(self) -> list[Room]:
        """Our public rooms waiting for players, with a free seat and someone connected."""
        return [r for r in self.rooms.values() if listable_room(r)]

    def _listed_codes(self) -> list[str]:
        return [room.code for room in self.listable()]

    async def public_list(self) -> list[dict[str, Any]]:
        """The public rooms: alone, from memory; in a cluster, every process's, from the
        database (`public_list`), so every process shows the same list."""
        if self.settings.cluster:
            return await self.db.run(listed_rooms, self.db.engine)
        return self.public_rooms()

    def public_rooms(self) -> list[dict[str, Any]]:
        """This process's listable rooms, newest first."""
        waiting = self.listable()
        waiting.sort(key=lambda r: r.created_at, reverse=True)
        return [
            {
                "code": r.code,
                "host": next((s.pseudo for s in r.seats if s.seat == r.host_seat), ""),
                "seats_taken": len(r.seats),
                "seats_free": r.game.max_seats - len(r.seats),
                "game": r.game.id,
                "created_at": r.created_at.isoformat(),
            }
            for r in waiting[:100]
        ]

    # ------------------------------------------------------------ play

    async def act(self, room: Room, seat: Seat, client_id: str, version: int,
                  action_data: dict[str, Any], reply: Connection) -> None:
        """A seat's action: checked, logged, acknowledged to `reply`, then broadcast; timed
        and counted for the metrics (a refusal by its code)."""
        started = time.perf_counter()
        try:
            await self.play.act(room, seat, client_id, version, action_data, reply)
        except GameError as error:
            self.metrics.refused(error.code)
            raise
        except Exception:  # a bug: the socket answers `server_error`
            self.metrics.refused("server_error")
            raise
        self.metrics.acted(time.perf_counter() - started)
