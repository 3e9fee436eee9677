"""The rule set and the host's options: mandatory powers (and the powers that cannot be
applied), declining one use at a time, and playing a card taken from the discard at once."""

from __future__ import annotations

import pytest

from tests.games.yanniv.helpers import OPTIONAL, C, P, hand, of_type, run
from yanniv.games.yanniv.rules import (
    AskFour,
    CallYanniv,
    DrawPile,
    IllegalActionError,
    KingSwap,
    MatchConfig,
    PlayAtOnce,
    Skip,
    TakeDiscard,
    UseQueen,
    apply,
    legal_actions,
    new_match,
    view,
)
from yanniv.games.yanniv.rules.cards import JACK, KING, QUEEN
from yanniv.games.yanniv.rules.events import PowerSkipped, TurnStarted
from yanniv.games.yanniv.rules.rigging import rigged
from yanniv.games.yanniv.rules.ruleset import LEGACY_YANNIV, YANNIV, Ruleset, ruleset_from_dict

DISCARD_PLAY = Ruleset(play_taken_discard=True)


def _refused(state, action) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(IllegalActionError) as err:
        apply(state, action)
    return err.value.code


# --------------------------------------------------------------------------- the rule set


def test_ruleset_defaults_are_todays_rules() -> None:
    assert (YANNIV.hand_size, YANNIV.call_limit, YANNIV.jack_reach, YANNIV.winner_bonus) == (
        5, 5, 2, -5)
    assert YANNIV.power_ranks == frozenset({4, 6, 7, 8, 9, JACK, QUEEN, KING})
    assert YANNIV.mandatory_powers and not YANNIV.play_taken_discard
    assert not LEGACY_YANNIV.mandatory_powers and not LEGACY_YANNIV.last_lap_each_once
    assert MatchConfig().rules is YANNIV


@pytest.mark.parametrize("rules", [
    YANNIV, LEGACY_YANNIV, OPTIONAL, DISCARD_PLAY,
    Ruleset(hand_size=4, call_limit=7, power_ranks=frozenset({4, 13}), max_manches=30),
])
def test_ruleset_round_trips_through_a_dict(rules: Ruleset) -> None:
    import json

    data = json.loads(json.dumps(rules.to_dict()))
    assert set(data) >= {"mandatory_powers", "play_taken_discard"}
    assert ruleset_from_dict(data) == rules


def test_ruleset_from_dict_refuses_unknown_fields() -> None:
    with pytest.raises(ValueError):
        ruleset_from_dict({"mandatory_powers": True, "jokers": 2})


def test_match_config_checks_seats_and_manches_against_its_rules() -> None:
    with pytest.raises(ValueError):
        MatchConfig(seats=4, rules=Ruleset(max_seats=3))
    with pytest.raises(ValueError):
        MatchConfig(manches=21)
    assert MatchConfig(manches=30, rules=Ruleset(max_manches=30)).manches == 30
    with pytest.raises(ValueError):
        Ruleset(power_ranks=frozenset({5}))  # the engine has no power for a 5


def test_the_rule_constants_come_from_the_ruleset() -> None:
    rules = Ruleset(hand_size=4, call_limit=7, winner_bonus=-10)
    s = new_match(MatchConfig(seats=3, rules=rules), seed=5)
    assert all(len(h) == 4 for h in s.hands)
    assert CallYanniv() in legal_actions(rigged(["AS 6H", "KC QC"], rules=rules))
    s = rigged(["AS 7H", "KC QC"], rules=rules)
    with pytest.raises(IllegalActionError) as err:
        apply(s, CallYanniv())
    assert err.value.code == "yanniv_too_high" and "7 points" in err.value.message


# --------------------------------------------------------------------------- mandatory powers


def test_mandatory_four_must_ask() -> None:
    s = rigged(["4H KS", "QC 2S"])
    s, _ = run(s, P("4H"), DrawPile())
    assert s.pending.kind == "four_ask" and Skip() not in legal_actions(s)
    assert all(isinstance(a, AskFour) for a in legal_actions(s))
    assert _refused(s, Skip()) == "power_mandatory"


