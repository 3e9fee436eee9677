"""One scenario per power card (4, 6, 7, 8, 9, Jack, Queen, King) and the power choice."""

from __future__ import annotations

import pytest

from tests.games.yanniv.helpers import OPTIONAL, C, P, hand, of_type, run
from yanniv.games.yanniv.rules import (
    AskFour,
    CallYanniv,
    ChooseColour,
    ChoosePower,
    DrawPile,
    GiveCard,
    IllegalActionError,
    KingSwap,
    PlayAtOnce,
    QueenKeep,
    Skip,
    TakeDiscard,
    UseQueen,
    apply,
    legal_actions,
    view,
)
from yanniv.games.yanniv.rules.events import FourAnswered, KingSwapped
from yanniv.games.yanniv.rules.rigging import rigged
from yanniv.games.yanniv.rules.state import Constraint

# --------------------------------------------------------------------------- power choice


def test_run_with_several_powers_asks_which_one_applies() -> None:
    s = rigged(["7H 8H 9H AS", "AC 2D 3C", "TC TD TS"])
    s, _ = run(s, P("7H 8H 9H"))
    assert s.pending.kind == "choose_power" and s.pending.ranks == (7, 8, 9)
    s, _ = run(s, ChoosePower(8))
    # 8 chosen: no draw, no 7 constraint, no change of direction.
    assert s.turn == 1 and s.turn_constraint is None and s.direction == 1
    assert hand(s, 0) == {C("AS")}


def test_run_with_one_power_applies_it_without_asking() -> None:
    s = rigged(["AH 2H 3H 4H KS", "AC 2D 3C"])
    s, _ = run(s, P("AH 2H 3H 4H"), DrawPile())
    assert s.pending.kind == "four_ask"


# --------------------------------------------------------------------------- 4


def test_four_asks_a_value_target_chooses_which_card_and_gets_one_back() -> None:
    s = rigged(["4H KS 9C", "QC QD 2S", "5D 6D"])
    s, _ = run(s, P("4H"), DrawPile())
    assert s.pending.kind == "four_ask" and s.pending.seat == 0
    s, _ = run(s, AskFour(target=1, rank=12))
    # The target chooses which of its Queens to give.
    assert s.pending.kind == "four_give" and s.pending.seat == 1
    assert set(legal_actions(s)) == {GiveCard(C("QC")), GiveCard(C("QD"))}
    s, _ = run(s, GiveCard(C("QD")))
    # The asker gives a card of its choice in exchange.
    assert s.pending.kind == "four_exchange" and s.pending.seat == 0
    s, _events = run(s, GiveCard(C("KS")))
    assert C("QD") in hand(s, 0) and C("KS") in hand(s, 1) and C("QD") not in hand(s, 1)
    assert s.turn == 1
    # Both parties know the exchanged cards; the third seat knows neither.
    assert C("QD") in view(s, 1).players[0].known_cards
    assert C("KS") in view(s, 0).players[1].known_cards
    assert view(s, 2).players[0].known_cards == () and view(s, 2).players[1].known_cards == ()


def test_four_target_with_a_single_card_of_the_value_still_gives_it_himself() -> None:
    s = rigged(["4H KS", "QC 2S"])
    s, _ = run(s, P("4H"), DrawPile(), AskFour(1, 12))
    assert s.pending.kind == "four_give" and legal_actions(s) == (GiveCard(C("QC")),)


def test_four_value_absent_nothing_is_exchanged_and_it_is_public() -> None:
    s = rigged(["4H KS", "QC 2S", "5D 6D"])
    s, events = run(s, P("4H"), DrawPile(), AskFour(1, 9))
    answer = of_type(events, FourAnswered)[0]
    assert not answer.given and answer.card is None
    assert s.turn == 1 and hand(s, 1) == {C("QC"), C("2S")}


def test_one_ask_per_four_played() -> None:
    s = rigged(["4H 4S KS", "QC 2S 9D", "5D 6D"])
    s, _ = run(s, P("4H 4S"), DrawPile(), AskFour(1, 9), GiveCard(C("9D")), GiveCard(C("KS")))
    assert s.pending.kind == "four_ask" and s.pending.remaining == 1
    s, _ = run(s, AskFour(2, 5), GiveCard(C("5D")), GiveCard(C("9D")))
    assert s.turn == 1


def test_four_received_may_be_played_at_once_without_effect() -> None:
    s = rigged(["4H KS", "4C 2S", "5D 6D"])
    s, _ = run(s, P("4H"), DrawPile(), AskFour(1, 4), GiveCard(C("4C")), GiveCard(C("KS")))
    assert s.pending.kind == "four_play_received"
    s, _ = run(s, PlayAtOnce(C("4C")))
    assert s.discard[-1].cards == (C("4H"), C("4C"))
    assert s.turn == 1  # no new ask: the 4 received has no effect


