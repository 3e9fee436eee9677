"""Equal events of all rooms kept as one object, for the rooms' journals.

A room keeps its match's latest events (`room.JOURNAL_EVENTS`) for the sockets that connect
later. Most of them are equal from one room to the next (a turn starting at seat 2, the draw
of the Jack of spades from the pile, the play of one 7 by seat 0): over 300 random matches,
48,000 journal entries held 4,365 distinct events. Events are immutable values, so a room
may hold the one copy every other room holds; at the end of a match its journal then costs
its references, not ~13 KB of its own objects.

The pool is bounded by two generations of `GENERATION` events each: a new event goes into
the young one; when it is full, the old one is dropped and the young one becomes old. An
event met again in either is shared and stays young; one that is not (a manche's scores) is
forgotten after two generations, while the journals that hold it keep it alive as long as
they need it. Events that cannot be hashed are kept as they are.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

#: Events a generation holds: with two, the pool is at most ~1.5 MB of dict slots and
#: events, which the journals of a few hundred rooms save (~10 KB a room).
GENERATION = 4096


class EventPool:
    """Interns events (`share`); one per process (`POOL`), used by the event loop."""

    __slots__ = ("_limit", "_old", "_young")

    def __init__(self, limit: int = GENERATION) -> None:
        self._young: dict[Any, Any] = {}
        self._old: dict[Any, Any] = {}
        self._limit = limit

    def share(self, events: Iterable[Any]) -> tuple[Any, ...]:
        """`events` with each one replaced by an equal event already in the pool, if any."""
        return tuple(self._one(event) for event in events)

    def _one(self, event: Any) -> Any:
        young = self._young
        try:
            found = young.get(event)
        except TypeError:  # unhashable: not shared
            return event
        if found is not None:
            return found
        found = self._old.get(event, event)
        if len(young) >= self._limit:
            self._old = young
            self._young = young = {}
        young[found] = found
        return found

    def __len__(self) -> int:
        return len(self._young) + len(self._old)


POOL = EventPool()
