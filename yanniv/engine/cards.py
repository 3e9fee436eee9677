"""Cards of the 52-card deck as interned value objects.

Cards are created once (`DECK`) and compared by (rank, suit); `Card.parse("TH")` and
`card.code` convert to and from the two-character code used on the wire and in tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter
from typing import Literal

from yanniv.engine.ruleset import YANNIV

Suit = Literal["S", "H", "D", "C"]
Colour = Literal["red", "black"]

SUITS: tuple[Suit, ...] = ("S", "H", "D", "C")
RANK_CODES = "A23456789TJQK"
RANK_NAMES_FR = {
    1: "As", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
    11: "Valet", 12: "Dame", 13: "Roi",
}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

ACE, JACK, QUEEN, KING = 1, 11, 12, 13
_INTERNED: dict[tuple[int, str], Card] = {}
#: Ranks that carry a power (★) under the YANNIV rule set: `Card.is_power` is precomputed
#: from it for the tools that show cards; the rules read `state.config.rules.power_ranks`.
POWER_RANKS = YANNIV.power_ranks


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card: rank 1 (Ace) to 13 (King) and a suit letter.

    The 52 cards are interned: `Card(4, "H")` returns the one 4♥ object, so equality and
    hashing are identity (done in C), which matters because hands are compared, sorted and
    hashed on every action. Ordering goes through the precomputed rank-major `key`.
    """

    rank: int
    suit: Suit
    key: int = field(init=False, repr=False)
    #: Points in hand: Ace 1, 2-10 face value, figures 10.
    value: int = field(init=False, repr=False)
    colour: Colour = field(init=False, repr=False)
    is_power: bool = field(init=False, repr=False)
    code: str = field(init=False, repr=False)

    def __new__(cls, rank: int, suit: Suit) -> Card:
        interned = _INTERNED.get((rank, suit))
        if interned is not None:
            return interned
        if not 1 <= rank <= 13 or suit not in SUITS:
            raise ValueError(f"no such card: rank {rank!r}, suit {suit!r}")
        card = object.__new__(cls)
        _INTERNED[(rank, suit)] = card
        return card

    def __post_init__(self) -> None:
        # Precomputed once per card (there are 52): read on every action, so plain slots
        # rather than properties.
        set_ = object.__setattr__
        set_(self, "key", self.rank * 4 + SUITS.index(self.suit))
        set_(self, "value", self.rank if self.rank < 10 else 10)
        set_(self, "colour", "red" if self.suit in ("H", "D") else "black")
        set_(self, "is_power", self.rank in POWER_RANKS)
        set_(self, "code", RANK_CODES[self.rank - 1] + self.suit)

    def __reduce__(self) -> tuple:
        return (Card, (self.rank, self.suit))

    def __lt__(self, other: Card) -> bool:
        return self.key < other.key

    def __le__(self, other: Card) -> bool:
        return self.key <= other.key

    def __gt__(self, other: Card) -> bool:
        return self.key > other.key

    def __ge__(self, other: Card) -> bool:
        return self.key >= other.key

    @property
    def label_fr(self) -> str:
        return f"{RANK_NAMES_FR[self.rank]}{SUIT_SYMBOLS[self.suit]}"

    @staticmethod
    def parse(code: str) -> Card:
        """`"AS"`, `"TH"`, `"10H"`, `"qd"` → the interned card; ValueError otherwise."""
        text = code.strip().upper()
        if text.startswith("10"):
            text = "T" + text[2:]
        if len(text) != 2 or text[0] not in RANK_CODES or text[1] not in SUITS:
            raise ValueError(f"not a card code: {code!r}")
        return _BY_CODE[text]

    def __repr__(self) -> str:
        return self.code


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))
_BY_CODE = {card.code: card for card in DECK}


def cards(codes: str) -> tuple[Card, ...]:
    """Parse space-separated codes, a test and REPL convenience: `cards("AS 2S 3S")`."""
    return tuple(Card.parse(code) for code in codes.split())


def hand_value(hand: tuple[Card, ...] | list[Card]) -> int:
    return sum(map(card_value, hand))


#: Sort key of cards, read in C (a Python-level `__lt__` or key function costs per compare).
card_key = attrgetter("key")
card_value = attrgetter("value")


def sort_hand(hand: tuple[Card, ...] | list[Card]) -> tuple[Card, ...]:
    """Hands are kept sorted by rank then suit so that equal hands are equal tuples."""
    return tuple(sorted(hand, key=card_key))
