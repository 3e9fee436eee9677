"""A bot receives only its seat's view: two states that differ only in cards the seat cannot
know (an opponent's unknown card swapped with one of the pile, or between two opponents)
give it the same view, hence the same decision."""

from __future__ import annotations

import pytest

from tests.games.yanniv.bots.conftest import random_states
from yanniv.games.yanniv.bots import LEVELS, make_bot
from yanniv.games.yanniv.rules import MatchState, view


def _swap_hidden(state: MatchState, seat: int) -> MatchState | None:
    """A copy where one unknown card of an opponent trades places with an unknown card of
    another opponent or of the pile (counts and everything `seat` knows unchanged)."""
    known = state.known[seat]
    pile_known = state.pile_known[seat]
    for opp in range(state.config.seats):
        if opp == seat:
            continue
        mine = [c for c in state.hands[opp] if c not in known[opp]]
        if not mine:
            continue
        for other in range(state.config.seats):
            if other in (seat, opp):
                continue
            theirs = [c for c in state.hands[other] if c not in known[other]]
            for card in theirs:
                if card.rank != mine[0].rank:
                    hands = list(state.hands)
                    hands[opp] = tuple(sorted((*[c for c in hands[opp] if c != mine[0]], card)))
                    hands[other] = tuple(
                        sorted((*[c for c in hands[other] if c != card], mine[0]))
                    )
                    twin = state.copy()
                    twin.hands = tuple(hands)
                    return twin
        pile = [c for c in state.pile if c not in pile_known and c.rank != mine[0].rank]
        if pile:
            swap = pile[0]
            hands = list(state.hands)
            hands[opp] = tuple(sorted((*[c for c in hands[opp] if c != mine[0]], swap)))
            twin = state.copy()
            twin.hands = tuple(hands)
            twin.pile = tuple(mine[0] if c == swap else c for c in state.pile)
            return twin
    return None


def _twins(
    limit: int, kinds: tuple[str, ...] = ("turn",), matches: int = 4
) -> list[tuple[MatchState, MatchState, int]]:
    found = []
    for state in random_states(seed=21, matches=matches, seats=4):
        seat = state.to_act
        assert seat is not None
        if state.pending is None or state.pending.kind not in kinds or state.yanniv_caller:
            continue
        twin = _swap_hidden(state, seat)
        if twin is not None:
            found.append((state, twin, seat))
        if len(found) == limit:
            break
    return found


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_same_decision_when_only_hidden_cards_differ(level: str) -> None:
    twins = _twins(12)
    assert len(twins) == 12
    for state, twin, seat in twins:
        assert state.hands != twin.hands  # the worlds really differ...
        assert view(state, seat) == view(twin, seat)  # ...in nothing the seat can know
        first = make_bot(level, seat, "honest").decide(view(state, seat))
        second = make_bot(level, seat, "honest").decide(view(twin, seat))
        assert first == second


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_same_power_decision_when_only_hidden_cards_differ(level: str) -> None:
    """The same at a King swap, a 4 ask or a Queen's keep, which difficile searches too."""
    twins = _twins(12, ("king", "four_ask", "queen_keep"), matches=40)
    assert len(twins) == 12
    assert {state.pending.kind for state, _, _ in twins if state.pending} == {
        "king", "four_ask", "queen_keep"
    }
    for state, twin, seat in twins:
        assert view(state, seat) == view(twin, seat)
        first = make_bot(level, seat, "honest").decide(view(state, seat))
        second = make_bot(level, seat, "honest").decide(view(twin, seat))
        assert first == second
