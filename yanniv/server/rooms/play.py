"""Play: a seat's action, the deadline that plays for a seat out of time, a bot's move.

All three end in `commit_action`, one `change_room` that logs the action (and, on the last one,
the finished match) before the state moves on; a person is acknowledged only then. The timers
and the bots' turns are re-armed after every change of a room (`arm`), by this module and by
the lobby (start, rematch).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from yanniv.db.session import Database
from yanniv.games import Game
from yanniv.games.interface import WireError
from yanniv.server.errors import GameError, game_error, wire_detail
from yanniv.server.ops.metrics import Metrics
from yanniv.server.realtime.connections import Connection
from yanniv.server.realtime.protocol import AckOut, outgoing_bytes
from yanniv.server.rooms import bot_turns as bots
from yanniv.server.rooms.bot_turns import BotTurns
from yanniv.server.rooms.changes import change_room, utcnow
from yanniv.server.rooms.results import finished_match
from yanniv.server.rooms.room import LiveMatch, Room, Seat, action_fingerprint
from yanniv.server.rooms.timers import Timers, now_ms
from yanniv.server.settings import Settings
from yanniv.server.store.group_commit import ActionWriter
from yanniv.server.store.room_store import ActionWrite, RoomStore

log = logging.getLogger(__name__)


class Play:
    """Actions on the rooms of `rooms` (shared with the registry), and their clocks."""

    def __init__(self, db: Database, store: RoomStore, rooms: dict[str, Room],
                 settings: Settings, metrics: Metrics) -> None:
        self.db = db
        self.metrics = metrics
        self.store = store
        self.rooms = rooms
        self.settings = settings
        self.writer = ActionWriter(db, store, settings.group_commit_window)
        self.timers = Timers(self._on_deadline)
        self.bot_turns = BotTurns(self._bot_play, settings.bot_delay_scale)

    # ------------------------------------------------------------ clocks

    def arm(self, room: Room) -> None:
        """After every change: the deadline of the seat that must act, and a bot's turn."""
        self.timers.arm(room)
        self.bot_turns.schedule(room)

    def disarm(self, room: Room) -> None:
        self.timers.cancel(room)
        self.bot_turns.cancel(room)

    def deadline(self, room: Room, finished: bool) -> int | None:
        """When the seat to act runs out of time (epoch ms), None without a timer."""
        seconds = room.settings.timer_seconds
        if seconds is None or finished:
            return None
        return now_ms() + int(seconds * 1000 * self.settings.timer_scale)

    def close(self) -> None:
        self.timers.close()
        self.bot_turns.close()

    def drop(self, room: Room) -> None:
        """Forget a room another process now serves (its lease was taken): out of the
        registry, its clocks stopped at once; its sockets closed with 1012 (reconnect) on the
        loop's next turn, so the client whose action was refused first gets its error."""
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
            self.metrics.leases("lost")
        self.disarm(room)
        asyncio.get_running_loop().call_soon(_close_sockets, room)

    def serves(self, room: Room) -> bool:
        """Whether `room` is still this process's (not dropped, closed or replaced)."""
        return self.rooms.get(room.code) is room

    # ------------------------------------------------------------ a person's action

    async def act(self, room: Room, seat: Seat, client_id: str, version: int,
                  action_data: dict[str, Any], reply: Connection) -> None:
        """A seat's action: checked, logged, acknowledged to `reply`, then broadcast."""
        async with room.lock:
            match = room.match
            seen = None if match is None else match.acknowledgement(seat.seat, client_id)
            if seen is not None:
                acked, fingerprint = seen
                if _fingerprint(room.game, version, action_data) != fingerprint:
                    raise game_error("duplicate_id")  # another action under a used id
                reply.send(outgoing_bytes(AckOut, id=client_id, version=acked))  # a retry
                return
            if room.status != "playing" or match is None:
                raise game_error("not_playing")
            if version != room.version:
                raise game_error("stale_version", room.version)
            game = room.game
            if game.to_act(match.state) != seat.seat:
                raise game_error("not_your_turn")
            try:
                decoded = game.decode_action(action_data)
            except WireError as exc:
                raise game_error("bad_action", *wire_detail(exc.reason, exc.subject)) from None
            try:
                new_state, events = game.apply(match.state, decoded.action)
            except game.illegal_error as exc:
                raise GameError(exc.code, exc.message, exc.message_en, 409) from None
            await self.commit_action(
                room, match, new_state, events, decoded.action, seat.seat, client_id,
                stored=decoded.data,
                ack=lambda: (reply, outgoing_bytes(AckOut, id=client_id, version=room.version)),
            )

    async def commit_action(self, room: Room, match: LiveMatch, new_state: Any,
                            events: tuple[Any, ...], action: Any, seat: int,
                            client_id: str | None, by_timer: bool | None = None,
                            ack: Callable[[], tuple[Connection, bytes]] | None = None,
                            stored: dict[str, Any] | None = None) -> None:
        """Log the action (and the end of the match), then make it the live state and
        broadcast it. `client_id` is None for the timer and for bots (`by_timer` tells them
        apart); `stored` is the action's stored form when it was just decoded from a message
        (otherwise it is encoded here). Raises `server_error` if the write failed: then
        nothing changed."""
        game = room.game
        over = game.is_over(new_state)
        finished_at = utcnow() if over else None
        deadline = self.deadline(room, over)
        wire = stored if stored is not None else game.encode_action(action)
        version = room.version + 1
        step = game.step(match.state)
        record = finished_match(room, match, new_state, finished_at) if finished_at else None

        def row(snapshot: dict[str, Any]) -> dict[str, Any]:
            return {
                "step": step, "seat": seat, "version": version, "action": wire,
                "client_id": client_id,
                "by_timer": client_id is None if by_timer is None else by_timer,
                "created_at": snapshot["updated_at"],
            }

        def write(snapshot: dict[str, Any]) -> None:
            # The last action: the finished match and its record, in one transaction.
            self.store.append_action(snapshot, match.id, row(snapshot), deadline, record)

        async def write_async(snapshot: dict[str, Any]) -> None:
            # Any other action: in the next group commit of every room's actions.
            # No deadline before or after (no timer): the stored one is None already, and
            # stays so. `match.deadline_ms` is None only when the stored one is: the one place
            # that changes it without a write (a timeout that failed) sets a time.
            await self.writer.append(ActionWrite(
                snapshot, match.id, row(snapshot), deadline,
                set_deadline=deadline is not None or match.deadline_ms is not None))

        def commit(_: None) -> None:
            match.state = new_state
            match.deadline_ms = deadline
            if client_id is not None:
                match.acknowledged(seat, client_id, version, action_fingerprint(version - 1, wire))
            bots.observe(room, events)
            self.arm(room)

        await change_room(
            self.db, room, write, commit, what=f"step {step}", events=events, ack=ack,
            status="finished" if over else room.status,
            write_async=None if over else write_async, lost=self.drop,
        )
        self.metrics.action(room, client_id, by_timer, over)
        if over:
            log.info("room %s: match %d finished", room.code, match.id)

    # ------------------------------------------------------------ out of time

    async def _on_deadline(self, room: Room, step: int) -> None:
        """The seat that must act ran out of time: play the documented default action."""
        async with room.lock:
            match = room.match
            game = room.game
            if (match is None or room.status != "playing" or game.step(match.state) != step
                    or match.deadline_ms is None):
                return
            if match.deadline_ms > now_ms() + 5:
                self.timers.arm(room)
                return
            seat = game.to_act(match.state)
            assert seat is not None
            action = default_action(game, match.state)
            new_state, events = game.apply(match.state, action)
            try:
                await self.commit_action(room, match, new_state, events, action, seat, None)
            except GameError:
                if self.serves(room):  # database trouble: try again shortly
                    match.deadline_ms = now_ms() + 2000
                    self.timers.arm(room)

    # ------------------------------------------------------------ computer players

    async def _bot_play(self, room: Room, seat: Seat, version: int, action: Any) -> None:
        """A bot's decision, taken on room version `version`: applied exactly like a human's
        (persisted, then broadcast), unless the room moved on while the bot was thinking."""
        async with room.lock:
            match = room.match
            game = room.game
            if (match is None or room.status != "playing" or room.version != version
                    or game.to_act(match.state) != seat.seat or seat not in room.seats
                    or self.rooms.get(room.code) is not room):
                return
            try:
                new_state, events = game.apply(match.state, action)
            except game.illegal_error:
                log.exception("room %s: bot of seat %d chose an illegal action", room.code,
                              seat.seat)
                action = default_action(game, match.state)
                new_state, events = game.apply(match.state, action)
            try:
                await self.commit_action(room, match, new_state, events, action, seat.seat,
                                         None, by_timer=False)
            except GameError:  # database trouble: the bot tries again shortly
                if self.serves(room):
                    self.bot_turns.schedule(room, bots.RETRY_SECONDS)


def _close_sockets(room: Room) -> None:
    for conn in list(room.connections):
        conn.close(1012)


def _fingerprint(game: Game, version: int, action_data: object) -> bytes | None:
    """The fingerprint of an incoming action message, None if its action is malformed (so it
    cannot be the retry of an action that was applied)."""
    try:
        wire = game.decode_action(action_data).data
    except WireError:
        return None
    return action_fingerprint(version, wire)


def default_action(game: Game, state: Any) -> Any:
    """The game's default for the seat out of time (from its own view); the first legal
    action if that ever fails, so a timer can never stall a match."""
    try:
        action = game.default_action(state)
        if action in game.legal_actions(state):
            return action
    except Exception:
        log.exception("default action of %s failed", game.id)
    return game.legal_actions(state)[0]
