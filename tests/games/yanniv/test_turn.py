"""Rules of a turn: play, then draw (pile or the previous player's non-power cards), then the
drawn card that matches may be played at once, without effect."""

from __future__ import annotations

import pytest

from tests.games.yanniv.helpers import C, P, hand, of_type, run
from yanniv.games.yanniv.rules import (
    DrawPile,
    IllegalActionError,
    PlayAtOnce,
    Skip,
    TakeDiscard,
    apply,
    legal_actions,
)
from yanniv.games.yanniv.rules.events import Drew, Played
from yanniv.games.yanniv.rules.rigging import rigged


def test_play_then_draw_from_pile() -> None:
    s = rigged(["5H 9C TS", "AS 2D 3C"], pile="QC 8D", discard=["KD"])
    s, events = run(s, P("TS"), DrawPile())
    assert hand(s, 0) == {C("5H"), C("9C"), C("QC")}
    assert s.turn == 1 and s.pending.kind == "turn"
    assert of_type(events, Drew)[0].card == C("QC")


def test_take_any_non_power_card_of_previous_packet() -> None:
    # The previous player put down the run 2-3-4-5 of clubs: 2, 3 and 5 are takeable, the 4 not.
    s = rigged(["KS QH", "AS 2D 3D"], discard=["KD", (1, "2C 3C 4C 5C")])
    s, _ = run(s, P("KS"))
    takes = {a.card for a in legal_actions(s) if isinstance(a, TakeDiscard)}
    assert takes == {C("2C"), C("3C"), C("5C")}
    s, _ = run(s, TakeDiscard(C("3C")))
    assert C("3C") in hand(s, 0)
    assert s.discard[1].cards == (C("2C"), C("4C"), C("5C"))


def test_power_card_of_previous_packet_cannot_be_taken() -> None:
    s = rigged(["KS QH", "AS 2D 3D"], discard=["KD", (1, "7C")])
    s, _ = run(s, P("KS"))
    with pytest.raises(IllegalActionError) as err:
        apply(s, TakeDiscard(C("7C")))
    assert err.value.code == "power_not_takeable"


def test_older_packets_cannot_be_taken_without_a_jack() -> None:
    s = rigged(["KS QH", "AS 2D 3D"], discard=["5D", (1, "TC")])
    s, _ = run(s, P("KS"))
    assert TakeDiscard(C("5D")) not in legal_actions(s)
    assert TakeDiscard(C("TC")) in legal_actions(s)


def test_first_player_may_take_the_flipped_card() -> None:
    s = rigged(["KS QH", "AS 2D 3D"], discard=["5D"])
    s, _ = run(s, P("KS"), TakeDiscard(C("5D")))
    assert C("5D") in hand(s, 0)


def test_must_play_before_drawing() -> None:
    s = rigged(["KS QH", "AS 2D 3D"])
    with pytest.raises(IllegalActionError) as err:
        apply(s, DrawPile())
    assert err.value.code == "must_play"


def test_drawn_card_of_same_value_may_be_played_at_once_in_the_same_packet() -> None:
    s = rigged(["5H 9C KS", "AS 2D 3C"], pile="5S 8D")
    s, _ = run(s, P("5H"), DrawPile())
    assert s.pending.kind == "play_drawn" and s.pending.cards == (C("5S"),)
    s, events = run(s, PlayAtOnce(C("5S")))
    assert s.discard[-1].cards == (C("5H"), C("5S"))
    assert of_type(events, Played)[0].at_once
    assert hand(s, 0) == {C("9C"), C("KS")}
    assert s.turn == 1


def test_drawn_card_extending_the_run_may_be_played_at_once() -> None:
    s = rigged(["AS 2S 3S KC", "AH 2D 3C"], pile="4S 8D")
    s, _ = run(s, P("AS 2S 3S"), DrawPile())
    assert s.pending.kind == "play_drawn"
    s, _ = run(s, PlayAtOnce(C("4S")))
    assert s.discard[-1].cards == (C("AS"), C("2S"), C("3S"), C("4S"))


