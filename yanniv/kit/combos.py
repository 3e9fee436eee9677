"""Sets and runs, with the options card games differ on: one suit or colours free, jokers
wild, the lowest and highest rank a run may reach.

A packet is a tuple in the order it was laid: a run from its lowest card to its highest with
each joker where it stands, a set with its two ends first and last. `run_form` and `set_form`
map any order a client sends to that one form, so an action has one stored form.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

from yanniv.kit.cards import Card

Cards = tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class RunRule:
    """What a run is in a game: `same_suit` (else colours are free), the ranks it may span
    (`lowest` to `highest`, inclusive) and its shortest length."""

    same_suit: bool = True
    lowest: int = 1
    highest: int = 13
    min_length: int = 3


def set_form(cards: Cards) -> Cards:
    """A set as laid: its two ends (as given: first and last) outside, the rest between."""
    if len(cards) <= 2:
        return tuple(sorted(cards))
    low, high = sorted((cards[0], cards[-1]))
    return (low, *sorted(cards[1:-1]), high)


def run_form(cards: Cards, rule: RunRule) -> Cards | None:
    """The run these cards make in this order (or reversed), jokers where they stand, or
    None. Without jokers the order given does not matter."""
    if len(cards) < rule.min_length:
        return None
    naturals = [card for card in cards if not card.is_joker]
    if not naturals or (rule.same_suit and len({card.suit for card in naturals}) != 1):
        return None
    jokers = sorted(card for card in cards if card.is_joker)
    if not jokers:
        ordered: list[Card] = sorted(naturals, key=lambda card: card.rank)
    else:
        ordered = list(cards)
        ranks = [card.rank for card in naturals]
        if len(ranks) > 1 and ranks[0] > ranks[-1]:
            ordered.reverse()
        slots = iter(jokers)  # the jokers' identities in one order: placement is what counts
        ordered = [next(slots) if card.is_joker else card for card in ordered]
    starts = {card.rank - index for index, card in enumerate(ordered) if not card.is_joker}
    if len(starts) != 1:
        return None
    start = starts.pop()
    if start < rule.lowest or start + len(ordered) - 1 > rule.highest:
        return None
    return tuple(ordered)


def runs_in(hand: Cards, rule: RunRule) -> list[Cards]:
    """Every run `hand` holds, jokers wild, each once in its laid form (lowest first)."""
    jokers = sorted(card for card in hand if card.is_joker)
    runs: list[Cards] = []
    groups: dict[str, dict[int, list[Card]]] = defaultdict(lambda: defaultdict(list))
    for card in hand:
        if not card.is_joker:
            groups[card.suit if rule.same_suit else ""][card.rank].append(card)
    low, high = rule.lowest, rule.highest
    for _, copies in sorted(groups.items()):
        held = dict.fromkeys(range(low - 1, high + 1), 0)  # held[r]: ranks low..r held
        for rank in range(low, high + 1):
            held[rank] = held[rank - 1] + (rank in copies)
        for start in range(low, high - rule.min_length + 2):
            for end in range(start + rule.min_length - 1, high + 1):
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


def sets_in(hand: Cards, largest: int = 4, *, jokers: bool = False) -> list[Cards]:
    """Every set of 2 to `largest` cards of one rank `hand` holds, in set form (each choice of
    its two ends once); `jokers` True lets jokers make a set of their own."""
    by_rank: dict[int, list[Card]] = defaultdict(list)
    for card in hand:
        if jokers or not card.is_joker:
            by_rank[card.rank].append(card)
    found: list[Cards] = []
    for group in by_rank.values():
        group.sort()
        for size in range(2, min(len(group), largest) + 1):
            for chosen in combinations(group, size):
                if size == 2:
                    found.append(chosen)
                    continue
                for low, high in combinations(chosen, 2):
                    middle = [card for card in chosen if card is not low and card is not high]
                    found.append((low, *middle, high))
    return found


def _picks(options: list[tuple[Card | None, ...]], wild: int) -> Iterator[tuple[Card | None, ...]]:
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
