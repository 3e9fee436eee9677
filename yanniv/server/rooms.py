"""The room registry: every live room in memory, and every change to one.

Each change runs under the room's lock: check, compute, persist (in the database threads),
then commit in memory, re-arm the timer and broadcast. If the write fails, nothing changed.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError

from yanniv.db.session import Database
from yanniv.engine import IllegalActionError, MatchConfig, apply, legal_actions
from yanniv.engine.actions import Action
from yanniv.engine.events import Event
from yanniv.engine.setup import start_match
from yanniv.profiles.types import FinishedManche, FinishedMatch, FinishedPlayer
from yanniv.server import bots
from yanniv.server.bots import BOT_LEVELS, BotTurns, bot_pseudo
from yanniv.server.codes import new_code
from yanniv.server.connections import CLOSE_REMOVED, Connection
from yanniv.server.errors import GameError, game_error, wire_detail
from yanniv.server.protocol import AckOut, ErrorOut, RoomSettings, outgoing
from yanniv.server.pseudos import confusable
from yanniv.server.room import LiveMatch, Room, Seat, action_fingerprint, new_bot_seat, new_seat
from yanniv.server.settings import Settings
from yanniv.server.store import LoadedRoom, RoomStore
from yanniv.server.timers import Timers, now_ms
from yanniv.server.tokens import new_token
from yanniv.server.validation import MAX_SEATS, clean_pseudo, patched_settings
from yanniv.wire import WireError, action_from_wire, action_to_wire

log = logging.getLogger(__name__)

#: Rooms that hold players' attention: closed when nobody is connected for too long.
LIVE_STATUSES = ("waiting", "playing")


def _utcnow() -> datetime:
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    """SQLite hands datetimes back naive; they were written in UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class Rooms:
    """All rooms of this server process, keyed by code."""

    def __init__(self, db: Database, settings: Settings) -> None:
        self.db = db
        self.settings = settings
        self.store = RoomStore(db.sessions)
        self.rooms: dict[str, Room] = {}
        self.timers = Timers(self._on_deadline)
        self.bot_turns = BotTurns(self._bot_play, settings.bot_delay_scale)
        #: Rooms with computer players and no person connected: closed when the handle fires.
        self._deserted: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        #: Seeds of new matches; tests may replace it to replay a known match.
        self.seed_factory: Callable[[], str] = lambda: secrets.token_hex(8)
        self._created = 0

    # ------------------------------------------------------------ life cycle

    async def load(self) -> None:
        """Bring back every waiting, playing and recently finished room, replaying match logs."""
        since = _utcnow() - timedelta(hours=self.settings.keep_finished_hours)
        for loaded in await self.db.run(self.store.load, since):
            try:
                room = self._restore(loaded)
            except Exception:  # e.g. a log the current rules refuse: keep the others running
                log.exception("room %s could not be restored", loaded.room["code"])
                continue
            self.rooms[room.code] = room
            self._arm(room)
            self.watch_humans(room, idle_since=room.updated_at)
        log.info("loaded %d rooms", len(self.rooms))

    def _restore(self, loaded: LoadedRoom) -> Room:
        data = loaded.room
        room = Room(
            code=data["code"], status=data["status"], host_seat=data["host_seat"],
            settings=RoomSettings.model_validate(data["settings"]), version=data["version"],
            created_at=_aware(data["created_at"]), updated_at=_aware(data["updated_at"]),
            seats=[Seat(**{**s, "joined_at": _aware(s["joined_at"])}) for s in loaded.seats],
        )
        m = loaded.match
        if m is not None and room.status != "waiting":
            config = MatchConfig(seats=m.seats, manches=m.manches, first_player=m.first_player)
            state, events = start_match(config, m.seed)
            bots.new_memories(room, m.seed, events)  # bots remember what their seat saw
            match = LiveMatch(
                id=m.id, seed=m.seed, config=config, state=state, pseudos=m.pseudos,
                started_at=_aware(m.started_at), deadline_ms=m.deadline_ms,
            )
            match.remember(events)  # the journal, as the live broadcasts had made it
            for step, seat, version, action_data, client_id in m.actions:
                if step != match.state.step:
                    raise RuntimeError(f"room {room.code}: action log has a gap at step {step}")
                match.state, events = apply(match.state, action_from_wire(action_data))
                bots.observe(room, events)
                match.remember(events)
                match.log.append(action_data)
                if client_id is not None:
                    match.seen[(seat, client_id)] = (
                        version, action_fingerprint(version - 1, action_data))
            room.match = match
        return room

    def close(self) -> None:
        """Stop timers and tell every socket the server is going away (1012: restart)."""
        self.timers.close()
        self.bot_turns.close()
        for handle in self._deserted.values():
            handle.cancel()
        self._deserted.clear()
        for task in self._tasks:
            task.cancel()
        for room in self.rooms.values():
            for conn in list(room.connections):
                conn.close(1012)

    # ------------------------------------------------------------ lookups

    def get(self, code: str) -> Room | None:
        return self.rooms.get(code)

    def public_rooms(self) -> list[dict[str, Any]]:
        """Public rooms waiting for players, with a free seat and someone connected."""
        waiting = [
            r for r in self.rooms.values()
            if r.settings.public and r.status == "waiting" and len(r.seats) < MAX_SEATS
            and any(s.connections for s in r.seats)  # someone is there to play with
        ]
        waiting.sort(key=lambda r: r.created_at, reverse=True)
        return [
            {
                "code": r.code,
                "host": next((s.pseudo for s in r.seats if s.seat == r.host_seat), ""),
                "seats_taken": len(r.seats),
                "seats_free": MAX_SEATS - len(r.seats),
                "created_at": r.created_at.isoformat(),
            }
            for r in waiting[:100]
        ]

    # ------------------------------------------------------------ lobby

    async def _check_pseudo(self, pseudo: str, owner_secret: str | None) -> None:
        refusal = await self.db.run(self.store.check_pseudo, pseudo, owner_secret)
        if refusal:
            raise game_error("pseudo_owned", refusal)

    def _forget_old_rooms(self) -> None:
        """Drop from memory finished rooms nobody watches any more (they stay in the database)."""
        limit = _utcnow() - timedelta(hours=self.settings.keep_finished_hours)
        for code, room in list(self.rooms.items()):
            if room.status == "finished" and not room.connections and room.updated_at < limit:
                self._disarm(room)
                del self.rooms[code]

    async def create(self, raw_pseudo: object, public: bool,
                     owner_secret: str | None) -> tuple[Room, Seat, str]:
        pseudo = clean_pseudo(raw_pseudo)
        self._created += 1
        if self._created % 256 == 0:
            self._forget_old_rooms()
        await self._check_pseudo(pseudo, owner_secret)
        now = _utcnow()
        token = new_token()
        for _attempt in range(20):
            code = new_code()
            if code in self.rooms:
                continue
            seat = new_seat(0, pseudo, token, owner_secret, now)
            room = Room(code=code, status="waiting", host_seat=0,
                        settings=RoomSettings(public=public), version=1,
                        created_at=now, updated_at=now, seats=[seat])
            try:
                await self.db.run(self.store.create_room, room.row(), seat.row())
            except IntegrityError:  # code used by an old room in the database
                continue
            self.rooms[code] = room
            self.watch_humans(room)  # closed if its host never connects
            return room, seat, token
        raise game_error("server_error")

    async def join(self, room: Room, raw_pseudo: object,
                   owner_secret: str | None) -> tuple[Seat, str]:
        pseudo = clean_pseudo(raw_pseudo)
        await self._check_pseudo(pseudo, owner_secret)
        async with room.lock:
            if room.status != "waiting":
                raise game_error("room_started")
            if len(room.seats) >= MAX_SEATS:
                raise game_error("room_full")
            for seated in room.seats:
                if seated.pseudo.casefold() == pseudo.casefold():
                    raise game_error("pseudo_taken")
                if confusable(seated.pseudo, pseudo):
                    raise game_error("pseudo_confusable", seated.pseudo)
            token = new_token()
            seat = new_seat(len(room.seats), pseudo, token, owner_secret, _utcnow())
            await self._seat(room, seat)
            return seat, token

    async def add_bot(self, room: Room, actor: Seat, level: object) -> Seat:
        """The host seats a computer player of `level` on the next free seat (room waiting)."""
        async with room.lock:
            self._require_host(room, actor)
            if room.status != "waiting":
                raise game_error("not_waiting")
            if not isinstance(level, str) or level not in BOT_LEVELS:
                raise game_error("bad_bot_level")
            if len(room.seats) >= MAX_SEATS:
                raise game_error("room_full")
            pseudo = bot_pseudo(level, (s.pseudo for s in room.seats))
            seat = new_bot_seat(len(room.seats), pseudo, level, _utcnow())
            await self._seat(room, seat)
            return seat

    async def _seat(self, room: Room, seat: Seat) -> None:
        """Persist a new seat, then show it to everyone (call under the room's lock)."""
        snapshot = self._bumped(room)
        await self.db.run(self.store.add_seat, snapshot, seat.row())
        room.seats.append(seat)
        self._commit_bump(room, snapshot)
        room.broadcast()
        self.watch_humans(room)  # a table nobody connects to leaves no room behind

    def _bumped(self, room: Room, **changes: Any) -> dict[str, Any]:
        """The room's row as it will be after this change (version + 1)."""
        row = room.row()
        row.update(version=room.version + 1, updated_at=_utcnow(), **changes)
        return row

    @staticmethod
    def _commit_bump(room: Room, snapshot: dict[str, Any]) -> None:
        room.version = snapshot["version"]
        room.updated_at = snapshot["updated_at"]
        room.status = snapshot["status"]
        room.host_seat = snapshot["host_seat"]

    def _require_host(self, room: Room, seat: Seat) -> None:
        if seat.seat != room.host_seat:
            raise game_error("not_host")

    async def update_settings(self, room: Room, seat: Seat, patch: object,
                              based_on: int | None = None) -> None:
        """The host changes the fields of `patch`; `based_on`, the room version the host saw
        them at: refused if the room changed since (the client reloads and applies again)."""
        async with room.lock:
            self._require_host(room, seat)
            if room.status != "waiting":
                raise game_error("not_waiting")
            if based_on is not None and based_on != room.version:
                raise game_error("stale_settings", room.version)
            settings = patched_settings(room.settings, patch)
            if settings == room.settings:  # nothing changes: no new version, no broadcast
                return
            snapshot = self._bumped(room, settings=settings.model_dump(), public=settings.public)
            await self.db.run(self.store.update_room, snapshot)
            room.settings = settings
            self._commit_bump(room, snapshot)
            room.broadcast()

    async def remove_seat(self, room: Room, actor: Seat, index: int) -> None:
        """The host removes a seated player, or a player leaves, while the room waits."""
        async with room.lock:
            if actor.seat != index:
                self._require_host(room, actor)
            if room.status != "waiting":
                raise game_error("not_waiting")
            target = room.seat_at(index)
            if target is None:
                raise game_error("seat_not_found")
            if target.seat == room.host_seat:
                raise game_error("cannot_remove_host")
            remaining = [s for s in room.seats if s is not target]
            rows = [{**s.row(), "seat": number} for number, s in enumerate(remaining)]
            host = next(n for n, s in enumerate(remaining) if s.seat == room.host_seat)
            settings = room.settings
            if isinstance(settings.first_player, int) and settings.first_player >= len(remaining):
                settings = settings.model_copy(update={"first_player": "random"})
            snapshot = self._bumped(room, host_seat=host, settings=settings.model_dump())
            await self.db.run(self.store.update_room, snapshot, rows)
            for number, s in enumerate(remaining):
                s.seat = number
            room.seats = remaining
            room.settings = settings
            self._commit_bump(room, snapshot)
            self._kick(room, target)
            room.broadcast()

    @staticmethod
    def _kick(room: Room, target: Seat) -> None:
        error = game_error("seat_removed")
        text = outgoing(ErrorOut, id=None, **error.body())
        for conn in list(room.connections):
            if conn.seat is target:
                conn.send(text)
                conn.close(CLOSE_REMOVED)
                room.connections.discard(conn)

    async def start(self, room: Room, actor: Seat) -> None:
        async with room.lock:
            self._require_host(room, actor)
            if room.status != "waiting":
                raise game_error("not_waiting")
            if len(room.seats) < 2:
                raise game_error("not_enough_players")
            first = room.settings.first_player
            first_seat = (None if first == "random"
                          else room.host_seat if first == "host" else int(first))
            if first_seat is not None and first_seat >= len(room.seats):
                raise game_error("first_player_absent")
            config = MatchConfig(seats=len(room.seats), manches=room.settings.manches,
                                 first_player=first_seat)
            seed = self.seed_factory()
            state, events = start_match(config, seed)
            now = _utcnow()
            deadline = self._deadline(room, state.finished)
            match_row = {
                "seed": seed, "seats": config.seats, "manches": config.manches,
                "first_player": first_seat, "pseudos": [s.pseudo for s in room.seats],
                "started_at": now, "deadline_ms": deadline,
            }
            snapshot = self._bumped(room, status="playing")
            match_id = await self.db.run(self.store.start_match, snapshot, match_row)
            room.match = LiveMatch(id=match_id, seed=seed, config=config, state=state,
                                   pseudos=match_row["pseudos"], started_at=now,
                                   deadline_ms=deadline)
            bots.new_memories(room, seed, events)
            self._commit_bump(room, snapshot)
            self._arm(room)
            room.broadcast(events)

    async def rematch(self, room: Room, actor: Seat) -> None:
        """Back to the lobby with the same players and settings; the host starts again."""
        async with room.lock:
            if room.status != "finished":
                raise game_error("not_finished")
            snapshot = self._bumped(room, status="waiting")
            await self.db.run(self.store.update_room, snapshot)
            room.match = None
            self._commit_bump(room, snapshot)
            self._disarm(room)
            room.broadcast()

    # ------------------------------------------------------------ play

    def _arm(self, room: Room) -> None:
        """After every change: the deadline of the seat that must act, and a bot's turn."""
        self.timers.arm(room)
        self.bot_turns.schedule(room)

    def _disarm(self, room: Room) -> None:
        self.timers.cancel(room)
        self.bot_turns.cancel(room)

    def _deadline(self, room: Room, finished: bool) -> int | None:
        seconds = room.settings.timer_seconds
        if seconds is None or finished:
            return None
        return now_ms() + int(seconds * 1000 * self.settings.timer_scale)

    async def act(self, room: Room, seat: Seat, client_id: str, version: int,
                  action_data: dict[str, Any], reply: Connection) -> None:
        """A seat's action: checked, logged, acknowledged to `reply`, then broadcast."""
        async with room.lock:
            match = room.match
            seen = None if match is None else match.seen.get((seat.seat, client_id))
            if seen is not None:
                acked, fingerprint = seen
                if _fingerprint(version, action_data) != fingerprint:
                    raise game_error("duplicate_id")  # another action under a used id
                reply.send(outgoing(AckOut, id=client_id, version=acked))  # a retry
                return
            if room.status != "playing" or match is None:
                raise game_error("not_playing")
            if version != room.version:
                raise game_error("stale_version", room.version)
            if match.state.to_act != seat.seat:
                raise game_error("not_your_turn")
            try:
                action = action_from_wire(action_data)
            except WireError as exc:
                raise game_error("bad_action", *wire_detail(exc.reason, exc.subject)) from None
            try:
                new_state, events = apply(match.state, action)
            except IllegalActionError as exc:
                raise GameError(exc.code, exc.message, exc.message_en, 409) from None
            await self._commit(room, match, new_state, events, action, seat.seat, client_id)
            reply.send(outgoing(AckOut, id=client_id, version=room.version))
            room.broadcast(events)

    async def _commit(self, room: Room, match: LiveMatch, new_state: Any,
                      events: tuple[Event, ...], action: Action, seat: int,
                      client_id: str | None, by_timer: bool | None = None) -> None:
        """Persist the action (and the end of the match), then make it the live state.
        `client_id` is None for the timer and for bots (`by_timer` tells them apart)."""
        finished_at = _utcnow() if new_state.finished else None
        deadline = self._deadline(room, new_state.finished)
        wire = action_to_wire(action)
        version = room.version + 1
        snapshot = self._bumped(room, status="finished" if new_state.finished else room.status)
        row = {
            "step": match.state.step, "seat": seat, "version": version, "action": wire,
            "client_id": client_id,
            "by_timer": client_id is None if by_timer is None else by_timer,
            "created_at": snapshot["updated_at"],
        }
        record = (self._finished_match(room, match, new_state, [*match.log, wire], finished_at)
                  if finished_at else None)
        try:
            await self.db.run(self.store.append_action, snapshot, match.id, row, deadline, record)
        except Exception:
            log.exception("room %s: writing step %d failed", room.code, match.state.step)
            raise game_error("server_error") from None
        match.state = new_state
        match.log.append(wire)
        match.deadline_ms = deadline
        if client_id is not None:
            match.seen[(seat, client_id)] = (version, action_fingerprint(version - 1, wire))
        self._commit_bump(room, snapshot)
        bots.observe(room, events)
        self._arm(room)

    def _finished_match(self, room: Room, match: LiveMatch, state: Any,
                        actions: list[dict[str, Any]], finished_at: datetime) -> FinishedMatch:
        by_seat = {s.seat: s for s in room.seats}
        players = tuple(
            FinishedPlayer(
                seat=n, pseudo=pseudo,
                owner_hash=(by_seat[n].owner_hash
                            if n in by_seat and not by_seat[n].is_bot else None),
                is_bot=n in by_seat and by_seat[n].is_bot,
            )
            for n, pseudo in enumerate(match.pseudos)
        )
        manches = tuple(
            FinishedManche(
                number=r.manche, tiebreak=r.tiebreak, caller=r.caller,
                caller_won=None if r.caller is None else r.winner == r.caller,
                winner=r.winner, points=tuple(r.points), deltas=tuple(r.deltas),
            )
            for r in state.manche_history
        )
        return FinishedMatch(
            room_code=room.code, seed=match.seed, started_at=match.started_at,
            finished_at=finished_at, players=players, manches=manches,
            totals=tuple(state.scores), ranking=tuple(state.ranking), actions=tuple(actions),
        )

    async def _on_deadline(self, room: Room, step: int) -> None:
        """The seat that must act ran out of time: play the documented default action."""
        async with room.lock:
            match = room.match
            if (match is None or room.status != "playing" or match.state.step != step
                    or match.deadline_ms is None):
                return
            if match.deadline_ms > now_ms() + 5:
                self.timers.arm(room)
                return
            seat = match.state.to_act
            assert seat is not None
            action = default_action(match.state)
            new_state, events = apply(match.state, action)
            try:
                await self._commit(room, match, new_state, events, action, seat, None)
            except GameError:
                match.deadline_ms = now_ms() + 2000  # database trouble: try again shortly
                self.timers.arm(room)
                return
            room.broadcast(events)

    # ------------------------------------------------------------ computer players

    async def _bot_play(self, room: Room, seat: Seat, version: int, action: Action) -> None:
        """A bot's decision, taken on room version `version`: applied exactly like a human's
        (persisted, then broadcast), unless the room moved on while the bot was thinking."""
        async with room.lock:
            match = room.match
            if (match is None or room.status != "playing" or room.version != version
                    or match.state.to_act != seat.seat or seat not in room.seats
                    or self.rooms.get(room.code) is not room):
                return
            try:
                new_state, events = apply(match.state, action)
            except IllegalActionError:
                log.exception("room %s: bot of seat %d chose an illegal action", room.code,
                              seat.seat)
                action = default_action(match.state)
                new_state, events = apply(match.state, action)
            try:
                await self._commit(room, match, new_state, events, action, seat.seat, None,
                                   by_timer=False)
            except GameError:  # database trouble: the bot tries again shortly
                self.bot_turns.schedule(room, bots.RETRY_SECONDS)
                return
            room.broadcast(events)

    def watch_humans(self, room: Room, idle_since: datetime | None = None) -> None:
        """A person's last socket closed (or the room was made, or the server started): a
        waiting or playing room with no person connected is closed after a grace period,
        `bot_room_grace_seconds` if computer players are seated (they would play on for
        nobody), else `idle_room_hours` (friends who paused can come back; an abandoned room
        must not stay in memory and be reloaded at every start for ever). `idle_since` (at
        start: the room's last change) counts time already spent idle."""
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
            grace = max(0.0, grace - (_utcnow() - _aware(idle_since)).total_seconds())
        loop = asyncio.get_running_loop()
        self._deserted[room.code] = loop.call_later(
            grace, self._spawn, self._close_if_deserted, room
        )

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
            snapshot = self._bumped(room, status="closed")
            try:
                await self.db.run(self.store.close_room, snapshot, abandoned)
            except Exception:
                log.exception("room %s: closing failed", room.code)
                self.watch_humans(room)
                return
            self._disarm(room)
            del self.rooms[room.code]
            for conn in list(room.connections):  # spectators
                conn.close(1000)
            log.info("room %s closed: no person connected (%s)", room.code,
                     "computer players only" if room.bot_seats() else "idle")


def _fingerprint(version: int, action_data: object) -> bytes | None:
    """The fingerprint of an incoming action message, None if its action is malformed (so it
    cannot be the retry of an action that was applied)."""
    try:
        wire = action_to_wire(action_from_wire(action_data))
    except WireError:
        return None
    return action_fingerprint(version, wire)


def default_action(state: Any) -> Action:
    """The engine's greedy choice for the seat (from its own view); the first legal action if
    that policy ever fails, so a timer can never stall a match."""
    try:
        from yanniv.policies import default_action as policy

        action = policy(state)
        if action in legal_actions(state):
            return action
    except Exception:
        log.exception("default policy failed")
    return legal_actions(state)[0]
