"""What may be done now: `legal_actions` and the queries it is built from.

Kept apart from `apply` (in `rules`) so that `explain`, which says why an action is refused,
reads the same predicates (`playable`, `legal_plays`, the YANNIV limit) without an import
cycle: `rules` imports both, neither imports `rules`.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations

from yanniv.engine.actions import (
    Action,
    AskFour,
    CallYanniv,
    ChooseColour,
    ChoosePower,
    DrawPile,
    PlayAtOnce,
    QueenKeep,
    Skip,
    UseQueen,
    ask_of,
    give_of,
    play_of,
    swap_of,
    take_of,
)
from yanniv.engine.cards import JACK, QUEEN, Card, hand_value
from yanniv.engine.combos import all_combinations
from yanniv.engine.state import Constraint, MatchState

#: A hand of this many points or fewer may call YANNIV.
YANNIV_LIMIT = 5
#: How many packets below the Jack's own the first Jack reaches; each extra Jack adds one.
JACK_REACH = 2
_DRAW_PILE = DrawPile()
_CALL = CallYanniv()
_SKIP = Skip()


# --------------------------------------------------------------------------- queries


def next_seat(state: MatchState, seat: int, direction: int | None = None) -> int:
    """The next seat taking part in this manche, in the direction of play."""
    step = state.direction if direction is None else direction
    n = state.config.seats
    candidate = seat
    for _ in range(n):
        candidate = (candidate + step) % n
        if state.active[candidate]:
            return candidate
    return seat


def playable(cards: tuple[Card, ...], constraint: Constraint | None) -> bool:
    """Whether a combination respects the 6 (one card of the colour) or the 7 (all ≤ 7)."""
    if constraint is None:
        return True
    if constraint.kind == "six":
        return any(card.colour == constraint.colour for card in cards)
    return all(card.value <= 7 for card in cards)


def legal_plays(state: MatchState) -> list[tuple[Card, ...]]:
    combos = all_combinations(state.hands[state.turn])
    constraint = state.turn_constraint
    if constraint is None:
        return combos
    return [c for c in combos if playable(c, constraint)]


def can_call_yanniv(state: MatchState) -> bool:
    constraint = state.turn_constraint
    return (
        state.yanniv_caller is None
        and (constraint is None or constraint.kind != "seven")
        and hand_value(state.hands[state.turn]) <= YANNIV_LIMIT
    )


def previous_takeable(state: MatchState) -> tuple[Card, ...]:
    """Non-power cards of the packet the previous player put down (if any is left)."""
    if state.prev_packet is None:
        return ()
    return _non_power(state.discard[state.prev_packet].cards)


@lru_cache(maxsize=4096)
def _non_power(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """Memoized: the same packets are looked at by every seat's view and every draw."""
    return tuple([c for c in cards if not c.is_power])


def takeable_cards(state: MatchState) -> tuple[Card, ...]:
    """`discard_takeable` flattened, without building the dict in the common case."""
    pending = state.pending
    if pending is None or pending.kind not in ("turn", "draw"):
        return ()
    if pending.kind == "draw" and state.turn_power == JACK:
        return tuple(card for cards in discard_takeable(state).values() for card in cards)
    return previous_takeable(state)


def jack_reach(state: MatchState) -> dict[int, tuple[Card, ...]]:
    """Packets a Jack may take back from: the last 2 (+1 per extra Jack) non-empty packets
    below the Jack's own; power cards included."""
    reach = JACK_REACH + state.turn_power_count - 1
    below = state.turn_packet if state.turn_packet is not None else len(state.discard)
    result: dict[int, tuple[Card, ...]] = {}
    for index in range(below - 1, -1, -1):
        if len(result) == reach:
            break
        if state.discard[index].cards:
            result[index] = state.discard[index].cards
    return result


def discard_takeable(state: MatchState) -> dict[int, tuple[Card, ...]]:
    """Per packet index, the cards the seat in (or about to be in) the draw step may take."""
    pending = state.pending
    if pending is None or pending.kind not in ("turn", "draw"):
        return {}
    result: dict[int, tuple[Card, ...]] = {}
    if state.prev_packet is not None:
        result[state.prev_packet] = previous_takeable(state)
    if pending.kind == "draw" and state.turn_power == JACK:
        for index, cards in jack_reach(state).items():
            result[index] = cards
    return result


def legal_actions(state: MatchState) -> tuple[Action, ...]:
    """Every legal action of `state.to_act`, in a stable order; empty once the match is over."""
    if state._legal is not None:
        return state._legal
    result = tuple(_legal(state))
    state._legal = result
    return result


@lru_cache(maxsize=64)
def _asks(targets: tuple[int, ...]) -> tuple[AskFour, ...]:
    return tuple(ask_of((t, rank)) for t in targets for rank in range(1, 14))


def _draw_options(state: MatchState) -> list[Action]:
    previous = previous_takeable(state)
    options: list[Action] = [_DRAW_PILE, *map(take_of, previous)]
    if state.turn_power == JACK and state.turn_packet is not None:
        seen = set(previous)
        for cards in jack_reach(state).values():
            for card in cards:
                if card not in seen:
                    seen.add(card)
                    options.append(take_of(card))
    if state.turn_power == QUEEN and state.turn_packet is not None:
        options.append(UseQueen())
    return options


def _legal(state: MatchState) -> list[Action]:
    pending = state.pending
    if pending is None:
        return []
    kind = pending.kind
    seat = pending.seat
    hand = state.hands[seat]
    if kind == "turn":
        plays = legal_plays(state)
        actions: list[Action] = list(map(play_of, plays))
        if can_call_yanniv(state):
            actions.append(_CALL)
        if not plays:
            # No legal play (6 or 7 in force, or an empty hand): draw without playing.
            actions.extend(_draw_options(state))
        return actions
    if kind == "choose_power":
        return [ChoosePower(rank) for rank in pending.ranks]
    if kind == "choose_colour":
        return [ChooseColour("red"), ChooseColour("black")]
    if kind == "draw":
        return _draw_options(state)
    if kind in ("play_drawn", "four_play_received"):
        return [PlayAtOnce(pending.cards[0]), _SKIP]
    if kind == "queen_keep":
        drawn = pending.cards
        result: list[Action] = []
        for keep in drawn:
            rest = tuple(c for c in drawn if c != keep)
            result.extend(QueenKeep(keep, order) for order in permutations(rest))
        return result
    if kind == "four_ask":
        targets = [t for t in range(state.config.seats) if t != seat and state.active[t]]
        return [*_asks(tuple(targets)), _SKIP]
    if kind == "four_give":
        return [give_of(card) for card in hand if card.rank == pending.rank]
    if kind == "four_exchange":
        return list(map(give_of, hand))
    if kind == "king":
        targets = [t for t in range(state.config.seats) if t != seat and state.active[t]]
        return [swap_of((card, t)) for t in targets for card in hand] + [_SKIP]
    raise AssertionError(f"unknown pending kind {kind}")
