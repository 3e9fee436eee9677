"""Card tracking and determinization: sampled worlds agree with everything the seat knows."""

from __future__ import annotations

import random

import pytest

from tests.bots.conftest import random_states
from yanniv.bots.determinize import (
    DEFICIT_LIKELIHOOD,
    NO_CALL_LIKELIHOOD,
    determinize,
    play_likelihood,
    sample_hidden,
)
from yanniv.bots.registry import make_bot
from yanniv.bots.tracker import PastPlay, Tracker
from yanniv.engine import (
    DECK,
    MatchConfig,
    MatchState,
    apply,
    legal_actions,
    redact,
    start_match,
    view,
)
from yanniv.engine.cards import Card
from yanniv.engine.events import (
    ConstraintSet,
    Drew,
    FourAnswered,
    KingSwapped,
    MancheStarted,
    Played,
    YannivCalled,
)
from yanniv.engine.view import MatchView


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


def _cards(codes: str) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in codes.split())


def test_plays_are_remembered_while_only_their_own_draws_change_the_hand() -> None:
    tracker = Tracker(seat=0)
    tracker.observe([
        Played(seat=2, cards=_cards("9S")),
        Drew(seat=2, source="pile", card=None),
        Played(seat=2, cards=_cards("3H 3D")),
        Drew(seat=2, source="discard", card=Card.parse("AC")),
    ])
    history = tracker.plays[2]
    assert [(p.cards, p.source, p.card) for p in history] == [
        (_cards("9S"), "pile", None), (_cards("3H 3D"), "discard", Card.parse("AC")),
    ]
    tracker.observe([KingSwapped(seat=1, target=2, given=None, taken=None)])
    assert 2 not in tracker.plays  # a King's swap changed the hand: the history says no more


def test_a_card_put_down_at_once_leaves_the_hand_as_before_the_draw() -> None:
    tracker = Tracker(seat=0)
    tracker.observe([
        Played(seat=1, cards=_cards("5S 5H")),
        Drew(seat=1, source="pile", card=None),
        Played(seat=1, cards=_cards("5D"), at_once=True),
    ])
    assert tracker.plays[1][-1].source is None


def test_hands_that_would_have_dumped_more_are_unlikely() -> None:
    """A player who dumped a single 5, then drew from the pile, held nothing heavier: with a
    King in its two cards the King must be that draw (half the chances), with two Kings one
    of them was already there (the rare case of a play 5 points lighter than the best)."""
    tracker = Tracker(seat=0)
    tracker.observe([Played(seat=1, cards=_cards("5S")), Drew(seat=1, source="pile", card=None)])
    plays = tracker.plays[1]
    rng = random.Random(4)

    def chance(codes: str) -> float:
        return sum(play_likelihood(plays, (), list(_cards(codes)), rng)
                   for _ in range(400)) / 400

    assert chance("AH 2D") == 1.0
    assert 0.4 < chance("AH KD") < 0.6
    assert chance("KH KD") == pytest.approx(DEFICIT_LIKELIHOOD[-1])


def test_a_card_is_likelier_dumped_from_a_hand_without_a_preferred_one() -> None:
    """Among cards of the same points a King goes first (its swap), a 10 last: a 10 dumped
    from 10-5 was the heaviest card; dumped from 10-K, unlikely; from K-Q-J, shared."""
    tracker = Tracker(seat=0)
    tracker.observe([Played(seat=1, cards=_cards("TS"))])
    rng = random.Random(4)
    assert play_likelihood(tracker.plays[1], (), list(_cards("5H")), rng) == 1.0
    assert play_likelihood(tracker.plays[1], (), list(_cards("KH")), rng) < 0.05
    tracker.observe([Played(seat=2, cards=_cards("KS"))])
    assert play_likelihood(tracker.plays[2], (), list(_cards("QH JD")), rng) > 0.9


