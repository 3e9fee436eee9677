"""YANNIV: the call at 5 points or less, the last lap, the check when it is back to the caller."""

from __future__ import annotations

import pytest

from tests.games.yanniv.helpers import C, P, of_type, run
from yanniv.games.yanniv.rules import (
    CallYanniv,
    DrawPile,
    IllegalActionError,
    KingSwap,
    apply,
    legal_actions,
)
from yanniv.games.yanniv.rules.events import MancheEnded, YannivChecked
from yanniv.games.yanniv.rules.rigging import rigged
from yanniv.games.yanniv.rules.ruleset import LEGACY_YANNIV


def test_yanniv_needs_five_points_or_less() -> None:
    assert CallYanniv() in legal_actions(rigged(["AS 4H", "KC QC"]))
    s = rigged(["AS 5H", "KC QC"])
    assert CallYanniv() not in legal_actions(s)
    with pytest.raises(IllegalActionError) as err:
        apply(s, CallYanniv())
    assert err.value.code == "yanniv_too_high"


def test_others_play_once_more_and_cannot_call() -> None:
    s = rigged(["AS 2H", "AC 2C", "AD 3D"], pile="TS TH TD TC")
    s, _ = run(s, CallYanniv())
    assert s.turn == 1 and CallYanniv() not in legal_actions(s)
    with pytest.raises(IllegalActionError) as err:
        apply(s, CallYanniv())
    assert err.value.code == "yanniv_last_lap"
    s, _ = run(s, P("2C"), DrawPile())
    assert s.turn == 2 and CallYanniv() not in legal_actions(s)
    s, events = run(s, P("3D"), DrawPile())
    assert of_type(events, YannivChecked)[0].holds
    ended = of_type(events, MancheEnded)[0]
    assert ended.caller == 0 and ended.winner == 0 and ended.deltas[0] == -5


def test_caller_above_five_when_back_must_play_and_manche_goes_on() -> None:
    # The next player's King gives the caller a big card: back to him with more than 5.
    s = rigged(["AS 2H", "KC QD 9H", "AD 3D"], pile="TS TH TC 5S")
    s, _ = run(s, CallYanniv(), P("KC"), DrawPile(), KingSwap(C("QD"), 0))
    s, events = run(s, P("3D"), DrawPile())
    checked = of_type(events, YannivChecked)[0]
    assert not checked.holds and not of_type(events, MancheEnded)
    assert s.turn == 0 and s.pending.kind == "turn" and s.yanniv_caller is None
    assert all(not isinstance(a, DrawPile) for a in legal_actions(s))  # he must play


def test_legacy_nine_in_the_last_lap_sends_the_turn_back_to_the_caller_early() -> None:
    s = rigged(["AS 2H", "9C TD", "AD 3D", "5C 5S"], pile="TS TH TC", rules=LEGACY_YANNIV)
    s, _ = run(s, CallYanniv(), P("9C"), DrawPile())
    # Direction reversed: the turn is back to the caller, whose hand is checked now.
    assert s.manche == 2 and s.last_result is not None and s.last_result.winner == 0


def test_caller_can_be_beaten_by_a_lower_hand() -> None:
    s = rigged(["2S 3H", "AC 2C TC", "AD TD 9D"], pile="AH KH")
    s, _ = run(s, CallYanniv(), P("TC"), DrawPile(), P("TD"), DrawPile())
    result = s.last_result
    assert result is not None and result.caller == 0 and result.points == (5, 4, 20)
    assert result.winner == 1 and result.deltas == (5, -5, 20)


def test_empty_hand_may_call_yanniv_with_zero() -> None:
    s = rigged(["8H 8S", "AC 2S 3C"], pile="KS KH")
    s, _ = run(s, P("8H 8S"))  # 8: no draw, the hand is empty
    s, _ = run(s, P("AC"), DrawPile())
    assert s.hands[0] == () and CallYanniv() in legal_actions(s)
    assert DrawPile() in legal_actions(s)  # with nothing to play, drawing is allowed


def test_king_against_caller_in_last_lap_is_allowed() -> None:
    s = rigged(["AS 2H", "KC QD", "AD 3D"], pile="TS TH TC 5S")
    s, _ = run(s, CallYanniv(), P("KC"), DrawPile())
    assert any(isinstance(a, KingSwap) and a.target == 0 for a in legal_actions(s))
    s, _ = run(s, KingSwap(C("QD"), 0))
    assert s.turn == 2
