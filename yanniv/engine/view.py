"""`view(state, seat)`: what one seat (or a spectator) may know, and nothing else.

The view is the only thing a client or a bot ever gets: its own hand, card counts of the
others, the public discard, the cards it knows in each opponent's hand, the pending decision
(details only when it is its own) and, when it must act, the legal actions.
"""

from __future__ import annotations

from dataclasses import dataclass

from yanniv.engine.actions import Action, DecisionKind
from yanniv.engine.cards import Card, Colour, hand_value
from yanniv.engine.state import Constraint, MancheResult, MatchState, Pending

#: Pending kinds that would tell others something hidden are shown to them as this kind.
_PUBLIC_KIND: dict[str, DecisionKind] = {"play_drawn": "draw"}


@dataclass(frozen=True, slots=True)
class PlayerView:
    seat: int
    active: bool
    card_count: int
    score: int
    #: Cards the viewer knows to be in this seat's hand (the viewer's own seat: its hand).
    known_cards: tuple[Card, ...]
    called_yanniv: bool


@dataclass(frozen=True, slots=True)
class PacketView:
    seat: int | None
    cards: tuple[Card, ...]
    #: Cards of this packet the seat that must act may take now (or, on its turn, after playing).
    takeable: tuple[Card, ...]
    #: True for the packet the previous player put down.
    previous: bool


@dataclass(frozen=True, slots=True)
class PendingView:
    kind: DecisionKind
    seat: int
    ranks: tuple[int, ...] = ()
    cards: tuple[Card, ...] = ()
    remaining: int = 0
    other: int | None = None
    rank: int | None = None


@dataclass(frozen=True, slots=True)
class MatchView:
    viewer: int | None
    seats: int
    manche: int
    manches: int
    tiebreak: bool
    step: int
    hand: tuple[Card, ...] | None
    hand_value: int | None
    players: tuple[PlayerView, ...]
    pile_count: int
    #: Cards on top of the pile whose place this viewer knows (after its own Queen), top first.
    pile_known: tuple[Card, ...]
    discard: tuple[PacketView, ...]
    turn: int
    direction: int
    constraint: Constraint | None
    yanniv_caller: int | None
    pending: PendingView | None
    legal_actions: tuple[Action, ...]
    scores: tuple[int, ...]
    history: tuple[MancheResult, ...]
    last_result: MancheResult | None
    finished: bool
    ranking: tuple[int, ...]
    #: The cards this turn's player has put down so far (the packet being formed).
    turn_play: tuple[Card, ...]
    turn_power: int | None
    six_colour: Colour | None


def _pending_view(pending: Pending | None, viewer: int | None) -> PendingView | None:
    if pending is None:
        return None
    if viewer == pending.seat:
        return PendingView(
            kind=pending.kind,
            seat=pending.seat,
            ranks=pending.ranks,
            cards=pending.cards,
            remaining=pending.remaining,
            other=pending.other,
            rank=pending.rank,
        )
    kind = _PUBLIC_KIND.get(pending.kind, pending.kind)
    # Public details only: who is asked what by a 4, how many uses of a power remain.
    public_other = pending.other if pending.kind in ("four_give", "four_exchange") else None
    public_rank = pending.rank if pending.kind == "four_give" else None
    remaining = pending.remaining if pending.kind in ("four_ask", "king") else 0
    return PendingView(
        kind=kind, seat=pending.seat, remaining=remaining, other=public_other, rank=public_rank
    )


def view(state: MatchState, viewer: int | None) -> MatchView:
    """The observation of `viewer` (a seat index, or None for a spectator)."""
    from yanniv.engine.rules import discard_takeable, legal_actions

    n = state.config.seats
    row = state.known[n if viewer is None else viewer]
    players = tuple(
        PlayerView(
            seat=seat,
            active=state.active[seat],
            card_count=len(state.hands[seat]),
            score=state.scores[seat],
            known_cards=(
                state.hands[seat] if seat == viewer else tuple(sorted(row[seat]))
            ),
            called_yanniv=state.yanniv_caller == seat,
        )
        for seat in range(n)
    )
    takeable = discard_takeable(state)
    discard = tuple(
        PacketView(
            seat=packet.seat,
            cards=packet.cards,
            takeable=tuple(c for c in packet.cards if c in takeable.get(index, ())),
            previous=index == state.prev_packet,
        )
        for index, packet in enumerate(state.discard)
    )
    pile_known: tuple[Card, ...] = ()
    if viewer is not None and state.pile_known[viewer]:
        known_top = state.pile_known[viewer]
        top: list[Card] = []
        for card in reversed(state.pile):
            if card not in known_top:
                break
            top.append(card)
        pile_known = tuple(top)
    hand = state.hands[viewer] if viewer is not None else None
    acting = state.pending is not None and viewer == state.pending.seat
    return MatchView(
        viewer=viewer,
        seats=n,
        manche=state.manche,
        manches=state.config.manches,
        tiebreak=state.tiebreak,
        step=state.step,
        hand=hand,
        hand_value=hand_value(hand) if hand is not None else None,
        players=players,
        pile_count=len(state.pile),
        pile_known=pile_known,
        discard=discard,
        turn=state.turn,
        direction=state.direction,
        constraint=state.turn_constraint,
        yanniv_caller=state.yanniv_caller,
        pending=_pending_view(state.pending, viewer),
        legal_actions=legal_actions(state) if acting else (),
        scores=state.scores,
        history=state.manche_history,
        last_result=state.last_result,
        finished=state.finished,
        ranking=state.ranking,
        turn_play=state.turn_play,
        turn_power=state.turn_power,
        six_colour=state.turn_six_colour,
    )