def test_four_is_optional() -> None:
    s = rigged(["4H KS", "QC 2S"], rules=OPTIONAL)
    s, _ = run(s, P("4H"), DrawPile(), Skip())
    assert s.turn == 1


# --------------------------------------------------------------------------- 6


def test_six_next_player_must_play_a_card_of_its_colour() -> None:
    s = rigged(["6H KS", "TD TC 9S QS", "5D 5C"])
    s, _ = run(s, P("6H"), DrawPile())
    assert s.turn_constraint == Constraint("six", "red")
    plays = [a for a in legal_actions(s) if hasattr(a, "cards")]
    assert plays == [P("TD"), P("TC TD")]  # a pair counts if one card is red
    with pytest.raises(IllegalActionError) as err:
        apply(s, P("9S"))
    assert err.value.code == "six_colour"


def test_six_without_the_colour_draws_without_playing() -> None:
    s = rigged(["6H KS", "TC 9S", "5D 5C"], pile="2C 3C")
    s, _ = run(s, P("6H"), DrawPile())
    assert not [a for a in legal_actions(s) if hasattr(a, "cards")]
    s, _ = run(s, DrawPile())
    assert hand(s, 1) == {C("TC"), C("9S"), C("3C")} and s.turn == 2


def test_six_player_may_still_call_yanniv() -> None:
    s = rigged(["6H KS", "AC 2S", "5D 5C"])
    s, _ = run(s, P("6H"), DrawPile())
    assert CallYanniv() in legal_actions(s)


def test_sixes_of_both_colours_the_player_chooses_the_colour() -> None:
    s = rigged(["6H 6S KS", "TC 9S", "5D 5C"])
    s, _ = run(s, P("6H 6S"))
    assert s.pending.kind == "choose_colour"
    s, _ = run(s, ChooseColour("black"), DrawPile())
    assert s.turn_constraint == Constraint("six", "black")


# --------------------------------------------------------------------------- 7


def test_seven_next_player_plays_only_seven_or_less() -> None:
    s = rigged(["7H KS", "AC 8S 7C", "5D 5C"])
    s, _ = run(s, P("7H"), DrawPile())
    plays = {a for a in legal_actions(s) if hasattr(a, "cards")}
    assert plays == {P("AC"), P("7C")}
    with pytest.raises(IllegalActionError) as err:
        apply(s, P("8S"))
    assert err.value.code == "seven_limit"


def test_seven_next_player_cannot_call_yanniv() -> None:
    s = rigged(["7H KS", "AC 2S", "5D 5C"])
    s, _ = run(s, P("7H"), DrawPile())
    assert CallYanniv() not in legal_actions(s)
    with pytest.raises(IllegalActionError) as err:
        apply(s, CallYanniv())
    assert err.value.code == "yanniv_after_seven"


def test_seven_without_small_cards_draws_without_playing() -> None:
    s = rigged(["7H KS", "QC 9S", "5D 5C"])
    s, _ = run(s, P("7H"), DrawPile())
    assert all(isinstance(a, DrawPile | TakeDiscard) for a in legal_actions(s))


# --------------------------------------------------------------------------- 8, 9


def test_eight_no_draw() -> None:
    s = rigged(["8H 8S KS", "AC 2S"])
    s, _ = run(s, P("8H 8S"))
    assert s.turn == 1 and hand(s, 0) == {C("KS")}


def test_nine_changes_direction() -> None:
    s = rigged(["9H KS", "AC 2S", "TC TD", "5D 5C"])
    s, _ = run(s, P("9H"), DrawPile())
    assert s.direction == -1 and s.turn == 3


def test_even_number_of_nines_keeps_direction() -> None:
    s = rigged(["9H 9S KS", "AC 2S", "TC TD", "5D 5C"])
    s, _ = run(s, P("9H 9S"), DrawPile())
    assert s.direction == 1 and s.turn == 1


def test_three_nines_change_direction() -> None:
    s = rigged(["9H 9S 9D KS", "AC 2S", "TC TD", "5D 5C"])
    s, _ = run(s, P("9H 9S 9D"), DrawPile())
    assert s.direction == -1 and s.turn == 3


# --------------------------------------------------------------------------- Jack


def test_jack_takes_back_a_card_even_a_power_from_the_last_two_packets() -> None:
    s = rigged(["JH KS", "AC 2S", "TC TD"], discard=["AD", "7C", (2, "8D")])
    s, _ = run(s, P("JH"))
    takes = {a.card for a in legal_actions(s) if isinstance(a, TakeDiscard)}
    assert takes == {C("7C"), C("8D")}  # the two packets below the Jack's own; not the AD
    s, _ = run(s, TakeDiscard(C("7C")))
    assert C("7C") in hand(s, 0) and s.turn == 1


def test_each_extra_jack_reaches_one_packet_further() -> None:
    s = rigged(["JH JS KS", "AC 2S", "TC TD"], discard=["AD", "3D", "7C", (2, "8D")])
    s, _ = run(s, P("JH JS"))
    takes = {a.card for a in legal_actions(s) if isinstance(a, TakeDiscard)}
    assert takes == {C("3D"), C("7C"), C("8D")}


