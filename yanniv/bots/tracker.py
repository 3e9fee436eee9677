"""Card tracking for one seat, from what that seat receives (redacted events and views).

The view already lists the cards a seat knows in each hand and the visible discard; what it
forgets is *negative* information that public events reveal: a player who answered "no" to a
4 holds no card of that rank, and one who drew without playing under a 7 (or a 6) holds no
card of value ≤ 7 (or of the 6's colour). The tracker keeps those facts, relaxing each by one
card whenever the player receives a card the seat cannot see. It also keeps each opponent's
last plays and draws (`PastPlay`), from which `determinize` judges how likely a sampled hand
is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from yanniv.engine.cards import DECK, JACK, POWER_RANKS, Card
from yanniv.engine.events import (
    ConstraintSet,
    Drew,
    Event,
    FourAnswered,
    FourExchanged,
    KingSwapped,
    MancheStarted,
    Played,
    QueenDrew,
    QueenKept,
    YannivCalled,
    YannivChecked,
)
from yanniv.engine.view import MatchView


@dataclass(slots=True)
class Lacks:
    """`seat` held no card matching `label` when it was revealed; since then it received
    `slack` cards the tracking seat could not see (each may match)."""

    label: str
    test: Callable[[Card], bool]
    slack: int = 0


#: Plays kept per opponent.
HISTORY = 3


@dataclass(slots=True)
class PastPlay:
    """A free play of an opponent, kept to weigh sampled hands by how likely that player was
    to make it (`determinize`): its cards, the 6 or 7 it was played under, and the one card
    drawn after it (`source` None while none is, `card` None when drawn from the pile)."""

    cards: tuple[Card, ...]
    constraint: ConstraintSet | None
    #: The previous player's cards it could take instead of drawing from the pile (none
    #: when a Jack in the play widened the choice: those draws are not weighed).
    offered: tuple[Card, ...] = ()
    #: The player could have called YANNIV instead (no 7 on it, nobody had called): moyen
    #: calls at every chance, so its hand then held more than 5 points.
    could_call: bool = False
    #: "pile", "queen" (the pile through a Queen) or "discard".
    source: str | None = None
    card: Card | None = None


@dataclass(slots=True)
class Tracker:
    """Memory of one seat: build it empty, feed it every (redacted) event batch it receives."""

    seat: int
    lacks: dict[int, list[Lacks]] = field(default_factory=dict)
    #: The 6 or 7 announced for each seat, valid until that seat's next draw.
    _constraint: dict[int, ConstraintSet] = field(default_factory=dict)
    #: Each opponent's last free plays (oldest first), since its hand last changed otherwise
    #: than by playing and drawing once a turn.
    plays: dict[int, list[PastPlay]] = field(default_factory=dict)
    #: The newest packet put down (what the next player may take from).
    _table: tuple[Card, ...] = ()
    #: Who called YANNIV in the current manche, while the call stands.
    _caller: int | None = None

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
            self.plays.clear()
            self._table = (event.flipped,)
            self._caller = None
        elif kind is YannivCalled:
            assert isinstance(event, YannivCalled)
            self._caller = event.seat
        elif kind is YannivChecked:
            assert isinstance(event, YannivChecked)
            if not event.holds:
                self._caller = None
        elif kind is Played:
            assert isinstance(event, Played)
            constraint = self._constraint.pop(event.seat, None)
            self._played(event, constraint)
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
            if event.without_playing:
                self._table = ()
            if event.source == "pile":
                self._hidden_gain(event.seat)
            self._drew(event.seat, event.source, event.card)
        elif kind is FourAnswered:
            assert isinstance(event, FourAnswered)
            rank = event.rank
            if not event.given:
                self._add(event.seat, f"rank-{rank}", lambda c: c.rank == rank)
            else:
                self._forget(event.seat, event.asker)
                if event.card is None:
                    self._hidden_gain(event.asker)
        elif kind is FourExchanged:
            assert isinstance(event, FourExchanged)
            self._forget(event.seat, event.target)
            if event.card is None:
                self._hidden_gain(event.target)
        elif kind is KingSwapped:
            assert isinstance(event, KingSwapped)
            self._forget(event.seat, event.target)
            if event.given is None:
                self._hidden_gain(event.target)
                self._hidden_gain(event.seat)
        elif kind is QueenDrew:
            assert isinstance(event, QueenDrew)
            if event.count == 1:  # kept at once; with more, QueenKept follows
                self._drew(event.seat, "queen", None)
        elif kind is QueenKept:
            assert isinstance(event, QueenKept)
            self._hidden_gain(event.seat)
            self._drew(event.seat, "queen", None)

    def _played(self, event: Played, constraint: ConstraintSet | None) -> None:
        offered = self._table
        self._table = (*self._table, *event.cards) if event.at_once else event.cards
        if event.seat == self.seat:
            return
        history = self.plays.setdefault(event.seat, [])
        if not event.at_once:
            jack = any(card.rank == JACK for card in event.cards)
            offered = () if jack else tuple(c for c in offered if c.rank not in POWER_RANKS)
            could_call = self._caller is None and (
                constraint is None or constraint.kind != "seven"
            )
            history.append(PastPlay(event.cards, constraint, offered, could_call))
            del history[:-HISTORY]
        elif history and history[-1].source is not None:
            history[-1].source = history[-1].card = None  # drawn, then put down at once
        else:
            self._forget(event.seat)

    def _drew(self, seat: int, source: str, card: Card | None) -> None:
        history = self.plays.get(seat)
        if not history:
            return
        if history[-1].source is not None:
            self._forget(seat)  # a second draw since the play (drew without playing)
        else:
            history[-1].source, history[-1].card = source, card

    def _forget(self, *seats: int) -> None:
        for seat in seats:
            self.plays.pop(seat, None)


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
