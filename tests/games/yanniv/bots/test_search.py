"""difficile's fast simulator follows the engine where it matters (legal heaviest plays, manche
scoring), its sampled worlds hold exactly the deck, and its search only overrides moyen's
choice when another beats it in the same worlds by the margin asked."""

from __future__ import annotations

import random

import pytest

from tests.games.yanniv.bots.conftest import random_states
from yanniv.games.yanniv.bots import difficile, fastsim, search
from yanniv.games.yanniv.bots.search import Plan, better_than_first, evaluate, sample_world
from yanniv.games.yanniv.bots.situation import situation
from yanniv.games.yanniv.rules import DECK, view
from yanniv.games.yanniv.rules.actions import CallYanniv, Play
from yanniv.games.yanniv.rules.cards import Card
from yanniv.games.yanniv.rules.cards import cards as cards_of
from yanniv.games.yanniv.rules.combos import all_combinations
from yanniv.games.yanniv.rules.legal import playable
from yanniv.games.yanniv.rules.scoring import manche_outcome
from yanniv.games.yanniv.rules.state import Constraint

BY_KEY = {card.key: card for card in DECK}
CONSTRAINTS = {
    fastsim.FREE: None,
    fastsim.SEVEN: Constraint("seven"),
    fastsim.SIX_RED: Constraint("six", "red"),
    fastsim.SIX_BLACK: Constraint("six", "black"),
}


@pytest.mark.parametrize("code", sorted(CONSTRAINTS))
def test_best_play_is_a_legal_heaviest_combination(code: int) -> None:
    rng = random.Random(code)
    for _ in range(300):
        hand = sorted(c.key for c in rng.sample(DECK, rng.randint(1, 7)))
        cards = tuple(BY_KEY[k] for k in hand)
        legal = [c for c in all_combinations(cards) if playable(c, CONSTRAINTS[code])]
        play = fastsim.best_play(hand, code)
        if not legal:
            assert play == []
            continue
        chosen = tuple(sorted(BY_KEY[k] for k in play))
        assert chosen in {tuple(sorted(c)) for c in legal}
        assert sum(c.value for c in chosen) == max(sum(c.value for c in c_) for c_ in legal)


def test_manche_deltas_follow_the_engine() -> None:
    rng = random.Random(5)
    for _ in range(300):
        deck = list(DECK)
        rng.shuffle(deck)
        hands: list[list[Card]] = [
            sorted(deck[i * 3 : i * 3 + rng.randint(0, 3)]) for i in range(4)
        ]
        caller = rng.choice([None, 0, 1, 2, 3])
        w = fastsim.World(
            [[c.key for c in h] for h in hands], [], [], [], None, 0, 1, caller,
            fastsim.FREE, [True] * 4,
        )
        points = [sum(c.value for c in h) for h in hands]
        winner, tied = manche_outcome(points, [len(h) for h in hands], [0, 1, 2, 3], caller)
        expected = [-5 if t == winner else 0 if t in tied else points[t] for t in range(4)]
        assert fastsim.deltas(w) == expected


def test_sampled_worlds_hold_the_deck_and_the_seat_s_hand() -> None:
    rng = random.Random(2)
    checked = 0
    for state in random_states(seed=17, matches=3, seats=4):
        if state.pending is None or state.pending.kind != "turn":
            continue
        seat = state.turn
        seen = view(state, seat)
        w = sample_world(seen, None, rng)
        assert_whole_deck(w)
        assert w.hands[seat] == [c.key for c in state.hands[seat]]
        assert [len(h) for h in w.hands] == [len(h) for h in state.hands]
        caller = state.yanniv_caller
        if caller is not None and caller != seat:
            assert fastsim.hand_points(w.hands[caller]) <= 5
        # Playing the manche out never loses or duplicates a card.
        sim = fastsim.Sim(random.Random(1))
        sim.finish(w)
        assert_whole_deck(w)
        checked += 1
        if checked == 40:
            break
    assert checked == 40


