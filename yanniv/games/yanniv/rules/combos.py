"""Which groups of cards may be played together: a single, a set of 2-4 of a rank, or a run.

A run is 3+ consecutive ranks of one suit, Ace low (A-2-3 is a run, Q-K-A is not).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations, pairwise

from yanniv.games.yanniv.rules.cards import Card, card_key


def is_set(group: tuple[Card, ...]) -> bool:
    return 2 <= len(group) <= 4 and all(card.rank == group[0].rank for card in group)


def is_run(group: tuple[Card, ...]) -> bool:
    if len(group) < 3:
        return False
    suit = group[0].suit
    if any(card.suit != suit for card in group):
        return False
    ranks = sorted(card.rank for card in group)
    return all(b == a + 1 for a, b in pairwise(ranks))


def is_combination(group: tuple[Card, ...]) -> bool:
    """True for every legal packet: single card, set, or run."""
    if len(group) == 1:
        return True
    if len(set(group)) != len(group):
        return False
    return is_set(group) or is_run(group)


def all_combinations(hand: Iterable[Card]) -> list[tuple[Card, ...]]:
    """Every legal combination within a hand, each as a sorted tuple (runs in rank order).

    Written as linear scans over the rank-sorted hand: it runs for every turn of every match
    and in the bots' playouts.
    """
    hand = sorted(hand, key=card_key)
    result: list[tuple[Card, ...]] = [(card,) for card in hand]
    n = len(hand)
    start = 0
    while start < n:  # sets: runs of equal ranks in the sorted hand
        end = start + 1
        rank = hand[start].rank
        while end < n and hand[end].rank == rank:
            end += 1
        if end - start > 1:
            group = hand[start:end]
            for size in range(2, end - start + 1):
                result.extend(combinations(group, size))
        start = end
    if n < 3:
        return result
    by_suit: dict[str, list[Card]] = {}
    for card in hand:
        by_suit.setdefault(card.suit, []).append(card)
    for suited in by_suit.values():
        if len(suited) < 3:
            continue
        # Maximal streaks of consecutive ranks; every contiguous window of 3+ is a run.
        streak = [suited[0]]
        for card in [*suited[1:], None]:
            if card is not None and card.rank == streak[-1].rank + 1:
                streak.append(card)
                continue
            size = len(streak)
            for length in range(3, size + 1):
                for offset in range(size - length + 1):
                    result.append(tuple(streak[offset : offset + length]))
            if card is not None:
                streak = [card]
    return result


def has_misdeal_pattern(hand: Iterable[Card]) -> bool:
    """A dealt hand with three of a rank, or three consecutive ranks of one suit, is a misdeal."""
    hand = list(hand)
    ranks: dict[int, int] = {}
    for card in hand:
        ranks[card.rank] = ranks.get(card.rank, 0) + 1
    if any(count >= 3 for count in ranks.values()):
        return True
    present = {(card.suit, card.rank) for card in hand}
    return any(
        (suit, rank + 1) in present and (suit, rank + 2) in present for suit, rank in present
    )


def extends(played: tuple[Card, ...], card: Card) -> bool:
    """Whether `card` has the rank of a single/set just played, or prolongs the run just played."""
    if len(played) >= 3 and is_run(played):
        if card.suit != played[0].suit:
            return False
        low = min(c.rank for c in played)
        high = max(c.rank for c in played)
        return card.rank in (low - 1, high + 1) and 1 <= card.rank <= 13
    return card.rank == played[0].rank
