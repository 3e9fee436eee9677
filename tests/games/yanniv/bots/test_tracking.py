"""Card tracking and determinization: sampled worlds agree with everything the seat knows."""

from __future__ import annotations

import random

from tests.games.yanniv.bots.conftest import random_states
from yanniv.games.yanniv.bots.determinize import determinize
from yanniv.games.yanniv.bots.tracker import Tracker
from yanniv.games.yanniv.rules import DECK, legal_actions, view
from yanniv.games.yanniv.rules.events import Drew, FourAnswered, MancheStarted


def test_worlds_are_consistent_with_the_view() -> None:
    rng = random.Random(1)
    for count, state in enumerate(random_states(seed=3, matches=2, seats=4)):
        if count % 4:
            continue
        seat = state.to_act
        assert seat is not None
        seen = view(state, seat)
        world = determinize(seen, None, rng)
        assert set(legal_actions(world)) == set(seen.legal_actions)
        assert world.hands[seat] == state.hands[seat]
        assert len(world.pile) == len(state.pile)
        for player in seen.players:
            assert len(world.hands[player.seat]) == player.card_count
            assert set(player.known_cards) <= set(world.hands[player.seat])
        cards = [c for h in world.hands for c in h] + list(world.pile)
        cards += [c for p in world.discard for c in p.cards]
        if state.pending is not None and state.pending.kind == "queen_keep":
            cards += list(state.pending.cards)
        assert sorted(cards) == sorted(DECK)


def test_a_no_to_a_four_is_remembered_until_the_hand_changes() -> None:
    tracker = Tracker(seat=0)
    tracker.observe([FourAnswered(seat=2, asker=1, rank=5, given=False, card=None)])
    assert [fact.label for fact in tracker.lacks[2]] == ["rank-5"]
    tracker.observe([Drew(seat=2, source="pile", card=None)])
    assert tracker.lacks[2][0].slack == 1
    tracker.observe([MancheStarted(manche=2, tiebreak=False, starter=0, participants=(0, 1, 2),
                                   flipped=DECK[0])])
    assert not tracker.lacks
