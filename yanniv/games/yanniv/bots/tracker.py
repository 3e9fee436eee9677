"""Card tracking for one seat, from what that seat receives (redacted events and views).

The view already lists the cards a seat knows in each hand and the visible discard; what it
forgets is *negative* information that public events reveal: a player who answered "no" to a
4 holds no card of that rank, and one who drew without playing under a 7 (or a 6) holds no
card of value ≤ 7 (or of the 6's colour). The tracker keeps those facts, relaxing each by one
card whenever the player receives a card the seat cannot see.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from yanniv.games.yanniv.rules.cards import DECK, Card
from yanniv.games.yanniv.rules.events import (
    ConstraintSet,
    Drew,
    Event,
    FourAnswered,
    FourExchanged,
    KingSwapped,
    MancheStarted,
    Played,
    QueenKept,
)
from yanniv.games.yanniv.rules.view import MatchView


@dataclass(slots=True)
class Lacks:
    """`seat` held no card matching `label` when it was revealed; since then it received
    `slack` cards the tracking seat could not see (each may match)."""

    label: str
    test: Callable[[Card], bool]
    slack: int = 0


@dataclass(slots=True)
class Tracker:
    """Memory of one seat: build it empty, feed it every (redacted) event batch it receives."""

    seat: int
    lacks: dict[int, list[Lacks]] = field(default_factory=dict)
    #: The 6 or 7 announced for each seat, valid until that seat's next draw.
    _constraint: dict[int, ConstraintSet] = field(default_factory=dict)

    def observe(self, events: Iterable[Event]) -> None:
        """Update from the events this seat may see (already redacted for it)."""
        for event in events:
            self._one(event)

    def _hidden_gain(self, seat: int) -> None:
        if seat == self.seat:
            return
        for fact in self.lacks.get(seat, ()):
            fact.slack += 1
        self.lacks[seat] = [f for f in self.lacks.get(seat, []) if f.slack <= 1]

    def _add(self, seat: int, label: str, test: Callable[[Card], bool]) -> None:
        if seat != self.seat:
            self.lacks.setdefault(seat, []).append(Lacks(label, test))

    def _one(self, event: Event) -> None:
        kind = type(event)
        if kind is MancheStarted:
            self.lacks.clear()
            self._constraint.clear()
        elif kind is Played:
            assert isinstance(event, Played)
            self._constraint.pop(event.seat, None)
        elif kind is ConstraintSet:
            assert isinstance(event, ConstraintSet)
            self._constraint[event.target] = event
        elif kind is Drew:
            assert isinstance(event, Drew)
            constraint = self._constraint.pop(event.seat, None)
            if event.without_playing and constraint is not None:
                if constraint.kind == "seven":
                    self._add(event.seat, "seven", lambda c: c.value <= 7)
                else:
                    colour = constraint.colour
                    self._add(event.seat, f"six-{colour}", lambda c: c.colour == colour)
            if event.source == "pile":
                self._hidden_gain(event.seat)
        elif kind is FourAnswered:
            assert isinstance(event, FourAnswered)
            rank = event.rank
            if not event.given:
                self._add(event.seat, f"rank-{rank}", lambda c: c.rank == rank)
            elif event.card is None:
                self._hidden_gain(event.asker)
        elif kind is FourExchanged:
            assert isinstance(event, FourExchanged)
            if event.card is None:
                self._hidden_gain(event.target)
        elif kind is KingSwapped:
            assert isinstance(event, KingSwapped)
            if event.given is None:
                self._hidden_gain(event.target)
                self._hidden_gain(event.seat)
        elif kind is QueenKept:
            assert isinstance(event, QueenKept)
            self._hidden_gain(event.seat)


def unseen_cards(v: MatchView) -> list[Card]:
    """Cards whose place this seat does not know: in an opponent's unknown cards or the pile."""
    seen: set[Card] = set(v.hand or ())
    for player in v.players:
        seen.update(player.known_cards)
    for packet in v.discard:
        seen.update(packet.cards)
    seen.update(v.pile_known)
    if v.pending is not None and v.pending.seat == v.viewer:
        seen.update(v.pending.cards)  # Queen's drawn cards: out of the pile, not yet kept
    return [card for card in DECK if card not in seen]


def unknown_counts(v: MatchView) -> dict[int, int]:
    """How many cards of each active opponent this seat does not know."""
    return {
        p.seat: p.card_count - len(p.known_cards)
        for p in v.players
        if p.seat != v.viewer and p.active
    }
