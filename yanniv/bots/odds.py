"""The chance of winning the match from the totals after a manche, for a search's playouts.

A match is won by the lowest total, not by the mean gap to the others: near the end, a point
taken from the closest rival is worth more than one taken from a player far behind, and
points no longer matter once the match is settled. With `remaining` manches still to play
after this one, each seat's future points are modelled as independent normal draws of
`SIGMA` per manche (measured: a seat's manche delta has a standard deviation of 7.9 when four
moyen play, 2404 manches); with none left the outcome is exact (a tie for the lead goes to a
tiebreak manche, counted as an even share).
"""

from __future__ import annotations

from math import erf, exp, sqrt

#: Standard deviation of one seat's manche delta.
SIGMA = 8.0
#: Integration grid for the viewer's own future points, in standard deviations.
_GRID = [i / 4 for i in range(-16, 17)]
_WEIGHTS = [exp(-z * z / 2) for z in _GRID]
_NORM = sum(_WEIGHTS)


def _above(x: float) -> float:
    """P(Z > x) for a standard normal Z."""
    return 0.5 * (1.0 - erf(x / sqrt(2.0)))


def win_chance(totals: list[int], seat: int, rivals: list[int], remaining: int) -> float:
    """The chance that `seat` ends the match with a lower total than every rival."""
    mine = totals[seat]
    if remaining <= 0:
        low = min(totals[r] for r in rivals)
        if mine < low:
            return 1.0
        if mine > low:
            return 0.0
        return 1.0 / (1 + sum(1 for r in rivals if totals[r] == mine))
    sd = SIGMA * sqrt(remaining)
    gaps = [(mine - totals[r]) / sd for r in rivals]
    total = 0.0
    for z, weight in zip(_GRID, _WEIGHTS, strict=True):
        chance = weight
        for gap in gaps:
            chance *= _above(gap + z)
        total += chance
    return total / _NORM


class MatchStakes:
    """Scores a playout's manche deltas by the viewer's chance of winning the match (cached:
    a decision's playouts end on few distinct totals)."""

    def __init__(self, scores: tuple[int, ...], seat: int, active: list[bool], remaining: int):
        self.scores = scores
        self.seat = seat
        self.rivals = [t for t in range(len(scores)) if t != seat and active[t]]
        self.remaining = remaining
        self._cache: dict[tuple[int, ...], float] = {}

    def __call__(self, deltas: list[int]) -> float:
        key = tuple(deltas)
        found = self._cache.get(key)
        if found is None:
            totals = [s + d for s, d in zip(self.scores, deltas, strict=True)]
            found = win_chance(totals, self.seat, self.rivals, self.remaining)
            self._cache[key] = found
        return found
