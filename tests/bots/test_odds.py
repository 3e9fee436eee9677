"""Near the match's end difficile's playouts are scored by the chance to win the match: exact
in the last manche, a normal model of the manches left before it. And difficile searches
whether to call YANNIV."""

from __future__ import annotations

import dataclasses

import pytest

from tests.bots.conftest import random_states
from yanniv.bots import difficile
from yanniv.bots.odds import MatchStakes, win_chance
from yanniv.bots.search import Plan
from yanniv.bots.situation import situation
from yanniv.engine import legal_actions, view
from yanniv.engine.actions import CallYanniv, Play


def test_the_last_manche_scores_the_match_exactly() -> None:
    assert win_chance([40, 45, 90, 99], 0, [1, 2, 3], 0) == 1.0
    assert win_chance([46, 45, 90, 99], 0, [1, 2, 3], 0) == 0.0
    assert win_chance([45, 45, 90, 99], 0, [1, 2, 3], 0) == 0.5  # a tiebreak between two
    assert win_chance([45, 45, 45, 99], 0, [1, 2], 0) == pytest.approx(1 / 3)


def test_manches_left_are_a_fair_race_between_equals() -> None:
    assert win_chance([30, 30], 0, [1], 2) == pytest.approx(0.5, abs=1e-3)
    assert win_chance([30, 30, 30, 30], 2, [0, 1, 3], 3) == pytest.approx(0.25, abs=1e-3)


def test_a_lead_is_worth_less_with_more_manches_left() -> None:
    ahead = [20, 30, 30, 30]
    assert win_chance(ahead, 0, [1, 2, 3], 1) > win_chance(ahead, 0, [1, 2, 3], 4) > 0.25
    behind = [40, 30, 30, 30]
    assert win_chance(behind, 0, [1, 2, 3], 1) < win_chance(behind, 0, [1, 2, 3], 4) < 0.25


def test_only_close_rivals_matter() -> None:
    """A player 80 points behind changes nothing; the one level with us does."""
    alone = win_chance([30, 32, 0, 0], 0, [1], 1)
    assert win_chance([30, 32, 110, 0], 0, [1, 2], 1) == pytest.approx(alone, abs=1e-6)
    assert win_chance([30, 32, 30, 0], 0, [1, 2], 1) < alone - 0.1


def test_stakes_turn_manche_deltas_into_the_match_outcome() -> None:
    """Last manche, 2 points ahead of the second: ending on +5 against his -5 loses, on +5
    against his +8 wins, whatever the player far behind does."""
    stakes = MatchStakes((50, 52, 90, 95), 0, [True] * 4, 0)
    assert stakes([5, -5, 10, 10]) == 0.0
    assert stakes([5, 8, -5, 10]) == 1.0


def test_difficile_plays_for_the_match_near_its_end() -> None:
    """Stakes from the last manche but one; in the last manche every play is searched."""
    bot = difficile.Difficile(0, 0)
    last = 0
    for state in random_states(seed=31, matches=10, seats=4):  # matches of 2 manches
        if state.pending is None or state.pending.kind != "turn" or state.tiebreak:
            continue
        seen = view(state, state.turn)
        assert difficile.match_stakes(seen) is not None
        early = dataclasses.replace(seen, manches=seen.manche + 2)
        assert difficile.match_stakes(early) is None
        if state.manche == 2:
            plays = [a for a in seen.legal_actions if isinstance(a, Play)]
            bot.seat = state.turn
            found = bot._candidates(seen, situation(seen))
            assert len(found) == min(len(plays), difficile.LAP_TOP)
            last += 1
    assert last >= 5


def test_difficile_weighs_calling_yanniv_against_its_plays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Calling is the first plan, the prior: it stands unless a play clearly scores better
    in the same worlds."""
    seen_plans: list[list[Plan]] = []

    def rigged_search(gain: float) -> object:
        def evaluate(*args: object) -> list[list[float]]:
            plans = args[3]
            assert isinstance(plans, list)
            seen_plans.append(plans)
            return [[0.0, 1.0] * 5] + [[gain, 1.0 + gain] * 5 for _ in plans[1:]]
        return evaluate

    state = next(
        s for s in random_states(seed=37, matches=40, seats=4)
        if s.pending is not None and CallYanniv() in legal_actions(s)
        and sum(isinstance(a, Play) for a in legal_actions(s)) >= 2
    )
    seen = view(state, state.turn)
    bot = difficile.Difficile(state.turn, 0)
    monkeypatch.setattr(difficile, "evaluate", rigged_search(3.0))
    chosen = bot.decide(seen)
    assert isinstance(chosen, Play) and chosen in seen.legal_actions
    assert seen_plans[-1][0] == Plan(call=True)
    monkeypatch.setattr(difficile, "evaluate", rigged_search(-3.0))
    assert bot.decide(seen) == CallYanniv()
