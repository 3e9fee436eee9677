"""One scenario per rule of classic Yaniv (rule book 001) and per decision of QUESTIONS.md
("Yaniv classique")."""

from __future__ import annotations

import pytest

from tests.games.yaniv.helpers import table
from yanniv.games.yaniv.rules import (
    CallYaniv,
    DrawPile,
    Play,
    TakeDiscard,
    YanivConfig,
    YanivIllegal,
    apply,
    deck,
    legal_actions,
    start_match,
    ycards,
)
from yanniv.games.yaniv.rules.combos import canonical_play
from yanniv.games.yaniv.rules.model import (
    MancheEnded,
    MancheStarted,
    MatchEnded,
    Packet,
    Pending,
    PileReshuffled,
)


def _play(state, codes: str):
    return apply(state, Play(ycards(codes)))[0]


def test_a_deck_is_54_cards_with_two_jokers_worth_0_and_two_decks_108() -> None:
    one = deck(1)
    assert len(one) == 54 and len(set(one)) == 54
    jokers = [card for card in one if card.is_joker]
    assert len(jokers) == 2 and all(card.value == 0 for card in jokers)
    assert len(set(deck(2))) == 108
    values = {c.code: c.value for c in ycards("AS 7H TD JC QS KH")}
    assert values == {"AS": 1, "7H": 7, "TD": 10, "JC": 10, "QS": 10, "KH": 10}


def test_seven_cards_each_the_left_of_the_dealer_starts_and_a_card_is_flipped() -> None:
    state, events = start_match(YanivConfig(seats=3, first_player=1), "deal")
    assert [len(h) for h in state.hands] == [7, 7, 7]
    assert state.starter == 1 and state.dealer == 0 and state.to_act == 1
    assert len(state.pile) == 54 - 21 - 1
    assert isinstance(events[0], MancheStarted) and events[0].flipped == state.discard[0].cards[0]


def test_the_deal_rotates_clockwise_each_manche() -> None:
    state, _ = start_match(YanivConfig(seats=3, first_player=2), "rotate")
    assert (state.dealer, state.starter, state.to_act) == (1, 2, 2)
    state = state.evolve(hands=(ycards("KS KH"), ycards("KD KC"), ycards("AS")))
    state, events = apply(state, CallYaniv())
    started = next(e for e in events if isinstance(e, MancheStarted))
    assert (started.dealer, started.starter) == (2, 0) and state.to_act == 0


def test_two_decks_only_from_five_seats_and_always_at_eight() -> None:
    with pytest.raises(ValueError):
        YanivConfig(seats=4, decks=2)
    with pytest.raises(ValueError):
        YanivConfig(seats=8, decks=1)
    state, _ = start_match(YanivConfig(seats=8, decks=2), "eight")
    assert sum(map(len, state.hands)) + len(state.pile) + 1 == 108


@pytest.mark.parametrize("codes", ["5H", "5H 5S", "5H 5S 5D", "3C 4C 5C", "3C XR 5C", "XR"])
def test_a_single_a_set_or_a_run_of_three_of_one_suit_may_be_put_down(codes: str) -> None:
    state = table("5H 5S 5D 3C 4C 5C XR", "KC KD")
    assert Play(canonical_play(ycards(codes))) in legal_actions(state)


@pytest.mark.parametrize(
    "codes", ["3C 4C", "3C 4H 5C", "3C 5C 6C", "4C 4H XR", "4C XR", "QC KC AC"])
def test_no_other_combination_may_be_put_down(codes: str) -> None:
    state = table("3C 4C 5C 6C 4H XR QC KC AC", "KC KD")
    with pytest.raises(YanivIllegal) as refused:
        apply(state, Play(ycards(codes)))
    assert refused.value.code == "not_a_combination" and refused.value.message_en


