"""Actions: small frozen value types, one per kind of decision a seat can take.

Which ones are legal depends on the state's pending decision; `legal_actions(state)` lists them
and `action in legal_actions(state)` is the membership test, as with python-chess moves.

Every well-formed action (a canonical combination, a real card, a seat index, a rank) exists
once: the constructor returns the one object built at import, so equality and hashing are
identity, done in C. Membership tests run for every action applied and in every bot decision,
and a Python-level `__eq__` made them the engine's largest single cost. A malformed action
(an unsorted or impossible combination, seat 7, rank 0) is a fresh object equal only to itself:
never legal, and the tables never grow, whatever a client sends. `QueenKeep` (up to 5! orders
of drawn cards) keeps ordinary value equality.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Any, Literal, TypeVar

from yanniv.games.yanniv.rules.cards import DECK, Card, Colour, card_key
from yanniv.games.yanniv.rules.combos import all_combinations
from yanniv.games.yanniv.rules.ruleset import ENGINE_MAX_SEATS

T = TypeVar("T")
#: Interned actions name seats up to the engine's limit (a ruleset may allow fewer).
MAX_SEATS = ENGINE_MAX_SEATS
RANKS = range(1, 14)
COLOURS: tuple[Colour, ...] = ("red", "black")


def _fresh(cls: type, **values: Any) -> Any:
    """An object of a frozen action class with these fields, bypassing the intern tables."""
    obj = object.__new__(cls)
    for name, value in values.items():
        object.__setattr__(obj, name, value)
    return obj


def _interned(cls: type[T]) -> type[T]:
    """Copy and pickle an interned action through its constructor, so the copy is the very
    object of this process's table (a malformed one gives a fresh object with its fields)."""

    def __reduce__(self: Any) -> tuple:
        return (type(self), tuple(getattr(self, name) for name in self.__match_args__))

    cls.__reduce__ = __reduce__  # type: ignore[method-assign,assignment]
    return cls


def _lookup(table: dict, key: Any) -> Any:
    try:
        return table.get(key)
    except TypeError:  # unhashable (a list of cards from a careless caller)
        return None


@_interned
@dataclass(frozen=True, slots=True, eq=False, init=False)
class Play:
    """Put a single card, a set or a run on the discard. The cards may come in any order:
    `cards` holds them canonically (sorted by rank, then suit), so `Play((5♠, 4♠, 3♠))` is
    the very `Play((3♠, 4♠, 5♠))` that `legal_actions` lists."""

    cards: tuple[Card, ...]

    def __new__(cls, cards: tuple[Card, ...]) -> Play:
        found = _lookup(_PLAYS, cards)
        if found is None:  # maybe a list, another order, or another sequence of the cards
            cards = tuple(cards)
            found = _PLAYS.get(cards)
            if found is None and all(isinstance(card, Card) for card in cards):
                cards = tuple(sorted(cards, key=card_key))
                found = _PLAYS.get(cards)
        return found if found is not None else _fresh(cls, cards=cards)


@_interned
@dataclass(frozen=True, slots=True, eq=False, init=False)
class CallYanniv:
    """Instead of playing, announce YANNIV with a hand of 5 points or less."""

    def __new__(cls) -> CallYanniv:
        return _SINGLETONS[cls]


@_interned
@dataclass(frozen=True, slots=True, eq=False, init=False)
class DrawPile:
    """Draw the top card of the pile."""

    def __new__(cls) -> DrawPile:
        return _SINGLETONS[cls]


@_interned
@dataclass(frozen=True, slots=True, eq=False, init=False)
class TakeDiscard:
    """Take a card from the discard: the previous packet's non-power cards, or any card
    within the Jack's reach when a Jack was played."""

    card: Card

    def __new__(cls, card: Card) -> TakeDiscard:
        found = _lookup(_TAKES, card)
        return found if found is not None else _fresh(cls, card=card)


@_interned
@dataclass(frozen=True, slots=True, eq=False, init=False)
class UseQueen:
    """Queen power instead of a normal draw: draw one more card than Queens played."""

    def __new__(cls) -> UseQueen:
        return _SINGLETONS[cls]


@dataclass(frozen=True, slots=True)
class QueenKeep:
    """Keep one of the cards drawn with the Queen; put the others back, `order[0]` on top."""

    keep: Card
    order: tuple[Card, ...]


@_interned
@dataclass(frozen=True, slots=True, eq=False, init=False)
class ChoosePower:
    """A run holding several different powers: choose the one rank whose power applies."""

    rank: int

    def __new__(cls, rank: int) -> ChoosePower:
        found = _lookup(_POWERS, rank)
        return found if found is not None else _fresh(cls, rank=rank)