def test_a_player_who_could_call_yanniv_and_played_held_more_than_5_points() -> None:
    tracker = Tracker(seat=0)
    tracker.observe([Played(seat=1, cards=_cards("3S"))])
    assert tracker.plays[1][-1].could_call
    rng = random.Random(4)
    assert play_likelihood(tracker.plays[1], (), list(_cards("AH 2D")), rng) == 1.0  # 6 points
    assert play_likelihood(tracker.plays[1], (), list(_cards("AH AD")), rng) == NO_CALL_LIKELIHOOD
    tracker.observe([YannivCalled(seat=2), Played(seat=3, cards=_cards("3D"))])
    assert not tracker.plays[3][-1].could_call  # nobody may call during a last lap
    tracker.observe([ConstraintSet(seat=3, target=1, kind="seven", colour=None),
                     Played(seat=1, cards=_cards("AS"))])
    assert not tracker.plays[1][-1].could_call


def test_a_high_card_left_on_the_discard_says_its_rank_is_not_held() -> None:
    """Players take a high discard card only to pair it: one who left a 10 for the pile
    seldom held a 10, and one who took it usually did."""
    tracker = Tracker(seat=0)
    tracker.observe([Played(seat=3, cards=_cards("TS")), Drew(seat=3, source="pile", card=None),
                     Played(seat=1, cards=_cards("KH")), Drew(seat=1, source="pile", card=None)])
    assert tracker.plays[1][-1].offered == _cards("TS")
    left = tracker.plays[1]
    tracker.observe([Played(seat=2, cards=_cards("TC")), Played(seat=3, cards=_cards("QD QS")),
                     Drew(seat=3, source="discard", card=Card.parse("TC"))])
    took = tracker.plays[3][-1:]
    rng = random.Random(1)

    def chance(plays: list[PastPlay], known: str, hidden: str) -> float:
        return sum(play_likelihood(plays, _cards(known) if known else (),
                                   list(_cards(hidden)), rng) for _ in range(400)) / 400

    # Seat 1 drew one of its two cards after its King: the 2 (so it held the 10) or the 10.
    assert chance(left, "", "TD 2C") < 0.7
    assert chance(left, "", "5D 2C") == 1.0
    assert chance(took, "TC", "TH 2C") == 1.0
    assert chance(took, "TC", "5H 2C") < 0.05


def test_sampled_opponents_hold_about_what_they_really_hold() -> None:
    """Weighing worlds by the opponents' plays brings their sampled points nearer the truth
    than dealing the unseen cards uniformly (moyen at every seat, seat 0 tracking)."""
    errors: dict[bool, list[float]] = {True: [], False: []}
    rng = random.Random(2)
    for match in range(5):
        seed = f"weigh/{match}"
        bots = [make_bot("moyen", seat, f"{seed}/{seat}") for seat in range(4)]
        tracker = Tracker(0)
        state, events = start_match(MatchConfig(seats=4, manches=2), seed)
        while not state.finished:
            for seat, bot in enumerate(bots):
                bot.observe([redact(event, seat) for event in events])
            tracker.observe([redact(event, 0) for event in events])
            seen = view(state, state.to_act)
            if state.to_act == 0 and seen.pending is not None and seen.pending.kind == "turn":
                for weigh in (True, False):
                    errors[weigh].append(_points_error(state, seen, tracker if weigh else None,
                                                       rng))
            state, events = apply(state, bots[state.to_act].decide(seen))
    weighed, uniform = (sum(errors[w]) / len(errors[w]) for w in (True, False))
    assert len(errors[True]) > 60
    assert weighed < uniform * 0.93


def _points_error(
    state: MatchState, seen: MatchView, tracker: Tracker | None, rng: random.Random
) -> float:
    """Mean absolute error of the sampled points of the opponents' unknown cards."""
    total = 0.0
    for player in seen.players:
        if player.seat == 0 or not player.active:
            continue
        truth = sum(c.value for c in state.hands[player.seat] if c not in player.known_cards)
        sampled = sum(
            sum(c.value for c in sample_hidden(seen, tracker, rng)[0][player.seat])
            for _ in range(20)
        ) / 20
        total += abs(sampled - truth)
    return total
