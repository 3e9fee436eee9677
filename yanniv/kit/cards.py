"""Cards of any design: the French 52, with jokers and several decks, or a game's own deck.

A `CardDesign` says what its cards are (rank and suit codes, points, colours, the order of a
sorted hand, how many copies of a card a match may hold) and makes each physical card once:
`design.card(5, "H", 1)` is always the same object, so cards compare and hash by identity (done
in C) while hands are compared, sorted and hashed on every action. Two designs never share a
card: a game's cards are its design's, even when another game prints the same faces.

On the wire a card is its code: the rank's code, the suit's, then the copy's number from the
second copy on (`"TH"`, `"XR"`, `"5S2"`, `"7C4"`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import product


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One physical card of a design: a rank, a suit (a family), which copy it is.

    Made only by its design (`CardDesign.card`, `parse`, `deck`). Ordering follows the
    precomputed `key` (the design's sorted-hand order); `value` is its points in hand.
    """

    rank: int
    suit: str
    copy: int
    key: int
    value: int
    colour: str
    code: str
    is_joker: bool
    design: CardDesign = field(repr=False)

    def __reduce__(self) -> tuple[object, ...]:
        # Copied or unpickled, a card is its design's one object again.
        return (_card_of, (self.design.name, self.rank, self.suit, self.copy))

    def __lt__(self, other: Card) -> bool:
        return self.key < other.key

    def __le__(self, other: Card) -> bool:
        return self.key <= other.key

    def __gt__(self, other: Card) -> bool:
        return self.key > other.key

    def __ge__(self, other: Card) -> bool:
        return self.key >= other.key

    def __repr__(self) -> str:
        return self.code


def face_value(rank: int) -> int:
    """Points of the usual count: Ace 1, 2 to 10 their number, figures 10 (a joker, rank 0, 0)."""
    return min(rank, 10)


class CardDesign:
    """A deck's design, and the one maker of its cards.

    `ranks` maps each rank to its one-character code; `suits` lists the suit codes in the
    order a sorted hand takes within a rank; `joker_suits` are the jokers' own suit codes
    (their rank `joker_rank`, 0 by default, sorts first). `colours` maps a suit to a colour
    word ("red", "black"); `value` gives a rank's points in hand. `copies` is the most copies
    of one card a match may hold (two decks: 2).
    """

    def __init__(self, name: str, *, ranks: Mapping[int, str], suits: Sequence[str],
                 joker_suits: Sequence[str] = (), joker_rank: int = 0, joker_code: str = "X",
                 colours: Mapping[str, str] | None = None,
                 value: Callable[[int], int] = face_value, copies: int = 1) -> None:
        if joker_suits and joker_rank in ranks:
            raise ValueError("the jokers' rank must not be a rank of the suits")
        if copies < 1 or copies > 9:
            raise ValueError("a design holds 1 to 9 copies of a card")
        if name in _DESIGNS:
            raise ValueError(f"a card design named {name!r} exists already")
        _DESIGNS[name] = self
        self.name = name
        self.ranks = dict(ranks)
        self.suits = tuple(suits)
        self.joker_suits = tuple(joker_suits)
        self.joker_rank = joker_rank
        self.copies = copies
        colours = dict(colours or {})
        codes = {**self.ranks, **({joker_rank: joker_code} if joker_suits else {})}
        # Within a rank, suits then jokers' suits sort in the order given; copies last.
        suit_order = {suit: index for index, suit in enumerate((*self.suits, *self.joker_suits))}
        width = len(suit_order)
        self._cards: dict[tuple[int, str, int], Card] = {}
        self._by_code: dict[str, Card] = {}
        faces = [(rank, suit) for rank, suit in product(sorted(self.ranks), self.suits)]
        faces += [(joker_rank, suit) for suit in self.joker_suits]
        for (rank, suit), copy in product(faces, range(copies)):
            code = codes[rank] + suit + (str(copy + 1) if copy else "")
            card = Card(rank=rank, suit=suit, copy=copy,
                        key=((rank * width) + suit_order[suit]) * copies + copy,
                        value=value(rank), colour=colours.get(suit, ""), code=code,
                        is_joker=suit in self.joker_suits, design=self)
            self._cards[rank, suit, copy] = card
            self._by_code[code] = card

    def card(self, rank: int, suit: str, copy: int = 0) -> Card:
        """The card of this rank, suit and copy; ValueError if the design has none."""
        try:
            return self._cards[rank, suit, copy]
        except (KeyError, TypeError):
            raise ValueError(f"no such {self.name} card: {rank!r} {suit!r} {copy!r}") from None

    def parse(self, code: object) -> Card:
        """The card with this exact code; ValueError otherwise."""
        found = self._by_code.get(code) if isinstance(code, str) else None
        if found is None:
            raise ValueError(f"not a {self.name} card code: {code!r}")
        return found

    def cards(self, codes: str) -> tuple[Card, ...]:
        """Space-separated codes, a test convenience: `design.cards("AS 2S XR")`."""
        return tuple(self.parse(code) for code in codes.split())

    def deck(self, copies: int = 1, *, ranks: Iterable[int] | None = None,
             suits: Iterable[str] | None = None, jokers: bool = True) -> tuple[Card, ...]:
        """The cards of `copies` decks of this design, in a fixed order (copy, suit, rank,
        then the jokers of each copy): `ranks` and `suits` keep a part of the design (a
        32-card deck), `jokers` False leaves them out."""
        if not 1 <= copies <= self.copies:
            raise ValueError(f"{self.name} holds 1 to {self.copies} copies of a card")
        kept_ranks = sorted(self.ranks if ranks is None else ranks)
        kept_suits = self.suits if suits is None else tuple(suits)
        out = [self._cards[rank, suit, copy] for copy in range(copies)
               for suit in kept_suits for rank in kept_ranks]
        if jokers:
            out += [self._cards[self.joker_rank, suit, copy]
                    for copy in range(copies) for suit in self.joker_suits]
        return tuple(out)

    def __repr__(self) -> str:
        return f"CardDesign({self.name!r})"

    def __reduce__(self) -> tuple[object, ...]:
        return (_DESIGNS.__getitem__, (self.name,))


#: Every design by name: how a copied or unpickled card finds its design's one object.
_DESIGNS: dict[str, CardDesign] = {}


def _card_of(design: str, rank: int, suit: str, copy: int) -> Card:
    return _DESIGNS[design].card(rank, suit, copy)


def hand_value(hand: Iterable[Card]) -> int:
    """The points of a hand: the sum of its cards' values."""
    return sum(card.value for card in hand)


#: Ranks 1 (Ace) to 13 (King) and their codes, as the French deck prints them.
FRENCH_RANKS: Mapping[int, str] = {rank: "A23456789TJQK"[rank - 1] for rank in range(1, 14)}
#: The French suits' colours.
FRENCH_COLOURS: Mapping[str, str] = {"S": "black", "C": "black", "H": "red", "D": "red",
                                     "R": "red", "B": "black"}
