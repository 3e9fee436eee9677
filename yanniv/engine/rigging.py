"""Rigged states for tests and tools: explicit hands, pile and discard, no luck involved.

Like pokerkit's rigged decks: the rules run unchanged on a state whose cards were chosen.
"""

from __future__ import annotations

from collections.abc import Sequence

from yanniv.engine.cards import DECK, Card, cards, sort_hand
from yanniv.engine.state import Constraint, MatchConfig, MatchState, Packet, Pending


def rigged(
    hands: Sequence[str],
    *,
    pile: str | None = None,
    discard: Sequence[str | tuple[int | None, str]] | None = None,
    turn: int = 0,
    direction: int = 1,
    manches: int = 6,
    manche: int = 1,
    scores: Sequence[int] | None = None,
    constraint: Constraint | None = None,
    yanniv_caller: int | None = None,
    seed: int | str = "rigged",
    active: Sequence[bool] | None = None,
) -> MatchState:
    """A state at the start of `turn`'s turn.

    `hands`: one string of card codes per seat (`"AS 2S 3S"`). `discard`: packets oldest first,
    each a code string or `(seat, codes)`; the last one is the previous player's packet (by
    default a single flipped ten).
    `pile`: codes top first; by default every card not used elsewhere, in deck order.
    """
    n = len(hands)
    hand_cards = [sort_hand(cards(h)) if h.strip() else () for h in hands]
    if discard is None:  # a flipped non-power card that is nowhere else
        taken = {c for h in hand_cards for c in h} | set(cards(pile) if pile else ())
        discard = [next(c.code for c in cards("TD TH TS TC 5D 5H 5S 5C") if c not in taken)]
    packets: list[Packet] = []
    for index, packet in enumerate(discard):
        seat, codes = packet if isinstance(packet, tuple) else (None, packet)
        if seat is None and index > 0:
            seat = (turn - direction) % n
        packets.append(Packet(seat=seat, cards=cards(codes) if codes.strip() else ()))
    used = [c for h in hand_cards for c in h] + [c for p in packets for c in p.cards]
    if pile is None:
        pile_cards: list[Card] = [c for c in DECK if c not in set(used)]
    else:
        pile_cards = list(cards(pile)) if pile.strip() else []
    everything = used + pile_cards
    if len(set(everything)) != len(everything):
        raise ValueError("a card appears twice in the rigged state")
    s = MatchState.blank(MatchConfig(seats=n, manches=manches, first_player=turn), seed)
    s.manche = manche
    s.active = tuple(active) if active is not None else (True,) * n
    s.starter = turn
    s.hands = tuple(hand_cards)
    s.pile = tuple(reversed(pile_cards))
    s.discard = tuple(packets)
    s.prev_packet = len(packets) - 1 if packets else None
    s.turn = turn
    s.direction = direction  # type: ignore[assignment]
    s.turn_constraint = constraint
    s.yanniv_caller = yanniv_caller
    s.pending = Pending(kind="turn", seat=turn)
    if scores is not None:
        s.scores = tuple(scores)
    return s
