"""Classic Yaniv's values: match config, actions, events, state and per-seat view.

All frozen (the state is copied on every `apply`, never changed afterwards), all plain data
the codec writes field by field.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import ClassVar, Literal

from yanniv.games.yaniv.rules.cards import YCard
from yanniv.kit.events import Event

#: Seats a match may have, and the cards each is dealt.
MIN_SEATS, MAX_SEATS, HAND_SIZE = 2, 8, 7
#: Two decks may be chosen from this many seats, and are always used from `TWO_DECKS_ALWAYS`
#: (8 hands of 7 and a flipped card need 57 cards).
TWO_DECKS_FROM, TWO_DECKS_ALWAYS = 5, 8
#: The losing threshold's default (the rule book's 200) and the lowest a host may set.
THRESHOLD, MIN_THRESHOLD = 200, 50
ASSAF_PENALTY = 30
ACE_BONUS, JOKER_BONUS = -20, -50
#: Exact totals brought down at the end of a manche: 100 → 50, 200 → 100.
LANDINGS = {100: 50, 200: 100}

DecisionKind = Literal["turn", "draw"]


@dataclass(frozen=True, slots=True)
class YanivConfig:
    """What a match is played under (stored with it)."""

    seats: int = 4
    decks: int = 1
    threshold: int = THRESHOLD
    #: True: seats over the threshold leave and the last one in wins; False: the match ends
    #: when a seat goes over and the lowest total wins.
    elimination: bool = False
    first_player: int | None = None

    def __post_init__(self) -> None:
        if not MIN_SEATS <= self.seats <= MAX_SEATS:
            raise ValueError(f"a match has {MIN_SEATS} to {MAX_SEATS} seats")
        if self.decks not in (1, 2) or (self.decks == 1 and self.seats >= TWO_DECKS_ALWAYS):
            raise ValueError("1 deck up to 7 seats, 2 decks from 5")
        if self.decks == 2 and self.seats < TWO_DECKS_FROM:
            raise ValueError(f"two decks only from {TWO_DECKS_FROM} seats")
        if not MIN_THRESHOLD <= self.threshold <= THRESHOLD:
            raise ValueError(f"the threshold goes from {MIN_THRESHOLD} to {THRESHOLD}")
        if self.first_player is not None and not 0 <= self.first_player < self.seats:
            raise ValueError("first_player must be a seat index")


# ---------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class Play:
    """Put down a single card, a set or a run, in the order laid (see `combos`)."""

    cards: tuple[YCard, ...]


@dataclass(frozen=True, slots=True)
class CallYaniv:
    """Instead of playing: reveal a hand of 7 points or less."""


@dataclass(frozen=True, slots=True)
class DrawPile:
    """Draw the top card of the pile."""


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    """Take a card at an end of what the previous seat put down."""

    card: YCard


Action = Play | CallYaniv | DrawPile | TakeDiscard
ACTION_TYPES: dict[str, type] = {c.__name__: c for c in (Play, CallYaniv, DrawPile, TakeDiscard)}


# ---------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class MancheStarted(Event):
    manche: int
    tiebreak: bool
    dealer: int
    starter: int
    participants: tuple[int, ...]
    flipped: YCard


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class Played(Event):
    seat: int
    cards: tuple[YCard, ...]


@dataclass(frozen=True, slots=True)
class PileReshuffled(Event):
    """The pile ran out: the discard but the two newest packets, shuffled, is the pile."""

    count: int


@dataclass(frozen=True, slots=True)
class Drew(Event):
    """A card drawn: from the pile (seen by the drawer only) or the discard (public)."""

    private: ClassVar[tuple[str, ...]] = ("card",)
    seat: int
    source: Literal["pile", "discard"]
    card: YCard | None

    def parties(self) -> tuple[int, ...]:
        return (-1,) if self.source == "discard" else (self.seat,)


@dataclass(frozen=True, slots=True)
class YanivCalled(Event):
    seat: int
    points: int


@dataclass(frozen=True, slots=True)
class MancheEnded(Event):
    """The reveal: every hand of the manche, its points and the score changes."""

    manche: int
    tiebreak: bool
    caller: int
    assaf: bool
    winner: int
    participants: tuple[int, ...]
    hands: tuple[tuple[YCard, ...], ...]
    points: tuple[int, ...]
    deltas: tuple[int, ...]
    #: Seats whose total landed on exactly 100 or 200 and was brought down.
    brought_down: tuple[int, ...]
    #: Seats that left the match (elimination mode) at this manche.
    eliminated: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    totals: tuple[int, ...]
    ranking: tuple[int, ...]


def event_classes() -> tuple[type, ...]:
    return (MancheStarted, TurnStarted, Played, PileReshuffled, Drew, YanivCalled,
            MancheEnded, MatchEnded)


# ---------------------------------------------------------------- state


@dataclass(frozen=True, slots=True)
class Packet:
    """Cards put down in one turn, as laid; `seat` None for the card flipped at the deal."""

    seat: int | None
    cards: tuple[YCard, ...]


@dataclass(frozen=True, slots=True)
class Pending:
    kind: DecisionKind
    seat: int


MancheResult = MancheEnded


@dataclass(frozen=True, slots=True)
class YanivState:
    """Everything about a match; `apply` returns a new one."""

    config: YanivConfig
    seed: str
    step: int
    manche: int
    tiebreak: bool
    #: Seats dealt in this manche (all but the eliminated, or the tied leaders).
    participants: tuple[int, ...]
    #: Seats still in the match (elimination mode drops those over the threshold).
    in_match: tuple[bool, ...]
    #: The manche at which each seat left the match (0: still in).
    left_at: tuple[int, ...]
    dealer: int
    starter: int
    hands: tuple[tuple[YCard, ...], ...]
    #: The pile, top card last.
    pile: tuple[YCard, ...]
    #: The discard, oldest packet first.
    discard: tuple[Packet, ...]
    #: Index in `discard` of the packet the seat to draw may take from (the previous seat's).
    offer: int | None
    pending: Pending | None
    scores: tuple[int, ...]
    history: tuple[MancheResult, ...]
    #: known[owner]: the cards everybody knows in that hand (taken from the discard).
    known: tuple[frozenset[YCard], ...]
    finished: bool
    ranking: tuple[int, ...]

    @property
    def to_act(self) -> int | None:
        return None if self.pending is None else self.pending.seat

    def evolve(self, **changes: object) -> YanivState:
        return replace(self, **changes)  # type: ignore[arg-type]


# ---------------------------------------------------------------- view


@dataclass(frozen=True, slots=True)
class PlayerView:
    seat: int
    in_match: bool
    dealt: bool
    card_count: int
    score: int
    #: Cards the viewer knows in this hand (its own seat: its whole hand).
    known_cards: tuple[YCard, ...]


@dataclass(frozen=True, slots=True)
class MatchView:
    viewer: int | None
    seats: int
    decks: int
    threshold: int
    elimination: bool
    manche: int
    tiebreak: bool
    step: int
    dealer: int
    starter: int
    hand: tuple[YCard, ...] | None
    hand_value: int | None
    players: tuple[PlayerView, ...]
    pile_count: int
    discard: tuple[Packet, ...]
    #: Index in `discard` of the packet the seat to draw may take an end of.
    offer: int | None
    #: The cards at the ends of that packet (public).
    takeable: tuple[YCard, ...]
    pending: Pending | None
    legal_actions: tuple[Action, ...]
    scores: tuple[int, ...]
    history: tuple[MancheResult, ...]
    finished: bool
    ranking: tuple[int, ...]


def dataclass_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))
