"""Every level returns a legal action for every kind of decision, in full matches and in
states reached by random play (where odd decisions such as 4s and Queens come up often)."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.games.yanniv.bots.conftest import random_states
from yanniv.games.yanniv.bots import LEVELS, choose_action, make_bot
from yanniv.games.yanniv.rules import view
from yanniv.games.yanniv.rules.ruleset import YANNIV, Ruleset
from yanniv.tools.tournament import play_match

OPTIONS = Ruleset(mandatory_powers=False, play_taken_discard=True)


@pytest.mark.parametrize("rules", [YANNIV, OPTIONS], ids=["mandatory", "optional"])
@pytest.mark.parametrize("level", sorted(LEVELS))
def test_levels_decide_legally_in_random_states(level: str, rules: Ruleset) -> None:
    kinds: Counter[str] = Counter()
    for count, state in enumerate(random_states(seed=5, matches=3, seats=4, rules=rules)):
        if count % 3:
            continue
        seat = state.to_act
        assert seat is not None
        seen = view(state, seat)
        action = make_bot(level, seat, 1).decide(seen)
        assert action in seen.legal_actions
        kinds[seen.pending.kind] += 1  # type: ignore[union-attr]
    assert {"turn", "draw", "king", "four_ask", "queen_keep"} <= set(kinds)


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_full_matches_against_each_other(level: str) -> None:
    """`play_match` applies every decision, so an illegal one would raise."""
    stats = play_match((level, "facile", "moyen"), index=1, seed=3, manches=2)
    assert stats.winner in {level, "facile", "moyen"}
    assert stats.times[level]


def test_choose_action_without_memory() -> None:
    for state in random_states(seed=9, matches=1, seats=3):
        seat = state.to_act
        assert seat is not None
        seen = view(state, seat)
        assert choose_action("moyen", seen) in seen.legal_actions


def test_human_delay_is_short_but_not_instant() -> None:
    from yanniv.games.yanniv.bots import human_delay

    for state in random_states(seed=2, matches=1, seats=2):
        seat = state.to_act
        assert seat is not None
        assert 0.2 <= human_delay(view(state, seat)) <= 2.5
