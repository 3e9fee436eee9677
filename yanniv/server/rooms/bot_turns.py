"""Computer players in rooms: their names, their memory, and the paced decision of a bot seat.

A bot is just another seat. When `state.to_act` is a bot seat, `BotTurns.schedule` waits a
human-like delay (an asyncio timer: an idle room costs nothing), decides from that seat's
`view` alone in a worker thread (`difficile` searches for up to ~200 ms; the event loop must
not wait for it), then hands the action to `Rooms`, which applies it exactly as a human's.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any

from yanniv.profiles.identity import pseudo_key
from yanniv.server.rooms.pseudos import bot_name
from yanniv.server.rooms.timers import RoomAlarms

if TYPE_CHECKING:
    from yanniv.server.rooms.room import Room, Seat

log = logging.getLogger(__name__)

#: Seconds before a failed bot move (database trouble) is tried again.
RETRY_SECONDS = 2.0

#: (room, seat, room version decided on, action) → applied or refused by the room.
PlayFn = Callable[["Room", "Seat", int, Any], Awaitable[None]]


def bot_pseudo(level: str, taken: Iterable[str]) -> str:
    """"Ordinateur (moyen)", then "Ordinateur 2 (moyen)", …: distinct within the room (people
    cannot take such names: `pseudos.is_bot_name`)."""
    used = {pseudo_key(p) for p in taken}
    number = 1
    while True:
        name = bot_name(level, number)
        if pseudo_key(name) not in used:
            return name
        number += 1


def new_memories(room: Room, seed: str, events: Iterable[Any]) -> None:
    """Fresh memory for every bot seat at the start of a match, fed the deal's events."""
    for seat in room.bot_seats():
        assert seat.bot_level is not None
        seat.bot = room.game.make_bot(seat.bot_level, seat.seat, seed)
    observe(room, events)


def observe(room: Room, events: Iterable[Any]) -> None:
    """Each bot remembers the change as its own seat received it (redacted, like a human)."""
    bots = [s for s in room.seats if s.bot is not None and s.is_bot]
    if not bots:
        return
    events = tuple(events)
    for seat in bots:
        assert seat.bot is not None
        seat.bot.observe([room.game.redact(event, seat.seat) for event in events])


class BotTurns(RoomAlarms):
    """At most one pending bot decision per room, re-armed after every change of the room."""

    def __init__(self, play: PlayFn, delay_scale: float = 1.0) -> None:
        super().__init__()
        self.play = play
        self.delay_scale = delay_scale

    def schedule(self, room: Room, delay: float | None = None) -> None:
        """If a bot seat must decide now, decide after a human-like delay; else do nothing."""
        self.cancel(room)
        match = room.match
        game = room.game
        if room.status != "playing" or match is None or game.is_over(match.state):
            return
        to_act = game.to_act(match.state)
        seat = None if to_act is None else room.seat_at(to_act)
        if seat is None or not seat.is_bot:
            return
        seen = game.view(match.state, seat.seat)  # what a person in this seat would be sent
        if delay is None:
            delay = game.bot_delay(seen, None) * self.delay_scale
        version = room.version
        self._set(room, delay, lambda: self._decide(room, seat, seen, version))

    async def _decide(self, room: Room, seat: Seat, seen: object, version: int) -> None:
        assert seat.bot_level is not None
        try:
            action = await asyncio.to_thread(room.game.bot_decide, seat.bot, seen)
        except Exception:  # a bot bug must not stall the room: its first legal action
            log.exception("room %s: bot of seat %d failed to decide", room.code, seat.seat)
            assert room.match is not None
            action = room.game.legal_actions(room.match.state)[0]
        await self.play(room, seat, version, action)