def test_jack_skips_emptied_packets() -> None:
    s = rigged(["JH KS", "AC 2S", "TC TD"], discard=["AD", "7C", "", (2, "8D")])
    s, _ = run(s, P("JH"))
    takes = {a.card for a in legal_actions(s) if isinstance(a, TakeDiscard)}
    assert takes == {C("7C"), C("8D")}


def test_jack_never_takes_from_its_own_packet_and_is_optional() -> None:
    s = rigged(["JH JD KS", "AC 2S"], discard=["AD", (1, "3C")], pile="5S", rules=OPTIONAL)
    s, _ = run(s, P("JH JD"))
    takes = {a.card for a in legal_actions(s) if isinstance(a, TakeDiscard)}
    assert C("JH") not in takes and C("JD") not in takes
    s, _ = run(s, DrawPile())
    assert C("5S") in hand(s, 0)


# --------------------------------------------------------------------------- Queen


def test_queen_draws_one_more_keeps_one_and_orders_the_rest() -> None:
    s = rigged(["QH QS KS", "AC 2S"], pile="3D 9C TD 5H")
    s, _ = run(s, P("QH QS"), UseQueen())
    assert s.pending.kind == "queen_keep" and set(s.pending.cards) == {C("3D"), C("9C"), C("TD")}
    s, _ = run(s, QueenKeep(keep=C("3D"), order=(C("TD"), C("9C"))))
    assert C("3D") in hand(s, 0)
    assert s.pile[-1] == C("TD") and s.pile[-2] == C("9C")
    # The Queen player knows the order; the other player does not.
    assert view(s, 0).pile_known == (C("TD"), C("9C"))
    assert view(s, 1).pile_known == ()
    # When the next player draws the top card, the Queen player knows where it went.
    s, _ = run(s, P("2S"), DrawPile())
    assert C("TD") in view(s, 0).players[1].known_cards


def test_queen_is_optional() -> None:
    s = rigged(["QH KS", "AC 2S"], pile="3D 9C", rules=OPTIONAL)
    s, _ = run(s, P("QH"), DrawPile())
    assert C("3D") in hand(s, 0) and s.turn == 1


# --------------------------------------------------------------------------- King


def test_king_gives_a_card_then_takes_one_at_random() -> None:
    s = rigged(["KH TS 9S", "AC 2S 3D", "5D 5C"])
    s, _ = run(s, P("KH"), DrawPile())
    assert s.pending.kind == "king"
    s, events = run(s, KingSwap(card=C("TS"), target=1))
    swap = of_type(events, KingSwapped)[0]
    assert swap.given == C("TS") and swap.taken in {C("AC"), C("2S"), C("3D"), C("TS")}
    assert swap.taken in hand(s, 0)
    assert len(s.hands[0]) == 3 and len(s.hands[1]) == 3
    # Third seat sees the swap without the cards.
    from yanniv.kit.events import redact

    assert redact(swap, 2).given is None and redact(swap, 2).taken is None
    assert redact(swap, 1) == swap


def test_one_swap_per_king_and_it_is_optional() -> None:
    s = rigged(["KH KS TS 9S", "AC 2S 3D", "5D 5C"], rules=OPTIONAL)
    s, _ = run(s, P("KH KS"), DrawPile(), KingSwap(C("TS"), 1))
    assert s.pending.kind == "king" and s.pending.remaining == 1
    s, _ = run(s, Skip())
    assert s.turn == 1


def test_under_a_six_a_player_who_can_play_must_play() -> None:
    s = rigged(["6H KS", "TD 9S", "5D 5C"])
    s, _ = run(s, P("6H"), DrawPile())
    assert DrawPile() not in legal_actions(s)


def test_direction_is_reset_at_each_new_manche() -> None:
    s = rigged(["AS 2H", "TC 5C", "TD 3D"], pile="2C 2D 3C", direction=-1, turn=0)
    # Counter-clockwise: after the caller comes seat 2, then seat 1, then the check.
    s, _ = run(s, CallYanniv(), P("TD"), DrawPile(), P("TC"), DrawPile())
    assert s.manche == 2 and s.direction == 1


def test_a_hidden_event_is_one_object_for_everyone_it_is_hidden_from() -> None:
    """`redact` keeps each private event's hidden form: the server redacts a change for
    every seat, and shares the data of one form between the seats that get it."""
    from yanniv.games.yanniv.rules.events import Drew
    from yanniv.kit.events import redact

    drew = Drew(seat=0, source="pile", card=C("TS"), without_playing=False)
    hidden = redact(drew, 1)
    assert hidden == Drew(seat=0, source="pile", card=None, without_playing=False)
    assert redact(drew, 2) is hidden and redact(drew, None) is hidden
    assert redact(drew, 0) is drew