def test_after_putting_down_draw_the_pile_top_or_an_end_of_the_previous_packet() -> None:
    state = table("KS 2H", "AD AC", pile="7D 8D", offer="4H 5H 6H")
    state = _play(state, "KS")
    assert set(legal_actions(state)) == {DrawPile(), TakeDiscard(ycards("4H")[0]),
                                         TakeDiscard(ycards("6H")[0])}
    with pytest.raises(YanivIllegal) as refused:
        apply(state, TakeDiscard(ycards("5H")[0]))
    assert refused.value.code == "not_an_end"
    drawn, _ = apply(state, DrawPile())
    assert ycards("8D")[0] in drawn.hands[0] and drawn.to_act == 1


def test_of_a_set_only_the_two_ends_as_laid_may_be_taken() -> None:
    state = table("KS 2H", "AD AC", offer="8S 8H 8D")
    state = _play(state, "KS")
    takes = {a.card.code for a in legal_actions(state) if isinstance(a, TakeDiscard)}
    assert takes == {"8S", "8D"}
    laid = canonical_play(ycards("8D 8S 8H"))
    assert laid is not None and (laid[0].code, laid[-1].code) == ("8D", "8H")


def test_a_joker_stands_anywhere_in_a_run_and_at_an_end_it_can_be_taken() -> None:
    state = table("4H XR 6H KC", "AD AC")
    assert canonical_play(ycards("XR 4H 6H")) is None  # 4 and 6 cannot sit side by side
    state = _play(state, "4H XR 6H")
    state = apply(state, DrawPile())[0]
    state = _play(state, "AD")
    takes = {a.card.code for a in legal_actions(state) if isinstance(a, TakeDiscard)}
    assert takes == {"4H", "6H"}  # the joker in the middle stays
    assert canonical_play(ycards("5S 6S XB")) == ycards("5S 6S XB")
    assert canonical_play(ycards("XB 5S 6S")) == ycards("XB 5S 6S")
    assert canonical_play(ycards("6S 5S XB")) == ycards("XB 5S 6S")  # laid high to low
    assert canonical_play(ycards("XB XR AS")) is None  # no card below the Ace


def test_yaniv_may_be_called_at_seven_points_or_less_only() -> None:
    assert CallYaniv() in legal_actions(table("3S 4H", "KS KH"))
    state = table("4S 4H", "KS KH")
    with pytest.raises(YanivIllegal) as refused:
        apply(state, CallYaniv())
    assert refused.value.code == "yaniv_too_high"


def _ended(events) -> MancheEnded:
    return next(e for e in events if isinstance(e, MancheEnded))


def test_a_strictly_lowest_caller_scores_0_and_the_others_their_hands() -> None:
    state = table("AS 3H", "4S 4H", "KS 2D", "9C 8C")  # the rule book's example: 4/8/12/17
    result = _ended(apply(state, CallYaniv())[1])
    assert not result.assaf and result.winner == 0
    assert result.deltas == (0, 8, 12, 17) and result.totals == (0, 8, 12, 17)


def test_assaf_when_someone_has_as_many_points_or_fewer() -> None:
    state = table("AS 3H", "2S 2H", "KS 2D")
    result = _ended(apply(state, CallYaniv())[1])
    assert result.assaf and result.winner == 1 and result.deltas == (30, 0, 0)
    fewer = _ended(apply(table("AS 3H", "AH 2H", "KS 2D"), CallYaniv())[1])
    assert fewer.assaf and fewer.deltas == (30, 0, 0)


def test_yaniv_with_only_an_ace_loses_20_and_with_only_a_joker_loses_50() -> None:
    ace = _ended(apply(table("AS", "2S 2H", scores=(60, 0)), CallYaniv())[1])
    assert ace.deltas == (-20, 4) and ace.totals == (40, 4)
    joker = _ended(apply(table("XR", "2S 2H", scores=(60, 0)), CallYaniv())[1])
    assert joker.deltas == (-50, 4) and joker.totals == (10, 4)
    two_jokers = _ended(apply(table("XR XB", "2S 2H"), CallYaniv())[1])
    assert two_jokers.deltas == (0, 4)