def assert_whole_deck(w: fastsim.World) -> None:
    """Every card of the deck is in exactly one place of the simulated world."""
    every = [k for h in w.hands for k in h] + w.pile + w.dead
    every += [k for p in w.packets for k in p]
    assert sorted(every) == sorted(c.key for c in DECK)


def test_search_scores_every_plan_in_the_same_worlds() -> None:
    state = next(
        s for s in random_states(seed=4, matches=2, seats=4)
        if s.pending is not None and s.pending.kind == "turn" and len(s.hands[s.turn]) >= 3
    )
    seen = view(state, state.turn)
    plays = [Plan(play=(c.key,)) for c in state.hands[state.turn][:2]]
    results = evaluate(seen, None, random.Random(0), plays, 0, 12, 12)
    assert [len(r) for r in results] == [12, 12]


def test_search_stops_on_work_done_not_on_time() -> None:
    """The budget is counted in work units: a search stops at the first world that reaches
    it, the same rng gives the same worlds, and a larger budget only adds worlds after them."""
    state = next(
        s for s in random_states(seed=4, matches=2, seats=4)
        if s.pending is not None and s.pending.kind == "turn" and len(s.hands[s.turn]) >= 3
    )
    seen = view(state, state.turn)
    plays = [Plan(play=(c.key,)) for c in state.hands[state.turn][:3]]
    runs = []
    for budget in (400, 400, 1200):
        spent = search.Work()
        results = evaluate(seen, None, random.Random(7), plays, budget, 1000, 1, spent)
        assert spent.units >= budget and spent.playouts == spent.worlds * len(plays)
        assert spent.steps >= spent.playouts  # every playout plays its turn at least
        runs.append((results, spent))
    (small, spent), (again, spent_again), (large, spent_large) = runs
    assert again == small and spent_again == spent
    assert 1 < spent.worlds < spent_large.worlds
    assert [r[: spent.worlds] for r in large] == small
    # The last world started below the budget: without it the work was under it.
    last = search.Work()
    evaluate(seen, None, random.Random(7), plays, 0, spent.worlds - 1, spent.worlds - 1, last)
    assert last.units < 400


def test_search_keeps_the_prior_choice_without_clear_evidence() -> None:
    first = [0.0, 1.0, -1.0, 0.5] * 5
    assert better_than_first([first, [x + 0.05 for x in first]], 2.0) == 1  # better in every world
    noisy = [x + (3.0 if i % 2 else -2.5) for i, x in enumerate(first)]
    assert better_than_first([first, noisy], 2.0) == 0  # +0.25 on average, but noisy
    better = [x + 2.0 + 0.1 * (i % 3) for i, x in enumerate(first)]
    assert better_than_first([first, noisy, better], 2.0) == 2


def test_draw_plans_finish_the_turn_without_losing_a_card() -> None:
    rng = random.Random(8)
    checked = 0
    for state in random_states(seed=19, matches=4, seats=4):
        if state.pending is None or state.pending.kind != "draw":
            continue
        seen = view(state, state.turn)
        takes = [c.key for c in seen.takeable] or [fastsim.PILE]
        for take in (fastsim.PILE, takes[0]):
            w = sample_world(seen, None, rng)
            before = len(w.hands[state.turn])
            sim = fastsim.Sim(random.Random(1))
            power = seen.turn_power or 0
            count = sum(1 for c in seen.turn_play if c.rank == power)
            sim.after_play(w, w.packets[-1], power, count, take)
            assert len(w.hands[state.turn]) <= before + 1
            assert_whole_deck(w)
        checked += 1
        if checked == 30:
            break
    assert checked == 30


def test_difficile_searches_every_play_only_during_another_players_last_lap() -> None:
    """Outside a last lap only moyen's close plays are searched; during one, every play (up to
    LAP_TOP) is, since playouts then end within a lap and are nearly exact."""
    bot = difficile.Difficile(0, 0)
    lap = calm = 0
    for state in random_states(seed=23, matches=30, seats=4):
        if state.pending is None or state.pending.kind != "turn":
            continue
        seat = state.turn
        seen = view(state, seat)
        plays = [a for a in seen.legal_actions if isinstance(a, Play)]
        bot.seat = seat
        found = bot._candidates(seen, situation(seen))
        assert set(found) <= set(plays)
        if state.yanniv_caller is not None and state.yanniv_caller != seat:
            assert len(found) == min(len(plays), difficile.LAP_TOP)
            lap += 1
        elif len(found) < min(len(plays), difficile.LAP_TOP):
            calm += 1
    assert lap >= 5 and calm >= 5


