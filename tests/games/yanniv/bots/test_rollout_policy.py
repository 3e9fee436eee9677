"""fastsim's rollout policy plays like moyen from what the table shows.

Its plays are engine-legal combinations (checked against the engine's own combination list
and legality, not fastsim's), it weighs what an 8, a Jack or a Queen saves, and its Kings
and 4s never peek at the sampled hands: dealing the cards it cannot see differently (the
same counts everywhere) never changes whom it targets or which rank it asks.
"""

from __future__ import annotations

import random

from tests.games.yanniv.bots.conftest import random_states
from yanniv.games.yanniv.bots import fastsim, rollout
from yanniv.games.yanniv.rules import DECK
from yanniv.games.yanniv.rules.cards import Card
from yanniv.games.yanniv.rules.combos import all_combinations
from yanniv.games.yanniv.rules.legal import playable
from yanniv.games.yanniv.rules.state import Constraint

BY_KEY = {card.key: card for card in DECK}
CONSTRAINTS = {
    fastsim.FREE: None,
    fastsim.SEVEN: Constraint("seven"),
    fastsim.SIX_RED: Constraint("six", "red"),
    fastsim.SIX_BLACK: Constraint("six", "black"),
}


def _key(rank: int, suit: int) -> int:
    return rank * 4 + suit


def _world(hands: list[list[int]], pile: list[int], packets: list[list[int]]) -> fastsim.World:
    prev = packets[-1] if packets else None
    return fastsim.World(
        [sorted(h) for h in hands], pile, packets, [], prev, 0, 1, None, fastsim.FREE,
        [True] * len(hands),
    )


def test_legal_plays_are_the_engines_whole_sets_and_runs() -> None:
    rng = random.Random(8)
    for code, constraint in CONSTRAINTS.items():
        for _ in range(200):
            hand = sorted(c.key for c in rng.sample(DECK, rng.randint(1, 7)))
            cards = tuple(BY_KEY[k] for k in hand)
            engine = {
                tuple(sorted(c)) for c in all_combinations(cards) if playable(c, constraint)
            }
            ours = [tuple(sorted(BY_KEY[k] for k in p)) for p in fastsim.legal_plays(hand, code)]
            assert len(ours) == len(set(ours))
            assert set(ours) <= engine
            # Every legal combination is one of ours or part of a set we play whole.
            for combo in engine:
                ranks = {c.rank for c in combo}
                if len(ranks) > 1:
                    assert combo in ours
                else:
                    assert any(set(combo) <= set(p) and len({c.rank for c in p}) == 1
                               for p in ours)


def test_an_eight_goes_before_a_queen_it_saves_the_draw(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(rollout, "ROLLOUT_DUMP_WEIGHT", 0.6)
    hand = [_key(2, 0), _key(5, 1), _key(8, 2), _key(12, 3)]  # 2, 5, 8, Queen
    w = _world([hand, [_key(9, 0)] * 1, [_key(9, 1)], [_key(9, 2)]], [_key(3, 0)] * 5, [[]])
    sim = fastsim.Sim(random.Random(0))
    assert sim.rollout_play(w, w.hands[0], fastsim.FREE) == [_key(8, 2)]
    monkeypatch.setattr(rollout, "ROLLOUT_DUMP_WEIGHT", 0.0)
    assert sim.rollout_play(w, w.hands[0], fastsim.FREE) == [_key(12, 3)]  # the heaviest


def test_a_pair_is_kept_for_next_turn(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(rollout, "ROLLOUT_DUMP_WEIGHT", 0.6)
    hand = [_key(3, 0), _key(3, 1), _key(6, 2)]  # 3, 3, 6: 6 points either way
    w = _world([hand, [_key(9, 0)], [_key(9, 1)], [_key(9, 2)]], [_key(10, 0)] * 5, [[]])
    sim = fastsim.Sim(random.Random(0))
    assert sim.rollout_play(w, w.hands[0], fastsim.FREE) == [_key(6, 2)]


def test_rollout_plays_are_legal_in_random_states(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(rollout, "ROLLOUT_DUMP_WEIGHT", 0.6)
    sim = fastsim.Sim(random.Random(0))
    codes = {repr(c): code for code, c in CONSTRAINTS.items()}
    checked = 0
    for state in random_states(seed=41, matches=4):
        hand = state.hands[state.turn]
        if state.pending is None or state.pending.kind != "turn" or not hand:
            continue
        constraint = state.turn_constraint
        packets = [[c.key for c in p.cards] for p in state.discard[-6:]]
        w = _world([[c.key for c in h] for h in state.hands], [], packets)
        play = sim.rollout_play(w, sorted(c.key for c in hand), codes[repr(constraint)])
        legal = {tuple(sorted(c)) for c in all_combinations(tuple(hand))
                 if playable(c, constraint)}
        if not legal:
            assert play == []
            continue
        assert tuple(sorted(BY_KEY[k] for k in play)) in legal
        checked += 1
    assert checked > 50


def _reshuffled(w: fastsim.World, seat: int, rng: random.Random) -> fastsim.World:
    """The same table with the cards `seat` cannot see dealt again (same counts)."""
    hidden = [c for t, h in enumerate(w.hands) if t != seat for c in h] + list(w.pile)
    rng.shuffle(hidden)
    hands, pos = [], 0
    for t, h in enumerate(w.hands):
        if t == seat:
            hands.append(list(h))
        else:
            hands.append(sorted(hidden[pos:pos + len(h)]))
            pos += len(h)
    other = w.copy()
    other.hands, other.pile = hands, hidden[pos:]
    return other


def test_kings_and_fours_use_only_what_the_table_shows() -> None:
    rng = random.Random(3)
    sim = fastsim.Sim(random.Random(0))
    checked = 0
    for _ in range(300):
        deck = [c.key for c in DECK]
        rng.shuffle(deck)
        sizes = [rng.randint(1, 6) for _ in range(4)]
        hands, pos = [], 0
        for n in sizes:
            hands.append(deck[pos:pos + n])
            pos += n
        packets = [deck[pos:pos + 2], deck[pos + 2:pos + 3]]
        w = _world(hands, deck[pos + 3:], packets)
        w.caller = rng.choice([None, None, 2])
        choices = {(sim.king_target(x, 0), sim.ask(x, 0))
                   for x in (w, *(_reshuffled(w, 0, rng) for _ in range(4)))}
        assert len(choices) == 1, choices
        checked += sim.ask(w, 0) is not None
    assert checked > 100


def test_an_ask_is_for_a_rank_still_out_of_sight() -> None:
    # Every Ace, 2 and 3 is in sight (in hand or on the discard): no ask for them.
    sim = fastsim.Sim(random.Random(0))
    hand = [_key(1, 0), _key(13, 0)]
    packets = [[_key(1, s) for s in (1, 2, 3)], [_key(2, s) for s in range(4)],
               [_key(3, s) for s in range(4)]]
    w = _world([hand, [_key(5, 0), _key(6, 0)], [_key(5, 1)], [_key(7, 1)]],
               [c.key for c in DECK if c.rank > 3][:20], packets)
    ask = sim.ask(w, 0)
    assert ask is not None and ask[1] > 3
    card: Card = BY_KEY[_key(ask[1], 0)]
    assert card.value < 10
