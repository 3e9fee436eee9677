"""What a manche's outcome is worth for winning the match, not only in points.

A bot is measured by the matches it wins, and the lowest total after the last manche wins:
ten points matter when they change who leads the last manche, hardly when the match is
already won or lost. So `difficile`'s search can score a playout by an estimate of its win
chance: for each opponent, the chance that the viewer still ends below him, the remaining
manches adding a normal spread of `SIGMA` points per manche to the gap (a product over the
opponents, as if independent); in the last manche (or a tiebreak) the gap itself decides,
equal totals counting one half (a tiebreak). With many manches left this is nearly linear
in the points, like the plain points score; a small share of that score (`POINTS`) breaks
the ties where no playout changes who wins.
"""

from __future__ import annotations

from collections.abc import Callable
from math import erf, sqrt

from yanniv.games.yanniv.rules.view import MatchView

#: Standard deviation of the difference of two players' manche deltas, measured on 30
#: matches of four `moyen` (1080 pairs, 4 seats, default rules): 12.3 points.
SIGMA = 12.0
#: Weight of the plain points score (others' mean delta minus one's own) beside the chance.
POINTS = 1e-3

Utility = Callable[[list[int], list[bool]], float]


def relative(result: list[int], seat: int, active: list[bool]) -> float:
    """Others' mean manche delta minus the seat's own (the points score)."""
    others = [result[t] for t in range(len(result)) if t != seat and active[t]]
    return sum(others) / len(others) - result[seat] if others else 0.0


def points_utility(seat: int) -> Utility:
    """The points score alone."""
    return lambda result, active: relative(result, seat, active)


def win_utility(v: MatchView) -> Utility:
    """The viewer's estimated win chance once a manche ends with `result` (its deltas),
    plus `POINTS` times the points score."""
    seat = v.viewer
    assert seat is not None
    scores = v.scores
    left = 0 if v.tiebreak else max(0, v.manches - v.manche)
    scale = SIGMA * sqrt(2 * left)  # erf's argument: gap / (spread * sqrt 2)

    def utility(result: list[int], active: list[bool]) -> float:
        mine = scores[seat] + result[seat]
        chance = 1.0
        for t in range(len(result)):
            if t != seat:
                gap = scores[t] + result[t] - mine
                if scale:
                    chance *= 0.5 * (1.0 + erf(gap / scale))
                elif gap <= 0:
                    chance *= 0.5 if gap == 0 else 0.0
        return chance + POINTS * relative(result, seat, active)

    return utility
