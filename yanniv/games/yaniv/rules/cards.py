"""Cards of classic Yaniv: 52 cards and 2 jokers per deck, one or two decks, made by the kit.

With two decks a card exists twice; `copy` (0 or 1) tells the copies apart, so that every
physical card has one identity (the card count is conserved, knowledge is per card). On the
wire a card is its code: rank (A 2-9 T J Q K, X for a joker), suit (S H D C; a joker is R red
or B black), then `2` for the second deck's copy: `"TH"`, `"XR"`, `"5S2"`. A sorted hand goes
by rank (jokers first), then ♣ ♦ ♥ ♠, then copy.
"""

from __future__ import annotations

from yanniv.kit.cards import FRENCH_COLOURS, FRENCH_RANKS, Card, CardDesign, hand_value

SUITS = ("S", "H", "D", "C")
JOKER_SUITS = ("R", "B")
JOKER = 0
ACE = 1
#: Points a hand may hold at most to call Yaniv.
CALL_LIMIT = 7

DESIGN = CardDesign("yaniv", ranks=FRENCH_RANKS, suits=("C", "D", "H", "S"),
                    joker_suits=("B", "R"), colours=FRENCH_COLOURS, copies=2)
#: A Yaniv card is a kit card of this design.
YCard = Card


def deck(decks: int = 1) -> tuple[Card, ...]:
    """The cards of `decks` decks (54 each), in a fixed order: every deck's ♠ ♥ ♦ ♣ from Ace
    to King, then every deck's jokers."""
    return tuple(
        [DESIGN.card(rank, suit, copy) for copy in range(decks) for suit in SUITS
         for rank in range(1, 14)]
        + [DESIGN.card(JOKER, suit, copy) for copy in range(decks) for suit in JOKER_SUITS]
    )


def parse_card(code: object) -> Card:
    """`"TH"`, `"XB"`, `"5S2"` → the card; ValueError otherwise."""
    try:
        return DESIGN.parse(code)
    except ValueError:
        raise ValueError(f"not a card code: {code!r}") from None


def ycards(codes: str) -> tuple[Card, ...]:
    """Space-separated codes, a test convenience: `ycards("AS 2S XR")`."""
    return tuple(parse_card(code) for code in codes.split())


__all__ = ["ACE", "CALL_LIMIT", "JOKER", "Card", "YCard", "deck", "hand_value", "parse_card",
           "ycards"]
