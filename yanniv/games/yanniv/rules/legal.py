"""What may be done now: `legal_actions` and the predicates it is built from.

Kept apart from `apply` (in `rules`) so that `explain`, which says why an action is refused,
reads the same predicates without an import cycle: `rules` imports both, neither imports
`rules`. Each rule is written once here, as a function returning the reason code of a
refusal (None when allowed), that `legal_actions` tests for None and `explain` turns into
French and English (pokerkit's verify/can pair, without the exception on the hot path).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations

from yanniv.games.yanniv.rules.actions import (
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
from yanniv.games.yanniv.rules.cards import JACK, KING, QUEEN, Card, hand_value
from yanniv.games.yanniv.rules.combos import all_combinations, is_combination
from yanniv.games.yanniv.rules.state import Constraint, MatchState

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


def next_in(state: MatchState, seat: int, seats: frozenset[int]) -> int:
    """The first of `seats` after `seat` in the direction of play (the last lap's order)."""
    n = state.config.seats
    candidate = seat
    for _ in range(n):
        candidate = (candidate + state.direction) % n
        if candidate in seats:
            return candidate
    raise AssertionError("no seat left to play")


def playable(cards: tuple[Card, ...], constraint: Constraint | None) -> bool:
    """Whether a combination respects the 6 (one card of the colour) or the 7 (all ≤ 7)."""
    if constraint is None:
        return True
    if constraint.kind == "six":
        return any(card.colour == constraint.colour for card in cards)
    return all(card.value <= 7 for card in cards)


def play_refusal(state: MatchState, cards: tuple[Card, ...]) -> str | None:
    """Why the turn player may not put `cards` down (a set of cards, in any order)."""
    hand = state.hands[state.turn]
    if any(card not in hand for card in cards) or len(set(cards)) != len(cards):
        return "card_not_in_hand"
    if not is_combination(tuple(sorted(cards))):
        return "not_a_combination"
    constraint = state.turn_constraint
    if not playable(cards, constraint):
        return "six_colour" if constraint is not None and constraint.kind == "six" else (
            "seven_limit"
        )
    return None


def legal_plays(state: MatchState) -> list[tuple[Card, ...]]:
    combos = all_combinations(state.hands[state.turn])
    constraint = state.turn_constraint
    if constraint is None:
        return combos
    return [c for c in combos if playable(c, constraint)]


def call_refusal(state: MatchState) -> str | None:
    """Why the turn player may not call YANNIV now (None: he may)."""
    if state.yanniv_caller is not None:
        return "yanniv_last_lap"
    constraint = state.turn_constraint
    if constraint is not None and constraint.kind == "seven":
        return "yanniv_after_seven"
    if hand_value(state.hands[state.turn]) > state.config.rules.call_limit:
        return "yanniv_too_high"
    return None


def holds_yanniv(state: MatchState, seat: int) -> bool:
    """The caller's hand still within the limit when his call is checked."""
    return hand_value(state.hands[seat]) <= state.config.rules.call_limit


def previous_takeable(state: MatchState) -> tuple[Card, ...]:
    """Non-power cards of the packet the previous player put down (if any is left)."""
    if state.prev_packet is None:
        return ()
    return _non_power(state.discard[state.prev_packet].cards, state.config.rules.power_ranks)


@lru_cache(maxsize=4096)
def _non_power(cards: tuple[Card, ...], powers: frozenset[int]) -> tuple[Card, ...]:
    """Memoized: the same packets are looked at by every seat's view and every draw."""
    return tuple([c for c in cards if c.rank not in powers])


def take_refusal(state: MatchState, card: Card) -> str:
    """Why `card` may not be taken from the discard (asked only of a take that is not among
    the draw options): a power card of the previous packet, or a card out of reach."""
    previous = () if state.prev_packet is None else state.discard[state.prev_packet].cards
    if card in previous and card.rank in state.config.rules.power_ranks:
        return "power_not_takeable"
    return "not_takeable"


def mandatory_power(state: MatchState) -> int | None:
    """The power rank that must be used at the pending decision, leaving no way to decline
    it (no Skip, no plain draw): only with `rules.mandatory_powers`, and only when the power
    can be applied (a Jack with nothing in reach is skipped, see `power_impossible`)."""
    pending = state.pending
    if pending is None or not state.config.rules.mandatory_powers:
        return None
    kind = pending.kind
    if kind == "four_ask":
        return 4
    if kind == "king":
        return KING
    if kind == "draw" and state.turn_packet is not None:
        if state.turn_power == QUEEN:
            return QUEEN
        if state.turn_power == JACK and jack_reach(state):
            return JACK
    return None


def power_impossible(state: MatchState, rank: int) -> str | None:
    """Why the turn's power `rank` cannot be applied at all (None: it can): a King with no
    card to give, a Jack with no card left in reach. A 4 can always ask (the answer may be
    no), a Queen always draws what the pile (or its reshuffle) holds."""
    if rank == KING and not state.hands[state.turn]:
        return "no_card"
    if rank == JACK and not jack_reach(state):
        return "nothing_to_take"
    return None


def takeable_cards(state: MatchState) -> tuple[Card, ...]:
    """`discard_takeable` flattened, without building the dict in the common case."""
    pending = state.pending
    if pending is None or pending.kind not in ("turn", "draw"):
        return ()
    if pending.kind == "draw" and state.turn_power == QUEEN and mandatory_power(state):
        return ()  # the Queen's draw is the only draw
    if pending.kind == "draw" and state.turn_power == JACK:
        return tuple(card for cards in discard_takeable(state).values() for card in cards)
    return previous_takeable(state)


def jack_reach(state: MatchState) -> dict[int, tuple[Card, ...]]:
    """Packets a Jack may take back from: the last 2 (+1 per extra Jack) non-empty packets
    below the Jack's own; power cards included."""
    reach = state.config.rules.jack_reach + state.turn_power_count - 1
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
    if pending.kind == "draw" and state.turn_power == QUEEN and mandatory_power(state):
        return {}  # the Queen's draw is the only draw
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
    forced = mandatory_power(state)  # None for a draw without playing (kind "turn")
    if forced == QUEEN:
        return [UseQueen()]
    previous = () if forced == JACK else previous_takeable(state)
    options: list[Action] = [] if forced == JACK else [_DRAW_PILE]
    options.extend(map(take_of, previous))
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
        if call_refusal(state) is None:
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
    if kind in ("play_drawn", "four_play_received"):  # « on peut la poser »: a choice
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
        asks = _asks(tuple(targets))
        return list(asks) if mandatory_power(state) else [*asks, _SKIP]
    if kind == "four_give":
        return [give_of(card) for card in hand if card.rank == pending.rank]
    if kind == "four_exchange":
        return list(map(give_of, hand))
    if kind == "king":
        targets = [t for t in range(state.config.seats) if t != seat and state.active[t]]
        swaps = [swap_of((card, t)) for t in targets for card in hand]
        return swaps if mandatory_power(state) else [*swaps, _SKIP]
    raise AssertionError(f"unknown pending kind {kind}")
