"""difficile's win-chance score: in the last manche only who ends lowest counts; with many
manches left it follows the points; a tiebreak counts as a half."""

from __future__ import annotations

import dataclasses
import random

from tests.games.yanniv.bots.conftest import random_states
from yanniv.games.yanniv.bots.standing import POINTS, win_utility
from yanniv.games.yanniv.rules import view
from yanniv.games.yanniv.rules.view import MatchView

ALL = [True] * 4


def a_view(manche: int, manches: int, scores: tuple[int, ...], tiebreak: bool = False) -> MatchView:
    state = next(s for s in random_states(seed=3, matches=1) if s.pending is not None)
    v = view(state, 0)
    return dataclasses.replace(v, manche=manche, manches=manches, scores=scores,
                               tiebreak=tiebreak)


def test_last_manche_counts_only_who_ends_lowest() -> None:
    u = win_utility(a_view(6, 6, (40, 30, 50, 60)))
    # 40 + 0 against 30 + 12: the viewer ends lowest, by a point or by twenty.
    assert abs(u([0, 12, 0, 0], ALL) - 1) < 20 * POINTS
    assert abs(u([-5, 30, 10, 10], ALL) - 1) < 30 * POINTS
    # He ends above seat 1: no chance, however few points he lost.
    assert abs(u([0, 5, 0, 0], ALL)) < 10 * POINTS
    # Equal totals with the lowest other: a tiebreak, half a chance.
    assert abs(u([0, 10, 0, 0], ALL) - 0.5) < 10 * POINTS


def test_tiebreak_is_a_last_manche() -> None:
    u = win_utility(a_view(7, 6, (30, 30, 50, 60), tiebreak=True))
    assert u([-5, 3, 0, 0], [True, True, False, False]) > 0.99
    assert u([3, -5, 0, 0], [True, True, False, False]) < 0.01


def test_early_manches_follow_the_points() -> None:
    u = win_utility(a_view(1, 6, (0, 0, 0, 0)))
    rng = random.Random(4)
    for _ in range(200):
        others = [rng.randint(-5, 30) for _ in range(3)]
        mine = rng.randint(-5, 25)
        better = u([mine, *others], ALL)
        worse = u([mine + rng.randint(1, 10), *others], ALL)
        assert worse < better
    # Even with the match ahead, a large lead is worth more than a small one, not everything.
    assert u([0, 0, 0, 0], ALL) < u([-5, 0, 0, 0], ALL) < u([-5, 20, 20, 20], ALL) < 0.9
