"""What a seat can work out from its view and memory before deciding: the unseen cards,
an estimate of each opponent's hand, who plays next, who called YANNIV."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from math import comb

from yanniv.games.yanniv.bots.hands import mean_value, value
from yanniv.games.yanniv.bots.tracker import Tracker, unseen_cards
from yanniv.games.yanniv.rules.cards import Card
from yanniv.games.yanniv.rules.ruleset import YANNIV, Ruleset
from yanniv.games.yanniv.rules.view import MatchView


@dataclass(slots=True)
class Opponent:
    seat: int
    count: int
    known: tuple[Card, ...]
    unknown: int
    #: Expected hand value: known cards plus the mean unseen card for each unknown one.
    estimate: float


@dataclass(slots=True)
class Situation:
    hand: tuple[Card, ...]
    pool: list[Card]
    mean: float
    opponents: dict[int, Opponent]
    next_seat: int
    #: The active seat before the turn's player (next after a change of direction).
    prev_seat: int
    caller: int | None
    #: Weight of next turn's dump in hand comparisons: lower as the manche's end nears.
    dw: float = 0.6
    #: During another player's last lap: (points, cards) -> expected manche score.
    lap: Callable[[int, int], float] | None = None
    #: Extra weight of hurting each opponent: the match leaders, late in the match.
    lead: dict[int, float] = field(default_factory=dict)
    #: The match's rules (the YANNIV limit, the winner's bonus).
    rules: Ruleset = YANNIV

    def p_has_rank(self, seat: int, rank: int, tracker: Tracker | None = None) -> float:
        """Chance that `seat` holds a card of `rank`, given what this seat knows."""
        opp = self.opponents[seat]
        if any(c.rank == rank for c in opp.known):
            return 1.0
        if tracker is not None and any(
            f.label == f"rank-{rank}" and f.slack == 0 for f in tracker.lacks.get(seat, ())
        ):
            return 0.0
        n = len(self.pool)
        m = sum(1 for c in self.pool if c.rank == rank)
        u = min(opp.unknown, n)
        if u <= 0 or m == 0:
            return 0.0
        return 1.0 - comb(n - m, u) / comb(n, u)


def next_active(v: MatchView, seat: int, direction: int | None = None) -> int:
    step = v.direction if direction is None else direction
    candidate = seat
    for _ in range(v.seats):
        candidate = (candidate + step) % v.seats
        if v.players[candidate].active:
            return candidate
    return seat


def situation(v: MatchView) -> Situation:
    hand = tuple(v.hand or ())
    pool = unseen_cards(v)
    mean = mean_value(pool)
    opponents = {}
    for p in v.players:
        if p.seat == v.viewer or not p.active:
            continue
        unknown = p.card_count - len(p.known_cards)
        opponents[p.seat] = Opponent(
            seat=p.seat,
            count=p.card_count,
            known=p.known_cards,
            unknown=unknown,
            estimate=value(p.known_cards) + unknown * mean,
        )
    caller = v.yanniv_caller
    if caller is not None:
        dw = 0.0
    elif any(o.count <= 2 or o.estimate <= 9 for o in opponents.values()):
        dw = DW_NEAR
    else:
        dw = DW_FAR
    lap = None
    if caller is not None and caller != v.viewer and caller in opponents:
        lap = last_lap_score(opponents[caller], pool, random.Random(v.step), v.rules)
    lead: dict[int, float] = {}
    if v.manche >= 3 and opponents:
        best = min(v.scores[t] for t in opponents)
        if best <= v.scores[v.viewer]:
            lead = {t: 0.5 for t in opponents if v.scores[t] == best}
    return Situation(
        lead=lead,
        hand=hand,
        pool=pool,
        mean=mean,
        opponents=opponents,
        next_seat=next_active(v, v.turn),
        prev_seat=next_active(v, v.turn, -v.direction),
        caller=caller,
        dw=dw,
        lap=lap,
        rules=v.rules,
    )


LAP_SAMPLES = 200
#: Weight of next turn's dump when an opponent is close to calling, and otherwise. Measured
#: against facile, 1000 matches per seed: far 0.8 over 0.6, +0.13 and +0.27 point per manche
#: (seeds 11, 12); near 0.5 over 0.3, +0.07, +0.36 and -0.02 (seeds 11, 12, 14).
DW_NEAR = 0.5
DW_FAR = 0.8


def last_lap_score(
    caller: Opponent, pool: list[Card], rng: random.Random, rules: Ruleset = YANNIV
) -> Callable[[int, int], float]:
    """Expected manche score of ending the last lap with (points, cards): the winner's bonus
    when below the caller (or equal with fewer cards), else the points. The caller's hidden
    cards are sampled from the unseen ones, his hand being within the limit when he called."""
    bonus = float(rules.winner_bonus)
    room = rules.call_limit - value(caller.known)
    low = [c for c in pool if c.value <= room]
    samples: list[tuple[int, int]] = []
    if caller.unknown <= 0 or room < 0 or len(low) < caller.unknown:
        samples.append((value(caller.known), caller.count))
    else:
        for _ in range(LAP_SAMPLES):
            hidden = rng.sample(low, caller.unknown)
            total = value(hidden)
            if total <= room:
                samples.append((total + value(caller.known), caller.count))
        if not samples:
            samples.append((value(caller.known) + room, caller.count))
    cache: dict[tuple[int, int], float] = {}

    def score(points: int, cards: int) -> float:
        key = (points, cards)
        if key not in cache:
            wins = sum(1 for cv, cc in samples if points < cv or (points == cv and cards < cc))
            p = wins / len(samples)
            cache[key] = p * bonus + (1 - p) * points
        return cache[key]

    return score


def expected_min(values: list[float], k: int) -> float:
    """Expected minimum of `k` values drawn without replacement from `values`."""
    n = len(values)
    if n == 0:
        return 6.5
    k = max(1, min(k, n))
    ordered = sorted(values)
    total = comb(n, k)
    return sum(x * comb(n - i - 1, k - 1) for i, x in enumerate(ordered)) / total
