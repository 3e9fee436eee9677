"""Helpers for the bot tests: reach many varied states quickly with the random policy."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from yanniv.games.yanniv.bots import difficile
from yanniv.games.yanniv.rules import MatchConfig, MatchState, apply, legal_actions, new_match
from yanniv.games.yanniv.rules.ruleset import YANNIV, Ruleset


@pytest.fixture(autouse=True)
def quick_difficile(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep the search tiny in tests: legality and honesty do not depend on its depth."""
    monkeypatch.setattr(difficile.Difficile, "work", 0)
    monkeypatch.setattr(difficile.Difficile, "max_worlds", 3)
    monkeypatch.setattr(difficile, "MIN_WORLDS", 3)


def random_states(
    seed: int, matches: int, seats: int = 4, rules: Ruleset = YANNIV
) -> Iterator[MatchState]:
    """Every state met while random players play `matches` short matches."""
    rng = random.Random(seed)
    for index in range(matches):
        config = MatchConfig(seats=seats, manches=2, rules=rules)
        state = new_match(config, f"{seed}/{index}")
        while not state.finished:
            yield state
            state, _ = apply(state, rng.choice(legal_actions(state)))
