"""Rigged states for tests and tools: explicit hands, pile and discard, no luck involved.

Like pokerkit's rigged decks: the rules run unchanged on a state whose cards were chosen.
"""

from __future__ import annotations

from collections.abc import Sequence

from yanniv.games.yanniv.rules.cards import DECK, Card, cards, sort_hand
from yanniv.games.yanniv.rules.ruleset import YANNIV, Ruleset
from yanniv.games.yanniv.rules.state import Constraint, MatchConfig, MatchState, Packet, Pending


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
    rules: Ruleset = YANNIV,
    tiebreak: bool = False,
    played: str | None = None,
    power: int | None = None,
    pending: Pending | None = None,
) -> MatchState:
    """A state at the start of `turn`'s turn, or in its middle.

    `hands`: one string of card codes per seat (`"AS 2S 3S"`). `discard`: packets oldest first,
    each a code string or `(seat, codes)`; the last one is the previous player's packet (by
    default a single flipped ten).
    `pile`: codes top first; by default every card not used elsewhere, in deck order.
    `tiebreak`: the manche is a tiebreak between the `active` seats (the others sit out with
    empty hands). `played`: codes `turn` has just put down (the newest packet, not in his
    hand), the turn then waiting at its draw step (or `pending`); `power` names the power
    applied when the play holds several (by default its only power rank, if any).
    """
    n = len(hands)
    hand_cards = [sort_hand(cards(h)) if h.strip() else () for h in hands]
    if discard is None:  # a flipped non-power card that is nowhere else
        taken = {c for h in hand_cards for c in h} | set(cards(pile) if pile else ())
        taken |= set(cards(played) if played else ())
        discard = [next(c.code for c in cards("TD TH TS TC 5D 5H 5S 5C") if c not in taken)]
    packets: list[Packet] = []
    for index, packet in enumerate(discard):
        seat, codes = packet if isinstance(packet, tuple) else (None, packet)
        if seat is None and index > 0:
            seat = (turn - direction) % n
        packets.append(Packet(seat=seat, cards=cards(codes) if codes.strip() else ()))
    play = cards(played) if played else ()
    if play:
        packets.append(Packet(seat=turn, cards=tuple(sort_hand(play))))
    used = [c for h in hand_cards for c in h] + [c for p in packets for c in p.cards]
    if pile is None:
        pile_cards: list[Card] = [c for c in DECK if c not in set(used)]
    else:
        pile_cards = list(cards(pile)) if pile.strip() else []
    everything = used + pile_cards
    if len(set(everything)) != len(everything):
        raise ValueError("a card appears twice in the rigged state")
    config = MatchConfig(seats=n, manches=manches, first_player=turn, rules=rules)
    s = MatchState.blank(config, seed)
    s.manche = manche
    s.tiebreak = tiebreak
    s.active = tuple(active) if active is not None else (True,) * n
    if any(hand_cards[seat] for seat in range(n) if not s.active[seat]):
        raise ValueError("a seat out of the manche holds no cards")
    s.starter = turn
    s.hands = tuple(hand_cards)
    s.pile = tuple(reversed(pile_cards))
    s.discard = tuple(packets)
    s.prev_packet = len(packets) - 1 - (1 if play else 0) if packets else None
    if s.prev_packet is not None and s.prev_packet < 0:
        s.prev_packet = None
    if play:
        s.turn_packet = len(packets) - 1
        s.turn_play = s.discard[-1].cards
        powers = sorted({c.rank for c in play if c.rank in rules.power_ranks})
        if power is None and len(powers) > 1:
            raise ValueError("the play holds several powers: say which one applies")
        s.turn_power = power if power is not None else (powers[0] if powers else None)
        single_rank = len({c.rank for c in play}) == 1
        s.turn_power_count = (
            0 if s.turn_power is None
            else sum(1 for c in play if c.rank == s.turn_power) if single_rank else 1
        )
        sixes = {c.colour for c in play if c.rank == 6}
        s.turn_six_colour = sixes.pop() if s.turn_power == 6 and len(sixes) == 1 else None
        if s.turn_power == 8 and pending is None:
            raise ValueError("an 8 skips the draw: say which decision is pending")
    s.turn = turn
    s.direction = direction  # type: ignore[assignment]
    s.turn_constraint = constraint
    s.yanniv_caller = yanniv_caller
    s.pending = pending or Pending(kind="draw" if play else "turn", seat=turn)
    if scores is not None:
        s.scores = tuple(scores)
    return s
