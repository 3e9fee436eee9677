"""YANNIV's events: typed, frozen, produced by `apply`; redacted per recipient by the kit.

An event may carry cards that only some seats may see (`parties`); `redact(event, viewer)`
(`yanniv.kit.events`) returns the version a given viewer may receive, those cards blanked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from yanniv.games.yanniv.rules.cards import Card, Colour
from yanniv.kit.events import Event
from yanniv.kit.frozen import fast_init


@fast_init
@dataclass(frozen=True, slots=True)
class MancheStarted(Event):
    manche: int
    tiebreak: bool
    starter: int
    participants: tuple[int, ...]
    flipped: Card


@fast_init
@dataclass(frozen=True, slots=True)
class Misdeal(Event):
    """A dealt hand held three of a rank or a three-card run of one suit: the deal is redone."""

    seat: int
    manche: int


@fast_init
@dataclass(frozen=True, slots=True)
class Played(Event):
    seat: int
    cards: tuple[Card, ...]
    #: True for a card played at once, without effect (drawn card that matches, 4 received).
    at_once: bool = False


@fast_init
@dataclass(frozen=True, slots=True)
class YannivCalled(Event):
    seat: int


@fast_init
@dataclass(frozen=True, slots=True)
class YannivChecked(Event):
    """The turn came back to the caller: `holds` ends the manche, otherwise play goes on."""

    seat: int
    holds: bool


@fast_init
@dataclass(frozen=True, slots=True)
class Drew(Event):
    """A card drawn: from the pile (card seen by the drawer only) or from the discard (public)."""

    private: ClassVar[tuple[str, ...]] = ("card",)
    seat: int
    source: Literal["pile", "discard"]
    card: Card | None
    #: True when the seat drew without playing (no legal play under a 6 or a 7, or empty hand).
    without_playing: bool = False

    def parties(self) -> tuple[int, ...]:
        return (-1,) if self.source == "discard" else (self.seat,)


@fast_init
@dataclass(frozen=True, slots=True)
class PowerChosen(Event):
    seat: int
    rank: int


@fast_init
@dataclass(frozen=True, slots=True)
class ColourChosen(Event):
    seat: int
    colour: Colour


@fast_init
@dataclass(frozen=True, slots=True)
class QueenDrew(Event):
    seat: int
    count: int


@fast_init
@dataclass(frozen=True, slots=True)
class QueenKept(Event):
    """Kept card and the order put back are known to the Queen player only."""

    private: ClassVar[tuple[str, ...]] = ("kept", "returned")
    seat: int
    returned_count: int
    kept: Card | None
    returned: tuple[Card, ...] | None

    def parties(self) -> tuple[int, ...]:
        return (self.seat,)


@fast_init
@dataclass(frozen=True, slots=True)
class FourAsked(Event):
    seat: int
    target: int
    rank: int


@fast_init
@dataclass(frozen=True, slots=True)
class FourAnswered(Event):
    """Whether the target had the asked value is public; which card, only the two know."""

    private: ClassVar[tuple[str, ...]] = ("card",)
    seat: int
    asker: int
    rank: int
    given: bool
    card: Card | None

    def parties(self) -> tuple[int, ...]:
        return (self.seat, self.asker)


@fast_init
@dataclass(frozen=True, slots=True)
class FourExchanged(Event):
    private: ClassVar[tuple[str, ...]] = ("card",)
    seat: int
    target: int
    card: Card | None

    def parties(self) -> tuple[int, ...]:
        return (self.seat, self.target)


@fast_init
@dataclass(frozen=True, slots=True)
class KingSwapped(Event):
    private: ClassVar[tuple[str, ...]] = ("given", "taken")
    seat: int
    target: int
    given: Card | None
    taken: Card | None

    def parties(self) -> tuple[int, ...]:
        return (self.seat, self.target)


@fast_init
@dataclass(frozen=True, slots=True)
class PowerSkipped(Event):
    """A power of the turn's play not used: the player declined it (a 4, a King, a Jack or a
    Queen, when powers are optional; one event per declined use) or it could not be applied
    (a King with no card to give, a Jack with nothing left in reach). Public, no card."""

    seat: int
    rank: int
    reason: Literal["declined", "no_card", "nothing_to_take"] = "declined"


@fast_init
@dataclass(frozen=True, slots=True)
class DirectionChanged(Event):
    seat: int
    direction: int


@fast_init
@dataclass(frozen=True, slots=True)
class ConstraintSet(Event):
    """A 6 or a 7 binds the next player."""

    seat: int
    target: int
    kind: Literal["six", "seven"]
    colour: Colour | None


@fast_init
@dataclass(frozen=True, slots=True)
class PileReshuffled(Event):
    count: int


@fast_init
@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    seat: int


@fast_init
@dataclass(frozen=True, slots=True)
class MancheEnded(Event):
    manche: int
    tiebreak: bool
    caller: int | None
    hands: tuple[tuple[Card, ...], ...]
    points: tuple[int, ...]
    deltas: tuple[int, ...]
    winner: int | None
    tied: tuple[int, ...]
    totals: tuple[int, ...]
    #: The seats that played the manche (all, or the leaders in a tiebreak).
    participants: tuple[int, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    totals: tuple[int, ...]
    #: Seats from first to last.
    ranking: tuple[int, ...]

