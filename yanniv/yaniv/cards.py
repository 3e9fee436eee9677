"""Cards of classic Yaniv: 52 cards and 2 jokers per deck, one or two decks.

With two decks a card exists twice; `copy` (0 or 1) tells the copies apart, so that every
physical card has one identity (the card count is conserved, knowledge is per card). On the
wire a card is its code: rank (A 2-9 T J Q K, X for a joker), suit (S H D C; a joker is R red
or B black), then `2` for the second deck's copy: `"TH"`, `"XR"`, `"5S2"`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SUITS = ("S", "H", "D", "C")
JOKER_SUITS = ("R", "B")
RANK_CODES = "XA23456789TJQK"  # index = rank; 0 is the joker
JOKER = 0
ACE = 1
#: Points a hand may hold at most to call Yaniv.
CALL_LIMIT = 7


@dataclass(frozen=True, slots=True, order=True)
class YCard:
    """One physical card: rank 0 (joker) or 1 (Ace) to 13 (King), a suit, a deck copy."""

    rank: int
    suit: str
    copy: int = 0
    value: int = field(init=False, compare=False, repr=False)
    code: str = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        valid_suits = JOKER_SUITS if self.rank == JOKER else SUITS
        if not 0 <= self.rank <= 13 or self.suit not in valid_suits or self.copy not in (0, 1):
            raise ValueError(f"no such card: {self.rank!r} {self.suit!r} {self.copy!r}")
        object.__setattr__(self, "value", min(self.rank, 10))
        object.__setattr__(
            self, "code", RANK_CODES[self.rank] + self.suit + ("2" if self.copy else ""))

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER

    @staticmethod
    def parse(code: str) -> YCard:
        """`"TH"`, `"XB"`, `"5S2"` → the card; ValueError otherwise."""
        found = _BY_CODE.get(code) if isinstance(code, str) else None
        if found is None:
            raise ValueError(f"not a card code: {code!r}")
        return found

    def __repr__(self) -> str:
        return self.code


def deck(decks: int = 1) -> tuple[YCard, ...]:
    """The cards of `decks` decks (54 each), in a fixed order."""
    return tuple(
        [YCard(rank, suit, copy) for copy in range(decks) for suit in SUITS
         for rank in range(1, 14)]
        + [YCard(JOKER, suit, copy) for copy in range(decks) for suit in JOKER_SUITS]
    )


_BY_CODE = {card.code: card for card in deck(2)}


def ycards(codes: str) -> tuple[YCard, ...]:
    """Space-separated codes, a test convenience: `ycards("AS 2S XR")`."""
    return tuple(YCard.parse(code) for code in codes.split())


def hand_value(hand: tuple[YCard, ...] | list[YCard]) -> int:
    return sum(card.value for card in hand)
