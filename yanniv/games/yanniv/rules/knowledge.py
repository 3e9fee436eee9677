"""Who knows which card is where: `known[viewer][owner]`, the public row last.

Updates never depend on a hidden card in a way a third party could notice: when a card moves
privately between two seats, the other viewers forget what they knew of the hand it left
(or, for a 4, of that hand's cards of the asked rank) rather than see one card vanish; when
a Queen draws several cards to keep one privately, the others forget the places they knew of
those cards (`pile_known`) rather than learn where the kept one went.
"""

from __future__ import annotations

from collections.abc import Iterable

from yanniv.games.yanniv.rules.cards import Card

Known = tuple[tuple[frozenset[Card], ...], ...]
_EMPTY: frozenset[Card] = frozenset()

#: Known sets equal from one match to the next, as one object: a server holds thousands of
#: matches, whose known sets are mostly of one to three cards (a non-empty frozenset takes
#: 216 bytes). A bounded memo, like `view._SORTED`: 1,000 rooms' sets fit in ~1,000 entries.
_SHARED: dict[frozenset[Card], frozenset[Card]] = {}
_SHARED_MAX = 8192


def _shared(cards: frozenset[Card]) -> frozenset[Card]:
    if not cards:
        return _EMPTY
    found = _SHARED.get(cards)
    if found is None:
        if len(_SHARED) >= _SHARED_MAX:
            _SHARED.clear()
        found = _SHARED[cards] = cards
    return found


def empty(seats: int) -> Known:
    return tuple(tuple(_EMPTY for _ in range(seats)) for _ in range(seats + 1))


def _update(known: Known, viewers: Iterable[int], owner: int, add=(), remove=()) -> Known:
    rows = list(known)
    for viewer in viewers:
        row = list(rows[viewer])
        row[owner] = _shared((row[owner] - set(remove)) | set(add))
        rows[viewer] = tuple(row)
    return tuple(rows)


def _everyone(known: Known, owner: int, change) -> Known:
    """Every row (seats and spectators) with `change` applied to its set for `owner`.

    Rows that held equal sets get one result object, not one each: after a public take every
    row often knows the same cards of that hand, and a live room's known sets then take about
    half the memory (~1 KB a room)."""
    done: dict[frozenset[Card], frozenset[Card]] = {}

    def once(cards: frozenset[Card]) -> frozenset[Card]:
        result = done.get(cards)
        if result is None:
            result = done[cards] = _shared(change(cards))
        return result

    return tuple([(*row[:owner], once(row[owner]), *row[owner + 1 :]) for row in known])


def left_hand(known: Known, owner: int, cards: Iterable[Card]) -> Known:
    """Cards that left `owner`'s hand in the open (played): nobody thinks they are still there."""
    cards = tuple(cards)
    for row in known:
        if row[owner] and not row[owner].isdisjoint(cards):
            gone = frozenset(cards)
            return _everyone(known, owner, gone.__rsub__)
    return known


def taken_publicly(known: Known, owner: int, card: Card) -> Known:
    """A card taken from the discard: everyone, spectators included, knows it is there.
    (It runs at every take: one tuple per row, no intermediate lists or sets.)"""
    added = frozenset((card,))
    return _everyone(known, owner, added.__or__)


def learn(known: Known, viewer: int, owner: int, card: Card) -> Known:
    return _update(known, (viewer,), owner, add=(card,))


def unlearn(known: Known, viewer: int, owner: int, card: Card) -> Known:
    if card not in known[viewer][owner]:
        return known
    return _update(known, (viewer,), owner, remove=(card,))


def drawn_for_a_private_keep(
    pile_known: tuple[frozenset[Card], ...], seat: int, cards: Iterable[Card]
) -> tuple[frozenset[Card], ...]:
    """A Queen drew `cards` and will keep one privately: the other seats that knew some of
    those cards' places (from their own Queen) now know only that they are among the cards
    drawn, not which one is kept or where the others go back."""
    drawn = frozenset(cards)
    return tuple(
        known if viewer == seat or known.isdisjoint(drawn) else known - drawn
        for viewer, known in enumerate(pile_known)
    )


def forget_owner(known: Known, owner: int, except_viewers: Iterable[int]) -> Known:
    """`owner` lost an unnamed card privately: viewers outside the exchange forget that hand."""
    keep = set(except_viewers)
    rows = list(known)
    for viewer in range(len(rows)):
        if viewer not in keep and rows[viewer][owner]:
            row = list(rows[viewer])
            row[owner] = _EMPTY
            rows[viewer] = tuple(row)
    return tuple(rows)


def forget_rank(known: Known, owner: int, rank: int, except_viewers: Iterable[int]) -> Known:
    """A card of a public rank left `owner` privately: others drop all cards of that rank."""
    keep = set(except_viewers)
    rows = list(known)
    for viewer in range(len(rows)):
        if viewer in keep:
            continue
        row = list(rows[viewer])
        if any(card.rank == rank for card in row[owner]):
            row[owner] = _shared(frozenset(card for card in row[owner] if card.rank != rank))
            rows[viewer] = tuple(row)
    return tuple(rows)
