"""Actions are values: equal fields give the one interned object, malformed ones are never
legal, and nothing a client sends makes the intern tables grow."""

from __future__ import annotations

import copy
import pickle

import pytest

from tests.games.yanniv.helpers import C, P
from yanniv.games.yanniv.rules import (
    AskFour,
    CallYanniv,
    ChooseColour,
    ChoosePower,
    DrawPile,
    GiveCard,
    IllegalActionError,
    KingSwap,
    Play,
    PlayAtOnce,
    QueenKeep,
    Skip,
    TakeDiscard,
    UseQueen,
    apply,
    legal_actions,
)
from yanniv.games.yanniv.rules import actions as actions_module
from yanniv.games.yanniv.rules.cards import cards
from yanniv.games.yanniv.rules.rigging import rigged

WELL_FORMED = [
    lambda: P("AS 2S 3S"),
    lambda: P("5H 5S"),
    lambda: CallYanniv(),
    lambda: DrawPile(),
    lambda: UseQueen(),
    lambda: Skip(),
    lambda: TakeDiscard(C("3C")),
    lambda: PlayAtOnce(C("3C")),
    lambda: GiveCard(C("KD")),
    lambda: ChoosePower(11),
    lambda: ChooseColour("red"),
    lambda: AskFour(2, 13),
    lambda: AskFour(target=1, rank=4),
    lambda: KingSwap(C("QH"), 3),
]


@pytest.mark.parametrize("make", WELL_FORMED)
def test_equal_actions_are_one_object_through_copy_and_pickle(make) -> None:
    action = make()
    assert action is make() and action == make() and hash(action) == hash(make())
    assert pickle.loads(pickle.dumps(action)) is action
    assert copy.deepcopy(action) is action


def test_queen_keep_has_value_equality() -> None:
    a = QueenKeep(C("AS"), (C("2H"), C("3D")))
    assert a == QueenKeep(C("AS"), (C("2H"), C("3D")))
    assert a != QueenKeep(C("AS"), (C("3D"), C("2H")))


def test_a_malformed_action_is_rejected_and_the_tables_do_not_grow() -> None:
    s = rigged(["5H 5S 9C", "AS 2D 3C"], discard=["KD"])
    tables = [actions_module._PLAYS, actions_module._ASKS, actions_module._SWAPS]
    sizes = [len(t) for t in tables]
    for junk in (Play(cards("5H 9C")), AskFour(9, 0), KingSwap(C("9C"), 7)):
        assert junk not in legal_actions(s)
        with pytest.raises(IllegalActionError):
            apply(s, junk)
    assert Play([C("9C")]) is P("9C")  # a list of cards is accepted as the tuple it holds
    assert [len(t) for t in tables] == sizes
    assert P("5H 5S") in legal_actions(s)


def test_play_accepts_its_cards_in_any_order() -> None:
    s = rigged(["5H 5S 3D 4D 5D", "AS 2D 3C"], discard=["KD"])
    for order in ("5H 5S", "5S 5H"):
        assert Play(cards(order)) is P("5H 5S")
    for order in ("5D 3D 4D", "4D 5D 3D", "3D 4D 5D"):
        play = Play(cards(order))
        assert play is P("3D 4D 5D") and play in legal_actions(s)
    after, _ = apply(s, Play(cards("5D 4D 3D")))
    assert after.discard[-1].cards == cards("3D 4D 5D")


def test_a_wrong_card_order_never_gives_a_misleading_error() -> None:
    s = rigged(["5H 5S 3D 4D 5D", "AS 2D 3C"], discard=["KD"])
    with pytest.raises(IllegalActionError) as missing:
        apply(s, Play(cards("6D 5D 4D")))  # a run in reverse order, one card not held
    assert missing.value.code == "card_not_in_hand"
    with pytest.raises(IllegalActionError) as mixed:
        apply(s, Play(cards("5D 3D")))  # not a combination in any order
    assert mixed.value.code == "not_a_combination"
