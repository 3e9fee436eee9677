"""What a seat may put down (a single card, a set, a run of 3+ of one suit, jokers wild in
runs) and which cards of a packet the next seat may take (its two ends).

A packet is a tuple in the order it was laid: a run from its lowest card to its highest with
each joker where it stands, a set with its two ends first and last. `canonical_play` maps any
order a client sends to that one form, so an action has one stored form.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from itertools import combinations

from yanniv.yaniv.cards import JOKER, YCard

Cards = tuple[YCard, ...]


def _set_form(cards: Cards) -> Cards:
    """A set as laid: its two ends (as given: first and last) outside, the rest between."""
    if len(cards) <= 2:
        return tuple(sorted(cards))
    low, high = sorted((cards[0], cards[-1]))
    return (low, *sorted(cards[1:-1]), high)


def _run_form(cards: Cards) -> Cards | None:
    """The run these cards make in this order (or reversed), jokers where they stand; None."""
    naturals = [card for card in cards if card.rank != JOKER]
    if not naturals or len({card.suit for card in naturals}) != 1:
        return None
    jokers = sorted(card for card in cards if card.rank == JOKER)
    if not jokers:
        ordered: list[YCard] = sorted(naturals, key=lambda card: card.rank)
    else:
        ordered = list(cards)
        ranks = [card.rank for card in naturals]
        if len(ranks) > 1 and ranks[0] > ranks[-1]:
            ordered.reverse()
        slots = iter(jokers)  # the jokers' identities in one order: placement is what counts
        ordered = [next(slots) if card.rank == JOKER else card for card in ordered]
    starts = {card.rank - index for index, card in enumerate(ordered) if card.rank != JOKER}
    if len(starts) != 1:
        return None
    start = starts.pop()
    if start < 1 or start + len(ordered) - 1 > 13:
        return None
    return tuple(ordered)


def canonical_play(cards: Cards) -> Cards | None:
    """The packet `cards` (in the order given) form, in its one stored form; None if they
    form none (duplicates included)."""
    if not cards or len(set(cards)) != len(cards):
        return None
    if len(cards) == 1:
        return cards
    if len({card.rank for card in cards}) == 1:
        return _set_form(cards)
    if len(cards) < 3:
        return None
    return _run_form(cards)


def plays_of(hand: Cards) -> tuple[Cards, ...]:
    """Every packet `hand` can put down, each once, in its stored form."""
    found: list[Cards] = [(card,) for card in hand]
    by_rank: dict[int, list[YCard]] = defaultdict(list)
    for card in hand:
        by_rank[card.rank].append(card)
    for group in by_rank.values():
        group.sort()
        for size in range(2, len(group) + 1):
            for chosen in combinations(group, size):
                if size == 2:
                    found.append(chosen)
                    continue
                for low, high in combinations(chosen, 2):
                    middle = [card for card in chosen if card is not low and card is not high]
                    found.append((low, *middle, high))
    found.extend(_runs(hand, sorted(by_rank.get(JOKER, ()))))
    return tuple(found)


def _runs(hand: Cards, jokers: list[YCard]) -> list[Cards]:
    runs: list[Cards] = []
    for suit in sorted({card.suit for card in hand if card.rank != JOKER}):
        copies: dict[int, list[YCard]] = defaultdict(list)
        for card in hand:
            if card.rank != JOKER and card.suit == suit:
                copies[card.rank].append(card)
        held = [0] * 14  # held[r]: how many of the ranks 1..r this suit holds
        for rank in range(1, 14):
            held[rank] = held[rank - 1] + (rank in copies)
        for start in range(1, 12):
            for end in range(start + 2, 14):
                ranks = range(start, end + 1)
                gaps = len(ranks) - (held[end] - held[start - 1])
                if gaps > len(jokers):
                    break  # a longer span from this start only has more gaps
                if gaps == len(ranks):
                    continue
                options = [(*copies.get(rank, ()), None) for rank in ranks]
                for picks in _picks(options, len(jokers)):
                    wild = sum(1 for pick in picks if pick is None)
                    if wild == len(picks):
                        continue
                    for used in combinations(jokers, wild):
                        slots = iter(used)
                        runs.append(tuple(next(slots) if p is None else p for p in picks))
    return runs


def _picks(options: list[tuple[YCard | None, ...]],
           wild: int) -> Iterator[tuple[YCard | None, ...]]:
    """`itertools.product(*options)` in its order, without the picks holding more than `wild`
    Nones (jokers): a hand without jokers has one run per span, not 2^length picks to sift."""
    if not options:
        yield ()
        return
    for choice in options[0]:
        left = wild - (choice is None)
        if left < 0:
            continue
        for tail in _picks(options[1:], left):
            yield (choice, *tail)


def ends(packet: Cards) -> Cards:
    """The cards of a packet the next seat may take: its first and last (a single: itself)."""
    if not packet:
        return ()
    if len(packet) == 1:
        return packet
    return (packet[0], packet[-1])