def test_drawn_card_may_be_kept() -> None:
    s = rigged(["5H 9C KS", "AS 2D 3C"], pile="5S 8D")
    s, _ = run(s, P("5H"), DrawPile(), Skip())
    assert C("5S") in hand(s, 0)


def test_card_played_at_once_has_no_effect() -> None:
    # A 7 played, a 7 drawn and played at once: still one 7 power (next player ≤ 7), not two.
    s = rigged(["7H 9C KS", "AS 2D 3C"], pile="7S 8D")
    s, _ = run(s, P("7H"), DrawPile(), PlayAtOnce(C("7S")))
    assert s.turn_constraint is not None and s.turn_constraint.kind == "seven"


def test_card_taken_from_discard_is_not_played_at_once() -> None:
    s = rigged(["5H 9C KS", "AS 2D 3C"], discard=["KD", (1, "5D")])
    s, _ = run(s, P("5H"), TakeDiscard(C("5D")))
    assert s.turn == 1 and C("5D") in hand(s, 0)


def test_after_an_empty_turn_nothing_can_be_taken() -> None:
    # A player who called YANNIV put nothing down: the next player draws from the pile only.
    s = rigged(["AS 2S", "KS QH JD"], discard=["5D", (1, "3C")])
    s, _ = run(s, s_call())
    s, _ = run(s, P("KS"))
    assert not [a for a in legal_actions(s) if isinstance(a, TakeDiscard)]


def s_call():
    from yanniv.games.yanniv.rules import CallYanniv

    return CallYanniv()


def test_illegal_action_leaves_state_untouched() -> None:
    s = rigged(["5H 9C KS", "AS 2D 3C"])
    before = s.signature()
    for bad in (P("AS"), P("5H 9C"), TakeDiscard(C("AS")), s_call()):
        with pytest.raises(IllegalActionError) as err:
            apply(s, bad)
        assert err.value.code and err.value.message and err.value.message_en
    assert s.signature() == before


def test_play_not_a_combination_has_a_clear_french_error() -> None:
    s = rigged(["5H 9C KS", "AS 2D 3C"])
    with pytest.raises(IllegalActionError) as err:
        apply(s, P("5H 9C"))
    assert err.value.code == "not_a_combination"
    assert "suite" in err.value.message


def test_pile_running_out_reshuffles_the_discard_but_the_top_packet() -> None:
    s = rigged(
        ["5H 9C", "AS 2D"], pile="", discard=["KD", "QC", (1, "3C")]
    )
    s, events = run(s, P("9C"), DrawPile())
    from yanniv.games.yanniv.rules.events import PileReshuffled

    assert of_type(events, PileReshuffled)[0].count == 3
    assert [p.cards for p in s.discard] == [(C("9C"),)]
    drawn = of_type(events, Drew)[0].card
    assert drawn in {C("KD"), C("QC"), C("3C")} and len(s.pile) == 2


def test_empty_pile_and_nothing_to_reshuffle_draws_nothing() -> None:
    s = rigged(["5H 9C", "AS 2D"], pile="", discard=[""])
    s, events = run(s, P("9C"), DrawPile())
    assert of_type(events, Drew)[0].card is None
    assert hand(s, 0) == {C("5H")}


def test_same_value_means_same_rank_a_jack_does_not_match_a_ten() -> None:
    s = rigged(["TH 9C 2S", "AS 2D 3C"], pile="JS 8D")
    s, _ = run(s, P("TH"), DrawPile())
    assert s.turn == 1  # no offer to play the Jack at once


def test_card_played_at_once_can_be_taken_by_the_next_player() -> None:
    s = rigged(["5H 9C TS", "AS 2D 3C"], pile="5S 8D")
    s, _ = run(s, P("5H"), DrawPile(), PlayAtOnce(C("5S")))
    takes = {a.card for a in legal_actions(s) if isinstance(a, TakeDiscard)}
    assert takes == set()  # it is seat 1's turn to play first
    s, _ = run(s, P("AS"))
    takes = {a.card for a in legal_actions(s) if isinstance(a, TakeDiscard)}
    assert takes == {C("5H"), C("5S")}
