"""Scoring of a manche (−5 for the winner, ties) and of the match (lowest total, tiebreaks)."""

from __future__ import annotations

from tests.games.yanniv.helpers import P, of_type, run
from yanniv.games.yanniv.rules import CallYanniv, DrawPile, MatchConfig, new_match
from yanniv.games.yanniv.rules.events import MancheEnded, MancheStarted, MatchEnded, Misdeal
from yanniv.games.yanniv.rules.rigging import rigged
from yanniv.games.yanniv.rules.scoring import manche_outcome


def test_lowest_hand_wins_minus_five_others_score_their_hand() -> None:
    s = rigged(["AS 2H", "TC 5C TH", "5D 3D 3C"], pile="2C 2D")
    s, events = run(s, CallYanniv(), P("TH"), DrawPile(), P("5D"), DrawPile())
    ended = of_type(events, MancheEnded)[0]
    assert ended.winner == 0
    assert ended.deltas == (-5, 10 + 5 + 2, 3 + 3 + 2)


def test_tie_fewest_cards_wins() -> None:
    assert manche_outcome([4, 4, 9], [2, 1, 3], [0, 1, 2], caller=0) == (1, ())


def test_tie_same_cards_the_caller_wins() -> None:
    assert manche_outcome([4, 4, 9], [2, 2, 3], [0, 1, 2], caller=1) == (1, ())


def test_tie_otherwise_ex_aequo_score_zero() -> None:
    # Three players: the caller (seat 0) is beaten by two equal hands of equal size.
    assert manche_outcome([5, 3, 3], [2, 2, 2], [0, 1, 2], caller=0) == (None, (1, 2))


def test_ex_aequo_score_zero_and_others_their_hand() -> None:
    # The caller (5) is beaten by seats 1 and 2, both at 4 points with 3 cards: they score 0.
    s = rigged(["AS 4H", "AC AH TD", "AD 2D TS"], pile="2S 3C")
    s, events = run(s, CallYanniv(), P("TD"), DrawPile(), P("TS"), DrawPile())
    ended = of_type(events, MancheEnded)[0]
    assert ended.points == (5, 4, 6)
    assert ended.winner == 1 and ended.deltas == (5, -5, 6)


def test_winner_of_the_manche_starts_the_next() -> None:
    s = rigged(["AS 2H", "TC 5C TH", "5D 3D 3C"], pile="2C 2D", manches=3)
    s, events = run(s, CallYanniv(), P("TH"), DrawPile(), P("5D"), DrawPile())
    started = of_type(events, MancheStarted)[0]
    assert started.manche == 2 and started.starter == 0 and s.turn == 0


def test_match_ends_after_the_configured_manches_lowest_total_wins() -> None:
    s = rigged(["AS 2H", "TC 5C TH"], pile="2C 2D", manches=1, scores=[10, 3])
    s, events = run(s, CallYanniv(), P("TH"), DrawPile())
    # Totals: 10 - 5 = 5 for seat 0, 3 + 17 = 20 for seat 1.
    assert s.finished and s.pending is None
    assert of_type(events, MatchEnded)[0].ranking == (0, 1)
    assert s.scores == (5, 20)


def test_tie_in_the_lead_plays_a_tiebreak_manche_between_the_leaders_only() -> None:
    s = rigged(["AS 2H", "TC 5C TH", "5D 3D 3C"], pile="2C 2D", manches=1, scores=[30, 20, 17])
    # Seat 0 wins (−5 → 25); seat 1 scores 17 → 37; seat 2 scores 8 → 25: tied lead 0 and 2.
    s, events = run(s, CallYanniv(), P("TH"), DrawPile(), P("5D"), DrawPile())
    assert s.scores == (25, 37, 25)
    assert not s.finished and s.tiebreak
    started = of_type(events, MancheStarted)[0]
    assert started.tiebreak and started.participants == (0, 2)
    assert s.active == (True, False, True) and s.hands[1] == ()


def test_tiebreak_manches_repeat_until_the_lead_is_not_tied() -> None:
    from yanniv.games.yanniv.rules import apply, legal_actions

    s = new_match(MatchConfig(seats=2, manches=1), seed="tiebreak")
    for _ in range(100000):
        if s.finished:
            break
        s, _ = apply(s, legal_actions(s)[0])
    assert s.finished
    assert s.scores[s.ranking[0]] < s.scores[s.ranking[1]]


def test_misdeal_is_redealt() -> None:
    # Find a seed whose first deal is a misdeal, then check the redeal.
    from yanniv.games.yanniv.rules import start_match
    from yanniv.games.yanniv.rules.combos import has_misdeal_pattern

    for seed in range(500):
        state, events = start_match(MatchConfig(seats=4), seed)
        if of_type(list(events), Misdeal):
            break
    else:
        raise AssertionError("no misdeal in 500 seeds")
    assert state.deal_attempt >= 1
    assert not any(has_misdeal_pattern(h) for h in state.hands)
    assert all(len(h) == 5 for h in state.hands)
    assert len(state.pile) == 52 - 20 - 1 and len(state.discard) == 1


def test_first_player_chosen_by_the_room_or_the_seed() -> None:
    assert new_match(MatchConfig(seats=3, first_player=2), 1).turn == 2
    starters = {new_match(MatchConfig(seats=4), seed).turn for seed in range(40)}
    assert starters == {0, 1, 2, 3}