def _keys(codes: str) -> list[int]:
    return sorted(c.key for c in cards_of(codes))


def test_a_four_ask_hands_over_the_rank_and_puts_a_received_four_down() -> None:
    w = fastsim.World(
        [_keys("KS 9C 2D"), _keys("4S 8H"), _keys("AC"), _keys("5D")], [], [_keys("4H")], [],
        None, 0, 1, None, fastsim.FREE, [True] * 4,
    )
    sim = fastsim.Sim(random.Random(0))
    sim.four_ask(w, 0, 1, 4)  # the 4 is received, the King given, the 4 put down at once
    assert w.hands[0] == _keys("9C 2D")
    assert w.hands[1] == _keys("KS 8H")
    assert w.packets[-1] == _keys("4H") + _keys("4S")
    sim.four_ask(w, 0, 2, 3)  # no 3 there: nothing moves
    assert w.hands[0] == _keys("9C 2D") and w.hands[2] == _keys("AC")
    sim.four_ask(w, 0, 2, 1)  # an Ace for the heaviest card
    assert w.hands[0] == _keys("AC 2D") and w.hands[2] == _keys("9C")


def test_a_king_swap_gives_one_card_and_takes_one_at_random() -> None:
    for seed in range(20):
        w = fastsim.World(
            [_keys("KS 9C 2D"), _keys("4S 8H"), [], []], [], [_keys("KH")], [], None, 0, 1,
            None, fastsim.FREE, [True, True, False, False],
        )
        fastsim.Sim(random.Random(seed)).king_swap(w, 0, _keys("9C")[0], 1)
        assert sorted(w.hands[0] + w.hands[1]) == _keys("KS 9C 2D 4S 8H")
        assert len(w.hands[0]) == 3 and len(w.hands[1]) == 2
        assert set(_keys("KS 2D")) <= set(w.hands[0])


def test_queen_keep_plans_return_every_drawn_card() -> None:
    """At a Queen's keep the drawn cards are out of the sampled world; each plan puts one in
    the hand and the others back on the pile, so no card is lost or doubled."""
    checked = 0
    for state in random_states(seed=29, matches=40, seats=4):
        if state.pending is None or state.pending.kind != "queen_keep":
            continue
        seen = view(state, state.turn)
        options = difficile._keep_options(seen)
        assert options and set(options) <= set(seen.legal_actions)
        results = evaluate(seen, None, random.Random(0),
                           [difficile._power_plan(a) for a in options], 0, 4, 4)
        assert [len(r) for r in results] == [4] * len(options)
        w = sample_world(seen, None, random.Random(1))
        search._power_step(fastsim.Sim(random.Random(2)), w, difficile._power_plan(options[0]),
                           12, 0)
        assert_whole_deck(w)
        checked += 1
        if checked == 10:
            break
    assert checked == 10


def test_difficile_searches_the_call_only_in_the_last_manche() -> None:
    """YANNIV is called at once in earlier manches; in the last one (manches=2, the second)
    the call is searched against the plays, and a call is still what is chosen most."""
    calls: dict[bool, list[bool]] = {False: [], True: []}
    for state in random_states(seed=31, matches=40, seats=4):
        if state.pending is None or state.pending.kind != "turn":
            continue
        seen = view(state, state.turn)
        if CallYanniv() not in seen.legal_actions or len(seen.legal_actions) < 2:
            continue
        bot = difficile.Difficile(state.turn, 0)
        action = bot.decide(seen)
        last = seen.tiebreak or seen.manche >= seen.manches
        assert (bot.work_spent().playouts > 0) == last
        calls[last].append(action == CallYanniv())
    assert all(calls[False]) and len(calls[False]) >= 5
    assert len(calls[True]) >= 5 and sum(calls[True]) > len(calls[True]) / 2