@_interned
@dataclass(frozen=True, slots=True, eq=False, init=False)
class ChooseColour:
    """6s of both colours played together: choose the colour the next player must play."""

    colour: Colour

    def __new__(cls, colour: Colour) -> ChooseColour:
        found = _lookup(_COLOURS, colour)
        return found if found is not None else _fresh(cls, colour=colour)


@_interned
@dataclass(frozen=True, slots=True, eq=False, init=False)
class PlayAtOnce:
    """Play at once, without effect, the drawn card (or the 4 received) that matches."""

    card: Card

    def __new__(cls, card: Card) -> PlayAtOnce:
        found = _lookup(_AT_ONCE, card)
        return found if found is not None else _fresh(cls, card=card)


@_interned
@dataclass(frozen=True, slots=True, eq=False, init=False)
class AskFour:
    """4 power: ask a value (a rank, never a suit) of another seat."""

    target: int
    rank: int

    def __new__(cls, target: int, rank: int) -> AskFour:
        found = _lookup(_ASKS, (target, rank))
        return found if found is not None else _fresh(cls, target=target, rank=rank)


@_interned
@dataclass(frozen=True, slots=True, eq=False, init=False)
class GiveCard:
    """Hand a card over: the target of a 4 giving one of the asked rank, or the asker giving
    a card of their choice in exchange."""

    card: Card

    def __new__(cls, card: Card) -> GiveCard:
        found = _lookup(_GIVES, card)
        return found if found is not None else _fresh(cls, card=card)


@_interned
@dataclass(frozen=True, slots=True, eq=False, init=False)
class KingSwap:
    """King power: give `card` to `target`, then take one of the target's cards at random."""

    card: Card
    target: int

    def __new__(cls, card: Card, target: int) -> KingSwap:
        found = _lookup(_SWAPS, (card, target))
        return found if found is not None else _fresh(cls, card=card, target=target)


@_interned
@dataclass(frozen=True, slots=True, eq=False, init=False)
class Skip:
    """Decline an optional decision: one use of a 4 or a King (when powers are not
    mandatory), or playing a card at once."""

    def __new__(cls) -> Skip:
        return _SINGLETONS[cls]


Action = (
    Play
    | CallYanniv
    | DrawPile
    | TakeDiscard
    | UseQueen
    | QueenKeep
    | ChoosePower
    | ChooseColour
    | PlayAtOnce
    | AskFour
    | GiveCard
    | KingSwap
    | Skip
)

ACTION_TYPES: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        Play, CallYanniv, DrawPile, TakeDiscard, UseQueen, QueenKeep, ChoosePower,
        ChooseColour, PlayAtOnce, AskFour, GiveCard, KingSwap, Skip,
    )
}

_SINGLETONS: dict[type, Any] = {cls: _fresh(cls) for cls in (CallYanniv, DrawPile, UseQueen, Skip)}
_PLAYS = {cards: _fresh(Play, cards=cards) for cards in all_combinations(DECK)}
_TAKES = {card: _fresh(TakeDiscard, card=card) for card in DECK}
_AT_ONCE = {card: _fresh(PlayAtOnce, card=card) for card in DECK}
_GIVES = {card: _fresh(GiveCard, card=card) for card in DECK}
_POWERS = {rank: _fresh(ChoosePower, rank=rank) for rank in RANKS}
_COLOURS = {colour: _fresh(ChooseColour, colour=colour) for colour in COLOURS}
_ASKS = {
    (target, rank): _fresh(AskFour, target=target, rank=rank)
    for target, rank in product(range(MAX_SEATS), RANKS)
}
_SWAPS = {
    (card, target): _fresh(KingSwap, card=card, target=target)
    for card, target in product(DECK, range(MAX_SEATS))
}

#: The kinds of pending decision; the name tells the client which prompt to show.
DecisionKind = Literal[
    "turn",  # play a combination, or call YANNIV; or draw without playing if no play is legal
    "choose_power",  # a run with several powers
    "choose_colour",  # 6s of both colours
    "draw",  # draw from the pile or take from the discard (Jack/Queen widen the choice)
    "play_drawn",  # the drawn card matches: play it at once, or Skip
    "queen_keep",  # keep one card drawn with the Queen, order the rest
    "four_ask",  # ask a value of a player (or Skip)
    "four_give",  # the 4's target chooses which card of the asked rank to give
    "four_exchange",  # the asker gives a card of their choice in exchange
    "four_play_received",  # a 4 received through a 4: play it at once, or Skip
    "king",  # give a card to a player and take one at random (or Skip)
]

#: Engine-internal constructors for well-formed actions: plain dict lookups, no Python call.
play_of = _PLAYS.__getitem__
take_of = _TAKES.__getitem__
give_of = _GIVES.__getitem__
swap_of = _SWAPS.__getitem__
ask_of = _ASKS.__getitem__
