"""Rooms' journals share equal events, the pool stays bounded, and a journal keeps exactly its
match's latest events whatever the pool forgets."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime

from yanniv.games import get_game
from yanniv.games.yanniv.rules.events import Drew, TurnStarted
from yanniv.server.rooms.room import JOURNAL_EVENTS, LiveMatch
from yanniv.server.rooms.room_settings import settings_model
from yanniv.server.rooms.shared_events import EventPool


def _match() -> LiveMatch:
    return LiveMatch(id=1, seed="s", config=None, state=None, rules_version="1",
                     pseudos=[], started_at=datetime.now(UTC))


def test_equal_events_of_two_rooms_are_one_object() -> None:
    first, second = _match(), _match()
    first.remember([TurnStarted(seat=2)])
    second.remember([TurnStarted(seat=2), TurnStarted(seat=3)])
    assert first.journal[0] is second.journal[0]
    assert second.journal[1] == TurnStarted(seat=3)
    assert second.journal[1] is not first.journal[0]


@dataclass
class _Unhashable:
    cards: list[str]


def test_the_pool_is_bounded_and_keeps_unhashable_events_as_they_are() -> None:
    pool = EventPool(limit=10)
    events = [TurnStarted(seat=n) for n in range(100)]
    shared = pool.share(events)
    assert shared == tuple(events)
    assert len(pool) <= 20
    again = TurnStarted(seat=99)  # still young: shared
    assert pool.share([again])[0] is shared[99]
    old = TurnStarted(seat=0)  # two generations ago: forgotten, a new object is kept
    assert pool.share([old])[0] is old
    odd = _Unhashable(["AS"])
    assert pool.share([odd])[0] is odd


def test_a_journal_is_the_latest_events_of_a_whole_match_in_order() -> None:
    """Played through a real match, the journal equals an independent tail of every event."""
    game = get_game("yanniv")
    settings = settings_model(game)(game="yanniv", manches=2)
    state, events = game.new_match(game.match_config(settings, 4, 0), "shared-events")
    match, everything = _match(), list(events)
    match.remember(events)
    rng = random.Random(7)
    while not game.is_over(state):
        state, events = game.apply(state, rng.choice(game.legal_actions(state)))
        everything.extend(events)
        match.remember(events)
        assert list(match.journal) == everything[-JOURNAL_EVENTS:]
    assert len(everything) > JOURNAL_EVENTS
    drew = [e for e in match.journal if isinstance(e, Drew)]
    assert drew, "draws are in the journal as the engine made them"
