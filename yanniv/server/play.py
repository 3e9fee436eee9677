"""Play: a seat's action, the deadline that plays for a seat out of time, a bot's move.

All three end in `commit_action`, one `change_room` that logs the action (and, on the last one,
the finished match) before the state moves on; a person is acknowledged only then. The timers
and the bots' turns are re-armed after every change of a room (`arm`), by this module and by
the lobby (start, rematch).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from yanniv.db.session import Database
from yanniv.engine import IllegalActionError, MatchState, apply, legal_actions
from yanniv.engine.actions import Action
from yanniv.engine.events import Event
from yanniv.server import bots
from yanniv.server.bots import BotTurns
from yanniv.server.changes import change_room, utcnow
from yanniv.server.connections import Connection
from yanniv.server.errors import GameError, game_error, wire_detail
from yanniv.server.protocol import AckOut, outgoing
from yanniv.server.results import finished_match
from yanniv.server.room import LiveMatch, Room, Seat, action_fingerprint
from yanniv.server.settings import Settings
from yanniv.server.store import RoomStore
from yanniv.server.timers import Timers, now_ms
from yanniv.wire import WireError, action_from_wire, action_to_wire

log = logging.getLogger(__name__)


class Play:
    """Actions on the rooms of `rooms` (shared with the registry), and their clocks."""

    def __init__(self, db: Database, store: RoomStore, rooms: dict[str, Room],
                 settings: Settings) -> None:
        self.db = db
        self.store = store
        self.rooms = rooms
        self.settings = settings
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

    # ------------------------------------------------------------ a person's action

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
            await self.commit_action(
                room, match, new_state, events, action, seat.seat, client_id,
                ack=lambda: reply.send(outgoing(AckOut, id=client_id, version=room.version)),
            )

    async def commit_action(self, room: Room, match: LiveMatch, new_state: MatchState,
                            events: tuple[Event, ...], action: Action, seat: int,
                            client_id: str | None, by_timer: bool | None = None,
                            ack: Callable[[], None] | None = None) -> None:
        """Log the action (and the end of the match), then make it the live state and
        broadcast it. `client_id` is None for the timer and for bots (`by_timer` tells them
        apart). Raises `server_error` if the write failed: then nothing changed."""
        finished_at = utcnow() if new_state.finished else None
        deadline = self.deadline(room, new_state.finished)
        wire = action_to_wire(action)
        version = room.version + 1
        step = match.state.step
        record = (finished_match(room, match, new_state, [*match.log, wire], finished_at)
                  if finished_at else None)

        def write(snapshot: dict[str, Any]) -> None:
            row = {
                "step": step, "seat": seat, "version": version, "action": wire,
                "client_id": client_id,
                "by_timer": client_id is None if by_timer is None else by_timer,
                "created_at": snapshot["updated_at"],
            }
            self.store.append_action(snapshot, match.id, row, deadline, record)

        def commit(_: None) -> None:
            match.state = new_state
            match.log.append(wire)
            match.deadline_ms = deadline
            if client_id is not None:
                match.seen[(seat, client_id)] = (version, action_fingerprint(version - 1, wire))
            bots.observe(room, events)
            self.arm(room)

        await change_room(
            self.db, room, write, commit, what=f"step {step}", events=events, ack=ack,
            status="finished" if new_state.finished else room.status,
        )

    # ------------------------------------------------------------ out of time

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
                await self.commit_action(room, match, new_state, events, action, seat, None)
            except GameError:
                match.deadline_ms = now_ms() + 2000  # database trouble: try again shortly
                self.timers.arm(room)

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
                await self.commit_action(room, match, new_state, events, action, seat.seat,
                                         None, by_timer=False)
            except GameError:  # database trouble: the bot tries again shortly
                self.bot_turns.schedule(room, bots.RETRY_SECONDS)


def _fingerprint(version: int, action_data: object) -> bytes | None:
    """The fingerprint of an incoming action message, None if its action is malformed (so it
    cannot be the retry of an action that was applied)."""
    try:
        wire = action_to_wire(action_from_wire(action_data))
    except WireError:
        return None
    return action_fingerprint(version, wire)


def default_action(state: MatchState) -> Action:
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
