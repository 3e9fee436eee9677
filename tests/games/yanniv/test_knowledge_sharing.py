"""`knowledge` gives rows that held equal sets one result object (memory per live room), and
the sets stay what each viewer knows."""

from __future__ import annotations

from yanniv.games.yanniv.rules import knowledge
from yanniv.games.yanniv.rules.cards import parse_card


def test_a_public_take_gives_every_row_one_shared_set() -> None:
    known = knowledge.empty(4)
    card = parse_card("7H")
    known = knowledge.taken_publicly(known, 2, card)
    sets = [row[2] for row in known]
    assert all(s == frozenset({card}) for s in sets)
    assert len({id(s) for s in sets}) == 1  # one object for the five rows
    assert all(row[o] == frozenset() for row in known for o in (0, 1, 3))


def test_rows_that_knew_different_cards_stay_different() -> None:
    seven, king = parse_card("7H"), parse_card("KS")
    known = knowledge.learn(knowledge.empty(3), 0, 1, king)  # only seat 0 knows the King
    known = knowledge.taken_publicly(known, 1, seven)
    assert known[0][1] == frozenset({seven, king})
    assert known[1][1] == known[2][1] == known[3][1] == frozenset({seven})
    assert known[1][1] is known[3][1]
    known = knowledge.left_hand(known, 1, (seven,))
    assert known[0][1] == frozenset({king})
    assert known[1][1] == known[2][1] == known[3][1] == frozenset()


def test_two_matches_that_know_the_same_cards_share_one_set() -> None:
    """Across matches too: a server's thousands of rooms hold one object per equal set."""
    seven, king = parse_card("7H"), parse_card("KS")
    first = knowledge.learn(knowledge.taken_publicly(knowledge.empty(4), 2, seven), 0, 2, king)
    second = knowledge.learn(knowledge.taken_publicly(knowledge.empty(3), 2, seven), 0, 2, king)
    assert first[0][2] == second[0][2] == frozenset({seven, king})
    assert first[0][2] is second[0][2]
    assert first[1][2] is second[1][2]
    emptied = knowledge.left_hand(first, 2, (seven, king))
    nothing = knowledge.empty(1)[0][0]
    assert all(row[2] is nothing for row in emptied)  # no empty set of its own either
