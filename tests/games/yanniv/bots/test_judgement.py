"""What the measured choices of the bots rest on: calling at every chance, the caller's hand
under 5 points in sampled worlds, the last lap scored against the caller, and difficile's 4
asks."""

from __future__ import annotations

import random

import pytest

from tests.games.yanniv.bots.conftest import random_states
from yanniv.games.yanniv.bots import difficile, make_bot
from yanniv.games.yanniv.bots.determinize import determinize
from yanniv.games.yanniv.bots.situation import Opponent, last_lap_score
from yanniv.games.yanniv.rules import (
    DECK,
    CallYanniv,
    DrawPile,
    MatchState,
    Play,
    apply,
    knowledge,
    view,
)
from yanniv.games.yanniv.rules.actions import AskFour
from yanniv.games.yanniv.rules.cards import cards
from yanniv.games.yanniv.rules.rigging import rigged


def _states(predicate, limit: int) -> list[MatchState]:  # type: ignore[no-untyped-def]
    found = []
    for state in random_states(seed=13, matches=12, seats=4):
        if predicate(state):
            found.append(state)
            if len(found) == limit:
                break
    return found


def test_moyen_and_difficile_call_at_every_chance() -> None:
    states = _states(lambda s: CallYanniv() in view(s, s.to_act).legal_actions, 5)
    assert states
    for state in states:
        seat = state.to_act
        for level in ("moyen", "difficile"):
            assert make_bot(level, seat, 0).decide(view(state, seat)) == CallYanniv()


def test_sampled_worlds_give_the_caller_at_most_five_points() -> None:
    def last_lap(s: MatchState) -> bool:
        caller = s.yanniv_caller
        return (
            caller is not None and s.to_act != caller
            and sum(c.value for c in s.hands[caller]) <= 5
            and len(s.hands[caller]) > len(s.known[s.to_act][caller])
        )

    states = _states(last_lap, 4)
    assert states
    rng = random.Random(3)
    for state in states:
        seen = view(state, state.to_act)
        caller = state.yanniv_caller
        assert caller is not None
        for _ in range(20):
            world = determinize(seen, None, rng)
            assert sum(c.value for c in world.hands[caller]) <= 5
            assert len(world.hands[caller]) == len(state.hands[caller])
            every = [c for h in world.hands for c in h] + list(world.pile)
            every += [c for p in world.discard for c in p.cards]
            if world.pending is not None and world.pending.kind == "queen_keep":
                every += world.pending.cards  # drawn with a Queen, neither in hand nor pile
            assert sorted(every) == sorted(DECK)


def test_last_lap_score_rewards_ending_below_the_caller() -> None:
    caller = Opponent(seat=1, count=1, known=(), unknown=1, estimate=3.0)
    pool = list(cards("AS 2S 3S 4S 5S TS KS"))
    score = last_lap_score(caller, pool, random.Random(1))
    assert score(0, 0) == -5.0  # nothing beats an empty hand
    assert score(9, 2) == 9.0  # no caller's hand of at most 5 is above 9
    assert score(0, 0) < score(2, 1) < score(6, 1)


def test_difficile_asks_for_a_four_it_can_put_down_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seat 0 knows seat 1 holds a 4 and seat 2 a 3. moyen asks for the 3 (a lighter card);
    a received 4 goes straight down, so asking for it sheds the King outright, and the search
    sees it in every world."""
    monkeypatch.setattr(difficile.Difficile, "max_worlds", 200)
    monkeypatch.setattr(difficile, "MIN_WORLDS", 200)
    state = rigged(["4H KS 9C 2D 7S", "4S 8H 9D", "3S JD QD", "5D 6C TC"])
    state.known = knowledge.learn(state.known, 0, 1, cards("4S")[0])
    state.known = knowledge.learn(state.known, 0, 2, cards("3S")[0])
    state, _ = apply(state, Play(cards("4H")))
    state, _ = apply(state, DrawPile())
    seen = view(state, 0)
    assert seen.pending is not None and seen.pending.kind == "four_ask"
    assert make_bot("moyen", 0, 0).decide(seen) == AskFour(2, 3)
    assert make_bot("difficile", 0, 0).decide(seen) == AskFour(1, 4)
