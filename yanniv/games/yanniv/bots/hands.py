"""Hand arithmetic shared by the bots: best combination to dump, and a hand's "weight".

A hand's weight is its points minus part of what it can put down next turn, so that a pair
of 9s (dumped in one go) weighs less than a 9 and an 8 (one turn each).
"""

from __future__ import annotations

from functools import lru_cache

from yanniv.games.yanniv.rules.cards import Card
from yanniv.games.yanniv.rules.combos import all_combinations

#: How much of next turn's best dump counts when comparing hands.
DUMP_WEIGHT = 0.6


@lru_cache(maxsize=65536)
def best_dump(hand: tuple[Card, ...]) -> int:
    """Points of the heaviest combination in `hand` (0 for an empty hand)."""
    if not hand:
        return 0
    return max(sum(c.value for c in combo) for combo in all_combinations(hand))


def value(hand: tuple[Card, ...] | list[Card]) -> int:
    return sum(c.value for c in hand)


def weight(hand: tuple[Card, ...], dump_weight: float = DUMP_WEIGHT) -> float:
    """Points now, discounted by what the best combination would shed next turn (less so
    when the manche is about to end: then only the points count)."""
    key = tuple(sorted(hand))
    return value(key) - dump_weight * best_dump(key)


def without(hand: tuple[Card, ...], cards: tuple[Card, ...] | list[Card]) -> tuple[Card, ...]:
    gone = set(cards)
    return tuple(c for c in hand if c not in gone)


def with_card(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    return tuple(sorted((*hand, card)))


def mean_value(cards: list[Card] | tuple[Card, ...]) -> float:
    return sum(c.value for c in cards) / len(cards) if cards else 6.5
