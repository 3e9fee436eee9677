"""Sample a full `MatchState` consistent with everything one seat knows (determinization).

Its own hand, the cards it knows in each opponent's hand, the discard, the pile cards it put
back with a Queen and every count come from its view; the other cards are dealt at random to
the opponents' unknown slots and the pile, rejecting deals that contradict what the tracker
learnt (a "no" to a 4, a draw without playing under a 7 or a 6) and weighing each
opponent's deal by how likely it made its last plays and draws (players dump their heaviest
cards, call YANNIV when they can, take a discard card for a reason: without this, the unseen
cards dealt uniformly made opponents' hands several points too heavy). The engine's
internals are only read here, never changed.
"""

from __future__ import annotations

import random

from yanniv.bots.fastsim import FREE, LIMIT, RANK, SEVEN, SIX_BLACK, SIX_RED, VALUE, heaviest
from yanniv.bots.tracker import PastPlay, Tracker, unseen_cards
from yanniv.engine import knowledge
from yanniv.engine.cards import Card, sort_hand
from yanniv.engine.events import ConstraintSet
from yanniv.engine.state import MatchConfig, MatchState, Pending
from yanniv.engine.view import MatchView

_TRIES = 30
#: Relative chance of a play lighter than the heaviest combination by 0, 1, 2, 3+ points
#: (moyen, 27,831 plays outside a last lap: 90.6%, 1.8%, 5.1%, 2.4% spread over larger gaps).
DEFICIT_LIKELIHOOD = (1.0, 0.1, 0.15, 0.02)
#: Relative chance that a player who could call YANNIV with 5 points or less played instead
#: (moyen calls at every chance).
NO_CALL_LIKELIHOOD = 0.02
#: Preference among combinations of the same heaviest points (single 10 = 1; singles by
#: rank, sets of 10 points a card, of 4, 6, 7, 8 or 9, of others; runs), fitted to moyen's
#: 3,158 such choices (Plackett-Luce): an 8 or a King goes first, a pair is kept.
TIE_WEIGHT: dict[int | str, float] = {
    8: 1000.0, 13: 68.0, 6: 45.0, 4: 11.5, 12: 3.8, 11: 1.5, 9: 1.3,
    "set-high": 0.07, "set-power": 300.0, "set-low": 0.1, "run": 0.016,
}
#: How often moyen takes an offered discard card, by its points (A-2, 3-4, 5-7, 8+) and
#: whether the hand holds its rank (pair) or a same-suit neighbour (run); 3,005 draws:
#: a high card is taken only to pair it, and declining it says the rank is not held.
TAKEN: tuple[dict[tuple[bool, bool], float], ...] = (
    {(False, False): 0.59, (False, True): 0.65, (True, False): 0.69, (True, True): 0.76},
    {(False, False): 0.51, (False, True): 0.48, (True, False): 0.64, (True, True): 0.72},
    {(False, False): 0.12, (False, True): 0.33, (True, False): 0.70, (True, True): 0.90},
    {(False, False): 0.01, (False, True): 0.05, (True, False): 0.76, (True, True): 0.76},
)


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
    """Unknown cards of each opponent, and the unknown part of the pile.

    Each opponent's cards are dealt from what is left, rejecting deals that contradict the
    tracker's facts, and accepting the others with the chance that this hand would have made
    the player's last plays (`play_likelihood`); after `_TRIES` the likeliest deal seen stands.
    """
    pool = unseen_cards(v)
    rng.shuffle(pool)
    slots = {
        p.seat: p.card_count - len(p.known_cards)
        for p in v.players
        if p.seat != v.viewer
    }
    hidden: dict[int, list[Card]] = {}
    left = pool
    for seat, count in slots.items():
        plays = tracker.plays.get(seat) if tracker is not None else None
        known = v.players[seat].known_cards
        best: list[Card] = left[:count]
        best_weight = -1.0
        for _ in range(_TRIES):
            cards = rng.sample(left, count) if count else []
            if not _consistent(tracker, seat, cards):
                continue
            weight = play_likelihood(plays, known, cards, rng) if plays else 1.0
            if weight >= 1.0 or rng.random() < weight:
                best = cards
                break
            if weight > best_weight:
                best, best_weight = cards, weight
        hidden[seat] = best
        taken = set(best)
        left = [card for card in left if card not in taken]
    pool = [card for seat in slots for card in hidden[seat]] + left
    caller = v.yanniv_caller
    if caller is not None and caller != v.viewer and slots.get(caller):
        _caller_hand(v, caller, slots[caller], hidden, pool, rng)
    used = sum(slots.values())
    return hidden, pool[used:]


