"""Views: a seat sees its hand, counts of the others, what it knows of them, and nothing else."""

from __future__ import annotations

from tests.engine.helpers import C, P, run
from yanniv.engine import AskFour, DrawPile, GiveCard, TakeDiscard, view
from yanniv.engine.rigging import rigged


def test_own_hand_and_other_counts_only() -> None:
    s = rigged(["5H 9C TS", "AS 2D 3C", "5D"])
    v = view(s, 0)
    assert v.hand == (C("5H"), C("9C"), C("TS"))
    assert [p.card_count for p in v.players] == [3, 3, 1]
    assert v.players[1].known_cards == () and v.players[2].known_cards == ()
    assert v.legal_actions and view(s, 1).legal_actions == ()


def test_spectator_sees_no_hand() -> None:
    s = rigged(["5H 9C TS", "AS 2D 3C"])
    v = view(s, None)
    assert v.hand is None and v.hand_value is None and v.legal_actions == ()
    assert all(p.known_cards == () for p in v.players)


def test_card_taken_from_discard_is_known_to_everyone() -> None:
    s = rigged(["5H 9C TS", "AS 2D 3C", "5D 5C"], discard=["TD", (2, "3D")])
    s, _ = run(s, P("TS"), TakeDiscard(C("3D")))
    for viewer in (1, 2, None):
        assert view(s, viewer).players[0].known_cards == (C("3D"),)
    # Once played, it is no longer "known in hand".
    s, _ = run(s, P("3C"), DrawPile(), P("5D 5C"), DrawPile(), P("3D"), DrawPile())
    assert view(s, 1).players[0].known_cards == ()


def test_four_exchange_is_known_only_to_both_parties() -> None:
    s = rigged(["4H TS", "QC 2S", "5D 6D"], discard=["TD", (2, "3D")])
    s, _ = run(s, P("4H"), TakeDiscard(C("3D")))
    assert view(s, 2).players[0].known_cards == (C("3D"),)
    s, _ = run(s, AskFour(1, 12), GiveCard(C("QC")), GiveCard(C("TS")))
    assert C("QC") in view(s, 1).players[0].known_cards
    # The third seat saw a private exchange: it no longer claims to know seat 0's hand.
    assert view(s, 2).players[0].known_cards == ()


def test_pending_details_only_for_the_deciding_seat_and_drawn_match_is_hidden() -> None:
    s = rigged(["5H 9C TS", "AS 2D 3C"], pile="5S 8D")
    s, _ = run(s, P("5H"), DrawPile())
    assert view(s, 0).pending.kind == "play_drawn"
    other = view(s, 1).pending
    assert other.kind == "draw" and other.cards == ()


def test_discard_shows_takeable_cards_of_the_previous_packet() -> None:
    s = rigged(["5H 9C TS", "AS 2D 5D"], discard=["TD", (1, "2C 3C 4C")])
    v = view(s, 0)
    assert v.previous_packet == 1 and set(v.takeable) == {C("2C"), C("3C")}
