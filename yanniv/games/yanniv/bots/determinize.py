"""Sample a full `MatchState` consistent with everything one seat knows (determinization).

Its own hand, the cards it knows in each opponent's hand, the discard, the pile cards it put
back with a Queen and every count come from its view; the other cards are dealt at random to
the opponents' unknown slots and the pile, rejecting deals that contradict what the tracker
learnt (a "no" to a 4, a draw without playing under a 7 or a 6). The engine's internals are
only read here, never changed.
"""

from __future__ import annotations

import random

from yanniv.games.yanniv.bots.tracker import Tracker, unseen_cards
from yanniv.games.yanniv.rules import knowledge
from yanniv.games.yanniv.rules.cards import Card, sort_hand
from yanniv.games.yanniv.rules.state import MatchConfig, MatchState, Pending
from yanniv.games.yanniv.rules.view import MatchView

_TRIES = 30


def _consistent(tracker: Tracker | None, seat: int, hidden: list[Card]) -> bool:
    if tracker is None:
        return True
    for fact in tracker.lacks.get(seat, ()):
        if sum(1 for card in hidden if fact.test(card)) > fact.slack:
            return False
    return True


def sample_hidden(
    v: MatchView, tracker: Tracker | None, rng: random.Random
) -> tuple[dict[int, list[Card]], list[Card]]:
    """Unknown cards of each opponent, and the unknown part of the pile."""
    pool = unseen_cards(v)
    slots = {
        p.seat: p.card_count - len(p.known_cards)
        for p in v.players
        if p.seat != v.viewer
    }
    hidden: dict[int, list[Card]] = {}
    for _ in range(_TRIES):
        rng.shuffle(pool)
        pos = 0
        hidden = {}
        ok = True
        for seat, count in slots.items():
            hidden[seat] = pool[pos : pos + count]
            pos += count
            ok = ok and _consistent(tracker, seat, hidden[seat])
        if ok:
            break
    caller = v.yanniv_caller
    if caller is not None and caller != v.viewer and slots.get(caller):
        _caller_hand(v, caller, slots[caller], hidden, pool, rng)
    used = sum(slots.values())
    return hidden, pool[used:]


def _caller_hand(
    v: MatchView, caller: int, count: int, hidden: dict[int, list[Card]], pool: list[Card],
    rng: random.Random,
) -> None:
    """The YANNIV caller held 5 points or less: redraw his unknown cards among the low ones
    (swapping them with the cards they replace, wherever those were)."""
    room = v.rules.call_limit - sum(c.value for c in v.players[caller].known_cards)
    if room < 0:
        return
    current = hidden[caller]
    if sum(c.value for c in current) <= room:
        return
    low = [c for c in pool if c.value <= room]
    if len(low) < count:
        return
    for _ in range(_TRIES):
        chosen = rng.sample(low, count)
        if sum(c.value for c in chosen) <= room:
            break
    else:
        return
    # Swap positions in `pool` so that the caller's slice holds `chosen`.
    index = {card: i for i, card in enumerate(pool)}
    start = index[current[0]]
    for offset, card in enumerate(chosen):
        i, j = start + offset, index[card]
        pool[i], pool[j] = pool[j], pool[i]
        index[pool[i]], index[pool[j]] = i, j
    pos = 0
    for seat in hidden:
        n = len(hidden[seat])
        hidden[seat] = pool[pos : pos + n]
        pos += n


def determinize(v: MatchView, tracker: Tracker | None, rng: random.Random) -> MatchState:
    """A complete state that this seat's view cannot tell apart from the real one."""
    assert v.viewer is not None and v.pending is not None
    n = v.seats
    hidden, rest = sample_hidden(v, tracker, rng)
    hands = []
    for p in v.players:
        if p.seat == v.viewer:
            hands.append(tuple(v.hand or ()))
        else:
            hands.append(sort_hand((*p.known_cards, *hidden[p.seat])))
    s = MatchState.__new__(MatchState)
    s.config = MatchConfig(seats=n, manches=v.manches, rules=v.rules)
    s.seed = f"world/{rng.getrandbits(48)}"
    s.step = v.step
    s.manche = v.manche
    s.tiebreak = v.tiebreak
    s.deal_attempt = 0
    s.active = tuple(p.active for p in v.players)
    s.starter = v.turn
    s.hands = tuple(hands)
    s.pile = (*rest, *reversed(v.pile_known))
    s.discard = v.discard
    s.prev_packet = v.previous_packet
    s.turn = v.turn
    s.direction = v.direction  # type: ignore[assignment]
    s.turn_constraint = v.constraint
    forming = bool(v.turn_play) and bool(v.discard) and v.discard[-1].seat == v.turn
    s.turn_packet = len(v.discard) - 1 if forming else None
    s.turn_play = v.turn_play
    s.turn_power = v.turn_power
    s.turn_power_count = (
        sum(1 for c in v.turn_play if c.rank == v.turn_power) if v.turn_power else 0
    )
    s.turn_six_colour = v.six_colour
    s.yanniv_caller = v.yanniv_caller
    s.last_lap = frozenset(v.last_lap)
    p = v.pending
    s.pending = Pending(
        kind=p.kind, seat=p.seat, ranks=p.ranks, cards=p.cards, remaining=p.remaining,
        other=p.other, rank=p.rank,
    )
    s.scores = v.scores
    s.manche_history = v.history
    s.last_result = v.last_result
    s.finished = False
    s.ranking = ()
    s.known = knowledge.empty(n)
    s.pile_known = (frozenset(),) * n
    s._legal = None
    return s
