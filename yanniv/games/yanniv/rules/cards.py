"""YANNIV's cards: the French 52 without jokers, made by the kit (`yanniv.kit.cards`).

Cards are created once (`DECK`) and compared by identity; a sorted hand goes by rank, then
♠ ♥ ♦ ♣ (`key` = rank × 4 + suit index). `parse_card("TH")` and `card.code` convert to and
from the two-character code used on the wire and in tests.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Literal

from yanniv.kit.cards import FRENCH_COLOURS, FRENCH_RANKS, Card, CardDesign

Suit = Literal["S", "H", "D", "C"]
Colour = Literal["red", "black"]

SUITS: tuple[Suit, ...] = ("S", "H", "D", "C")
RANK_CODES = "A23456789TJQK"
ACE, JACK, QUEEN, KING = 1, 11, 12, 13

DESIGN = CardDesign("yanniv", ranks=FRENCH_RANKS, suits=SUITS, colours=FRENCH_COLOURS)
DECK: tuple[Card, ...] = DESIGN.deck()


def card(rank: int, suit: str) -> Card:
    """The one card of this rank (1 Ace … 13 King) and suit; ValueError otherwise."""
    return DESIGN.card(rank, suit)


def parse_card(code: str) -> Card:
    """`"AS"`, `"TH"`, `"10H"`, `"qd"` → the card; ValueError otherwise."""
    text = code.strip().upper() if isinstance(code, str) else ""
    if text.startswith("10"):
        text = "T" + text[2:]
    try:
        return DESIGN.parse(text)
    except ValueError:
        raise ValueError(f"not a card code: {code!r}") from None


def cards(codes: str) -> tuple[Card, ...]:
    """Parse space-separated codes, a test and REPL convenience: `cards("AS 2S 3S")`."""
    return tuple(parse_card(code) for code in codes.split())


def hand_value(hand: tuple[Card, ...] | list[Card]) -> int:
    return sum(map(card_value, hand))


#: Sort key of cards, read in C (a Python-level `__lt__` or key function costs per compare).
card_key = attrgetter("key")
card_value = attrgetter("value")


def sort_hand(hand: tuple[Card, ...] | list[Card]) -> tuple[Card, ...]:
    """Hands are kept sorted by rank then suit so that equal hands are equal tuples."""
    return tuple(sorted(hand, key=card_key))
