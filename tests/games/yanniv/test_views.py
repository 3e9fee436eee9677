"""Views: a seat sees its hand, counts of the others, what it knows of them, and nothing else."""

from __future__ import annotations

from dataclasses import asdict, fields
from itertools import pairwise

from tests.games.yanniv.helpers import C, P, run
from yanniv.games.yanniv.rules import (
    AskFour,
    DrawPile,
    GiveCard,
    KingSwap,
    MatchConfig,
    QueenKeep,
    TakeDiscard,
    UseQueen,
    apply,
    legal_actions,
    new_match,
    view,
)
from yanniv.games.yanniv.rules.rigging import rigged
from yanniv.games.yanniv.rules.view import MatchView, PlayerView


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


def _queen_chain_start():
    """Seat 1 puts 7C back on the pile with a Queen; seat 2 plays an 8 (no draw); seat 0 uses
    a Queen that draws 7C and 9D."""
    s = rigged(["QH 5S 2C", "QD 8H 2S", "8S 3H TC"], pile="5D 7C 9D 3S TH", turn=1)
    s, _ = run(s, P("QD"), UseQueen(), QueenKeep(keep=C("5D"), order=(C("7C"),)))
    assert view(s, 1).pile_known == (C("7C"),)
    s, _ = run(s, P("8S"), P("QH"), UseQueen())
    assert set(s.pending.cards) == {C("7C"), C("9D")}
    return s


def test_queen_chain_a_card_put_back_again_by_another_queen_is_no_longer_known() -> None:
    s, _ = run(_queen_chain_start(), QueenKeep(keep=C("9D"), order=(C("7C"),)))
    assert s.pile[-1] == C("7C")
    # Seat 1 knows only that 7C was among the two cards seat 0 drew, not where it went.
    assert view(s, 1).pile_known == ()
    assert C("7C") not in view(s, 1).players[0].known_cards
    assert view(s, 0).pile_known == (C("7C"),)
    # Seat 2 then draws it: seat 1 cannot tell, seat 0 (who put it back last) can.
    s, _ = run(s, P("8H"), P("3H"), DrawPile())
    assert C("7C") in s.hands[2]
    assert view(s, 1).players[2].known_cards == ()
    assert C("7C") in view(s, 0).players[2].known_cards


def test_queen_chain_a_card_kept_by_another_queen_is_not_known_in_its_hand() -> None:
    s, _ = run(_queen_chain_start(), QueenKeep(keep=C("7C"), order=(C("9D"),)))
    assert C("7C") in s.hands[0]
    assert view(s, 1).players[0].known_cards == ()
    assert view(s, 1).pile_known == ()
    assert view(s, None).players[0].known_cards == ()


def test_four_give_makes_others_forget_only_the_asked_rank_of_the_target() -> None:
    s = rigged(["3D 4H KS QC", "5C 3C 2S", "AC 2D TC"], discard=["AD", (0, "TD")],
               pile="9S 8C 7D 6C 5H TH 2H", turn=1)
    s, _ = run(s, P("5C"), TakeDiscard(C("TD")), P("AC"), DrawPile(), P("3D"), DrawPile())
    s, _ = run(s, P("2S"), TakeDiscard(C("3D")), P("2D"), DrawPile())
    assert view(s, 2).players[1].known_cards == (C("3D"), C("TD"))
    s, _ = run(s, P("4H"), DrawPile(), AskFour(target=1, rank=3), GiveCard(C("3C")),
               GiveCard(C("KS")))
    # Seat 1 gave one of its 3s, which one only seat 0 knows: the others forget 3D, not TD.
    for outsider in (2, None):
        assert view(s, outsider).players[1].known_cards == (C("TD"),)
    assert set(view(s, 0).players[1].known_cards) == {C("3D"), C("TD"), C("KS")}
    assert C("3C") in view(s, 1).players[0].known_cards


def test_king_swap_makes_others_forget_both_hands_and_the_two_know_both_cards() -> None:
    s = rigged(["KH 5S 2C", "AC 3H 2D", "2H 3C TC"], discard=["AD", (2, "TD")],
               pile="9S 8C 7D 6C")
    s, _ = run(s, P("5S"), TakeDiscard(C("TD")), P("AC"), TakeDiscard(C("5S")),
               P("2H"), DrawPile())
    assert view(s, 2).players[0].known_cards == (C("TD"),)
    s, events = run(s, P("KH"), DrawPile(), KingSwap(card=C("2C"), target=1))
    taken = next(e for e in events if type(e).__name__ == "KingSwapped").taken
    for outsider in (2, None):
        assert view(s, outsider).players[0].known_cards == ()
        assert view(s, outsider).players[1].known_cards == ()
    assert {taken, C("TD")} <= set(view(s, 1).players[0].known_cards)
    assert (C("2C") in view(s, 0).players[1].known_cards) == (taken != C("2C"))


def test_every_field_of_a_view_is_set() -> None:
    """`view` fills its objects slot by slot (no `__init__`): a field it forgot would be
    missing, and `asdict` reads every declared field of the view and of each player."""
    state = new_match(MatchConfig(seats=3), "views/fields")
    for _ in range(60):
        for viewer in (*range(3), None):
            for shown in (True, False):
                data = asdict(view(state, viewer, shown))
                assert set(data) == {f.name for f in fields(MatchView)}
                assert all(set(p) == {f.name for f in fields(PlayerView)}
                           for p in data["players"])
        state, _ = apply(state, legal_actions(state)[-1])


def test_a_view_is_the_same_whichever_state_was_viewed_before() -> None:
    """The views of one state share parts made once for it (`view`'s one-state memo): views
    built seat after seat (the memo found) equal those built alternating with another
    state's (the memo made anew each time), for every seat, over a whole match."""
    state = new_match(MatchConfig(seats=4), "views/memo")
    states = []
    while not state.finished:
        states.append(state)
        state, _ = apply(state, legal_actions(state)[len(states) % len(legal_actions(state))])
    states.append(state)
    viewers = (*range(4), None)
    for before, now in pairwise(states):
        in_turn = [asdict(view(now, viewer)) for viewer in viewers]
        alternating = []
        for viewer in viewers:
            view(before, viewer)
            alternating.append(asdict(view(now, viewer)))
        assert in_turn == alternating
