"""What a seat can work out from its view and memory before deciding: the unseen cards,
an estimate of each opponent's hand, who plays next, who called YANNIV."""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

from yanniv.bots.hands import mean_value, value
from yanniv.bots.tracker import Tracker, unseen_cards
from yanniv.engine.cards import Card
from yanniv.engine.view import MatchView


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
    caller: int | None
    #: Weight of next turn's dump in hand comparisons: lower as the manche's end nears.
    dw: float = 0.6

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
        dw = 0.3
    else:
        dw = 0.6
    return Situation(
        hand=hand,
        pool=pool,
        mean=mean,
        opponents=opponents,
        next_seat=next_active(v, v.turn),
        caller=caller,
        dw=dw,
    )


def expected_min(values: list[float], k: int) -> float:
    """Expected minimum of `k` values drawn without replacement from `values`."""
    n = len(values)
    if n == 0:
        return 6.5
    k = max(1, min(k, n))
    ordered = sorted(values)
    total = comb(n, k)
    return sum(x * comb(n - i - 1, k - 1) for i, x in enumerate(ordered)) / total