def play_likelihood(
    plays: list[PastPlay], known: tuple[Card, ...], hidden: list[Card], rng: random.Random
) -> float:
    """A chance, whose mean is how likely a player holding `known` and `hidden` now was to
    make its last `plays`: going back, each hand before a play is the next one minus the card
    drawn after it (for a pile draw, one of the cards of unknown origin, picked at random:
    rejection on this chance is still exact) plus the cards played; players dump their
    heaviest combination (moyen does in 91% of its plays), a lighter one by `deficit` points
    being rarer (`DEFICIT_LIKELIHOOD`); they call YANNIV when they can (`NO_CALL_LIKELIHOOD`)
    and take a discard card for a reason (`_draw_weight`)."""
    known_keys = {c.key for c in known}
    hand = [c.key for c in known] + [c.key for c in hidden]
    weight = 1.0
    for play in reversed(plays):
        if play.source == "discard":
            if play.card is None or play.card.key not in hand:
                break
            hand.remove(play.card.key)
        elif play.source in ("pile", "queen"):
            origin = [k for k in hand if k not in known_keys]
            if not origin:
                break
            hand.remove(origin[rng.randrange(len(origin))])
        if play.offered and play.source in ("pile", "discard"):
            taken = play.card.key if play.source == "discard" and play.card else None
            weight *= _draw_weight(hand, [c.key for c in play.offered], taken)
        played = [c.key for c in play.cards]
        hand = sorted(hand + played)
        value = sum(VALUE[k] for k in played)
        weight *= _deficit_weight(hand, _constraint_code(play.constraint), value, played)
        if play.could_call and sum(VALUE[k] for k in hand) <= LIMIT:
            weight *= NO_CALL_LIKELIHOOD
    return weight


def _draw_weight(hand: list[int], offered: list[int], taken: int | None) -> float:
    """How likely a player holding `hand` after its play was to take `taken` (None: the
    pile) rather than the other `offered` cards, relative to the hand that makes that choice
    likeliest, each offered card judged alone (`TAKEN`)."""
    ranks = {RANK[k] for k in hand}
    weight = 1.0
    for card in offered:
        pair = RANK[card] in ranks
        run = any(k & 3 == card & 3 and abs(RANK[k] - RANK[card]) == 1 for k in hand)
        band = TAKEN[_band(VALUE[card])]
        p = band[pair, run]
        if card == taken:
            weight *= p / max(band.values())
        else:
            weight *= (1.0 - p) / (1.0 - min(band.values()))
    return weight


def _band(value: int) -> int:
    return 0 if value <= 2 else 1 if value <= 4 else 2 if value <= 7 else 3


def _deficit_weight(
    before: list[int], constraint: int, value: int, played: list[int]
) -> float:
    """The chance of this play among the hand's: when it is one of the heaviest, its share
    of their `play_weight` (a King is likelier played from K-5-2 than from K-Q-J, a 10 less
    likely than a King), else small."""
    best, total = heaviest(before, constraint, play_weight)
    deficit = best - value
    if deficit <= 0:
        ranks = sorted(RANK[k] for k in played)
        return play_weight(ranks[0], len(ranks), ranks[0] != ranks[-1]) / total if total else 1.0
    return DEFICIT_LIKELIHOOD[min(deficit, len(DEFICIT_LIKELIHOOD) - 1)]


def play_weight(rank: int, cards: int, run: bool) -> float:
    """How strongly moyen prefers a combination among those of the same heaviest points."""
    if run:
        return TIE_WEIGHT["run"]
    if cards == 1:
        return TIE_WEIGHT.get(rank, 1.0)
    if rank >= 10:
        return TIE_WEIGHT["set-high"]
    return TIE_WEIGHT["set-power" if rank in (4, 6, 7, 8, 9) else "set-low"]


def _constraint_code(constraint: ConstraintSet | None) -> int:
    if constraint is None:
        return FREE
    if constraint.kind == "seven":
        return SEVEN
    return SIX_RED if constraint.colour == "red" else SIX_BLACK


def _caller_hand(
    v: MatchView, caller: int, count: int, hidden: dict[int, list[Card]], pool: list[Card],
    rng: random.Random,
) -> None:
    """The YANNIV caller held 5 points or less: redraw his unknown cards among the low ones
    (swapping them with the cards they replace, wherever those were)."""
    room = 5 - sum(c.value for c in v.players[caller].known_cards)
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
    s.config = MatchConfig(seats=n, manches=v.manches)
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
