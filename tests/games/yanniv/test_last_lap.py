"""« Les autres jouent encore une fois »: after a YANNIV call every other player plays exactly
one last turn, whatever 9s are played meanwhile (a 9 changes the order of the remaining
players, never who plays); the caller's hand is checked once all of them have played."""

from __future__ import annotations

from tests.games.yanniv.helpers import P, of_type, run
from yanniv.games.yanniv.rules import CallYanniv, DrawPile
from yanniv.games.yanniv.rules.events import MancheEnded, TurnStarted, YannivChecked
from yanniv.games.yanniv.rules.rigging import rigged


def _lap(state, *actions):  # type: ignore[no-untyped-def]
    """Run the actions; return (who started a turn, in order, the events)."""
    state, events = run(state, *actions)
    return state, [e.seat for e in of_type(events, TurnStarted)], events


def test_last_lap_with_one_nine_in_a_three_seat_game() -> None:
    s = rigged(["AS 2H", "9C TD", "TS 3D"], pile="2C 3C 4C 5C")
    s, seats, events = _lap(s, CallYanniv(), P("9C"), DrawPile(), P("TS"), DrawPile())
    # The 9 reverses the direction: seat 2 still plays before the caller is checked.
    assert seats[:2] == [1, 2]
    checked = of_type(events, YannivChecked)
    assert checked == [YannivChecked(seat=0, holds=True)] and of_type(events, MancheEnded)


def test_last_lap_with_two_nines_in_a_three_seat_game() -> None:
    s = rigged(["AS 2H", "9C TD", "9D 3D"], pile="2C 3C 4C 5C")
    s, seats, events = _lap(s, CallYanniv(), P("9C"), DrawPile(), P("9D"), DrawPile())
    assert seats[:2] == [1, 2] and of_type(events, MancheEnded)
    assert len(of_type(events, YannivChecked)) == 1


def test_last_lap_with_one_nine_in_a_four_seat_game() -> None:
    s = rigged(["AS 2H", "9C TD", "TS 3D", "TH 4D"], pile="2C 3C 4C 5C 6C")
    s, seats, events = _lap(
        s, CallYanniv(), P("9C"), DrawPile(), P("TH"), DrawPile(), P("TS"), DrawPile()
    )
    # After seat 1's 9 the lap goes the other way: seat 3, then seat 2, then the check.
    assert seats[:3] == [1, 3, 2] and of_type(events, MancheEnded)


def test_last_lap_with_two_nines_in_a_four_seat_game() -> None:
    s = rigged(["AS 2H", "9C TD", "TS 3D", "9H 4D"], pile="2C 3C 4C 5C 6C")
    s, seats, events = _lap(
        s, CallYanniv(), P("9C"), DrawPile(), P("9H"), DrawPile(), P("TS"), DrawPile()
    )
    # Seat 1's 9 sends the lap to seat 3, whose 9 turns it back: seat 1 has played, so
    # seat 2 is next, then the caller.
    assert seats[:3] == [1, 3, 2] and of_type(events, MancheEnded)
    assert len(of_type(events, YannivChecked)) == 1


def test_a_nine_in_a_two_seat_last_lap_does_not_give_a_second_turn() -> None:
    s = rigged(["AS 2H", "9C TD"], pile="2C 3C 4C")
    s, seats, events = _lap(s, CallYanniv(), P("9C"), DrawPile())
    assert seats[:1] == [1] and of_type(events, YannivChecked)[0].seat == 0