def test_exactly_100_goes_back_to_50_and_exactly_200_to_100() -> None:
    result = _ended(apply(table("AS", "5S 5H", "KS", scores=(0, 90, 190)),
                          CallYaniv())[1])
    assert result.totals == (-20, 50, 100) and result.brought_down == (1, 2)


def test_over_the_threshold_the_match_ends_and_the_lowest_total_wins() -> None:
    state, events = apply(table("AS", "KS KH", "2S 2H", scores=(50, 190, 10)), CallYaniv())
    assert state.finished and state.ranking == (2, 0, 1)
    assert isinstance(events[-1], MatchEnded) and events[-1].totals == (30, 210, 14)


def test_the_host_may_lower_the_threshold() -> None:
    state, _ = apply(table("AS", "KS KH", scores=(0, 90), threshold=100), CallYaniv())
    assert state.finished and state.scores == (-20, 110)


def test_a_tie_for_the_lowest_total_is_played_off_between_the_tied_seats() -> None:
    state, events = apply(table("AS AD", "KS KH", "AH 2D", "3C 4D", scores=(47, 190, 50, 44)),
                          CallYaniv())
    # 47 + 0, 190 + 20, 50 + 3, 44 + 7 -> 47, 210, 53, 51: no tie, seat 0 wins
    assert state.finished and state.ranking[0] == 0
    state, events = apply(table("AS AD", "KS KH", "AH 2D", "3C 4D", scores=(51, 190, 50, 44)),
                          CallYaniv())
    # 51, 210, 53, 51: seats 0 and 3 tie for the lowest
    assert not state.finished and state.tiebreak and state.participants == (0, 3)
    started = next(e for e in events if isinstance(e, MancheStarted))
    assert started.tiebreak and state.hands[1] == () and state.hands[2] == ()


def test_elimination_mode_drops_seats_over_the_threshold_until_one_is_left() -> None:
    state, events = apply(table("AS", "KS KH", "2S 2H", scores=(0, 190, 10), elimination=True),
                          CallYaniv())
    assert not state.finished and state.in_match == (True, False, True)
    assert state.participants == (0, 2) and state.hands[1] == ()
    assert _ended(events).eliminated == (1,)
    state = state.evolve(hands=(ycards("AS"), (), ycards("KS KH KD")),
                         pending=Pending("turn", 0))
    state, events = apply(state.evolve(scores=(0, 210, 180)), CallYaniv())
    assert state.finished and state.ranking == (0, 2, 1)


def test_when_the_pile_runs_out_the_older_discard_is_shuffled_into_a_new_pile() -> None:
    state = table("KS 2H", "AD AC", pile="", offer="4H")
    state = state.evolve(discard=(state.discard[0], Packet(None, ycards("7C 7D")),
                                  state.discard[1]), offer=2)
    state = _play(state, "KS")
    assert DrawPile() in legal_actions(state)
    state, events = apply(state, DrawPile())
    assert isinstance(events[0], PileReshuffled) and events[0].count == 3
    assert len(state.pile) == 2 and [p.cards for p in state.discard] == [ycards("4H"),
                                                                           ycards("KS")]


def test_with_nothing_to_reshuffle_the_seat_takes_from_the_discard() -> None:
    state = table("KS 2H", "AD AC", pile="", offer="4H 5H 6H")
    state = state.evolve(discard=state.discard[1:], offer=0)
    state = _play(state, "KS")
    assert DrawPile() not in legal_actions(state)
    with pytest.raises(YanivIllegal) as refused:
        apply(state, DrawPile())
    assert refused.value.code == "pile_empty"


def test_an_illegal_action_changes_nothing() -> None:
    state = table("KS 2H", "AD AC")
    before = state
    with pytest.raises(YanivIllegal):
        apply(state, DrawPile())
    assert state == before
