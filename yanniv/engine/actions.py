"""Actions: small frozen value types, one per kind of decision a seat can take.

Which ones are legal depends on the state's pending decision; `legal_actions(state)` lists them
and `action in legal_actions(state)` is the membership test, as with python-chess moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from yanniv.engine.cards import Card, Colour


@dataclass(frozen=True, slots=True)
class Play:
    """Put a single card, a set or a run on the discard (cards sorted by rank, then suit)."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CallYanniv:
    """Instead of playing, announce YANNIV with a hand of 5 points or less."""


@dataclass(frozen=True, slots=True)
class DrawPile:
    """Draw the top card of the pile."""


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    """Take a card from the discard: the previous packet's non-power cards, or any card
    within the Jack's reach when a Jack was played."""

    card: Card


@dataclass(frozen=True, slots=True)
class UseQueen:
    """Queen power instead of a normal draw: draw one more card than Queens played."""


@dataclass(frozen=True, slots=True)
class QueenKeep:
    """Keep one of the cards drawn with the Queen; put the others back, `order[0]` on top."""

    keep: Card
    order: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class ChoosePower:
    """A run holding several different powers: choose the one rank whose power applies."""

    rank: int


@dataclass(frozen=True, slots=True)
class ChooseColour:
    """6s of both colours played together: choose the colour the next player must play."""

    colour: Colour


@dataclass(frozen=True, slots=True)
class PlayAtOnce:
    """Play at once, without effect, the drawn card (or the 4 received) that matches."""

    card: Card


@dataclass(frozen=True, slots=True)
class AskFour:
    """4 power: ask a value (a rank, never a suit) of another seat."""

    target: int
    rank: int


@dataclass(frozen=True, slots=True)
class GiveCard:
    """Hand a card over: the target of a 4 giving one of the asked rank, or the asker giving
    a card of their choice in exchange."""

    card: Card


@dataclass(frozen=True, slots=True)
class KingSwap:
    """King power: give `card` to `target`, then take one of the target's cards at random."""

    card: Card
    target: int


@dataclass(frozen=True, slots=True)
class Skip:
    """Decline an optional decision (a 4, a King, playing a card at once)."""


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