def test_mandatory_king_must_swap() -> None:
    s = rigged(["KH TS", "AC 2S"])
    s, _ = run(s, P("KH"), DrawPile())
    assert s.pending.kind == "king" and Skip() not in legal_actions(s)
    assert all(isinstance(a, KingSwap) for a in legal_actions(s))
    assert _refused(s, Skip()) == "power_mandatory"


def test_mandatory_jack_must_take_back() -> None:
    s = rigged(["JH KS", "AC 2S"], discard=["AD", (1, "9C 3C")], pile="5S")
    s, _ = run(s, P("JH"))
    assert set(legal_actions(s)) == {TakeDiscard(C("AD")), TakeDiscard(C("9C")),
                                     TakeDiscard(C("3C"))}
    assert _refused(s, DrawPile()) == "power_mandatory"
    s, _ = run(s, TakeDiscard(C("9C")))  # even a power card (« même pouvoir »)
    assert C("9C") in hand(s, 0)


def test_mandatory_queen_must_draw() -> None:
    s = rigged(["QH KS", "AC 2S"], discard=[(1, "3C")], pile="3D 9C")
    s, _ = run(s, P("QH"))
    assert legal_actions(s) == (UseQueen(),)
    assert view(s, 0).takeable == ()  # nothing on the discard to offer
    assert _refused(s, DrawPile()) == "power_mandatory"
    assert _refused(s, TakeDiscard(C("3C"))) == "power_mandatory"


def test_mandatory_king_with_no_card_left_is_skipped_with_a_public_event() -> None:
    # The King's player puts down at once the King he draws: no card is left to give.
    s = rigged(["KH", "AC 2S"], pile="KS 3D")
    s, events = run(s, P("KH"), DrawPile(), PlayAtOnce(C("KS")))
    assert of_type(events, PowerSkipped) == [PowerSkipped(seat=0, rank=KING, reason="no_card")]
    assert s.turn == 1 and s.pending.kind == "turn"


def test_mandatory_jack_with_nothing_in_reach_is_skipped_with_a_public_event() -> None:
    s = rigged(["JH KS", "AC 2S"], discard=[" ", (1, " ")], pile="5S")
    s, events = run(s, P("JH"))
    skipped = of_type(events, PowerSkipped)
    assert skipped == [PowerSkipped(seat=0, rank=JACK, reason="nothing_to_take")]
    assert DrawPile() in legal_actions(s)
    s, _ = run(s, DrawPile())
    assert C("5S") in hand(s, 0)


def test_mandatory_powers_keep_the_choices_the_rules_give() -> None:
    # « on peut la poser aussitôt »: a matching drawn card may still be kept.
    s = rigged(["5H KS", "AC 2S"], pile="5D")
    s, _ = run(s, P("5H"), DrawPile())
    assert set(legal_actions(s)) == {PlayAtOnce(C("5D")), Skip()}


# --------------------------------------------------------------------------- declining


def test_declining_the_first_of_two_king_swaps_keeps_the_second() -> None:
    s = rigged(["KH KS TS 9S", "AC 2S 3D", "5D 5C"], rules=OPTIONAL)
    s, events = run(s, P("KH KS"), DrawPile(), Skip())
    assert of_type(events, PowerSkipped) == [PowerSkipped(seat=0, rank=KING)]
    assert s.pending.kind == "king" and s.pending.remaining == 1
    s, _ = run(s, KingSwap(C("TS"), 1))
    assert s.turn == 1


def test_declining_the_first_of_two_fours_keeps_the_second() -> None:
    s = rigged(["4H 4S KS", "QC 2S", "5D 5C"], rules=OPTIONAL)
    s, _ = run(s, P("4H 4S"), DrawPile(), Skip())
    assert s.pending.kind == "four_ask" and s.pending.remaining == 1
    s, _ = run(s, AskFour(1, 12))
    assert s.pending.kind == "four_give"


def test_legacy_skip_declines_every_remaining_use() -> None:
    s = rigged(["KH KS TS 9S", "AC 2S 3D", "5D 5C"], rules=LEGACY_YANNIV)
    s, _ = run(s, P("KH KS"), DrawPile(), Skip())
    assert s.turn == 1


def test_declining_a_jack_emits_a_public_event() -> None:
    s = rigged(["JH KS", "AC 2S"], discard=["AD", (1, "3C")], pile="5S", rules=OPTIONAL)
    s, events = run(s, P("JH"), DrawPile())
    assert of_type(events, PowerSkipped) == [PowerSkipped(seat=0, rank=JACK)]
    # Taking a card back is using the Jack: no event.
    s = rigged(["JH KS", "AC 2S"], discard=["AD", (1, "3C")], pile="5S", rules=OPTIONAL)
    s, events = run(s, P("JH"), TakeDiscard(C("3C")))
    assert not of_type(events, PowerSkipped)


def test_declining_a_queen_emits_a_public_event() -> None:
    s = rigged(["QH KS", "AC 2S"], discard=[(1, "3C")], pile="3D 9C", rules=OPTIONAL)
    s, events = run(s, P("QH"), TakeDiscard(C("3C")))
    assert of_type(events, PowerSkipped) == [PowerSkipped(seat=0, rank=QUEEN)]


# --------------------------------------------------------------------------- discard at once


def test_with_the_option_a_card_taken_from_the_previous_packet_may_be_played_at_once() -> None:
    s = rigged(["5H KS", "AC 2S"], discard=[(1, "5S 3C")], rules=DISCARD_PLAY)
    s, _ = run(s, P("5H"), TakeDiscard(C("5S")))
    assert s.pending.kind == "play_drawn" and s.pending.cards == (C("5S"),)
    s, _ = run(s, PlayAtOnce(C("5S")))
    assert set(s.discard[-1].cards) == {C("5S"), C("5H")}
    assert hand(s, 0) == {C("KS")} and s.turn == 1


def test_with_the_option_a_run_extended_by_a_taken_card() -> None:
    s = rigged(["3H 4H 5H KS", "AC 2S"], discard=[(1, "2H")], rules=DISCARD_PLAY)
    s, _ = run(s, P("3H 4H 5H"), TakeDiscard(C("2H")))
    assert legal_actions(s) == (PlayAtOnce(C("2H")), Skip())


def test_without_the_option_a_card_taken_from_the_discard_is_kept() -> None:
    s = rigged(["5H KS", "AC 2S"], discard=[(1, "5S 3C")])
    s, _ = run(s, P("5H"), TakeDiscard(C("5S")))
    assert s.turn == 1 and C("5S") in hand(s, 0)


# --------------------------------------------------------------------------- API


def test_pile_top_and_discard_top() -> None:
    s = rigged(["5H KS", "AC 2S"], discard=["AD", (1, "3C")], pile="9D 2C")
    assert s.pile_top == C("9D") and s.discard_top is not None
    assert s.discard_top.cards == (C("3C"),)
    s, _ = run(s, P("5H"), DrawPile())
    assert s.pile_top == C("2C") and s.discard_top.cards == (C("5H"),)


def test_rigging_a_state_in_the_middle_of_a_turn() -> None:
    s = rigged(["KS 2H", "AC 2S"], played="QH QD", pile="3D 9C TD")
    assert s.pending.kind == "draw" and s.turn_power == QUEEN and s.turn_power_count == 2
    assert legal_actions(s) == (UseQueen(),)
    s, _ = run(s, UseQueen())
    assert len(s.pending.cards) == 3


def test_manche_ended_carries_the_participants_of_a_tiebreak() -> None:
    from yanniv.games.yanniv.rules.events import MancheEnded

    s = rigged(["AS 2H", "TC 5C", ""], active=[True, True, False], tiebreak=True,
               manches=1, manche=2, scores=[10, 10, 30], pile="2C TH 9D 9H")
    s, events = run(s, CallYanniv(), P("TC"), DrawPile())
    ended = of_type(events, MancheEnded)[0]
    assert ended.tiebreak and ended.participants == (0, 1)
    assert [e.seat for e in of_type(events, TurnStarted)] == [1]


def test_rigging_a_turn_at_its_king_decision() -> None:
    from yanniv.games.yanniv.rules.state import Pending

    s = rigged(["TS 9S", "AC 2S"], played="KH", pending=Pending(kind="king", seat=0, remaining=1))
    assert Skip() not in legal_actions(s)
    s, _ = run(s, KingSwap(C("TS"), 1))
    assert s.turn == 1 and len(s.hands[0]) == 2
    with pytest.raises(ValueError):
        rigged(["TS 9S", "AC 2S"], played="8H")  # an 8 has no draw step
