"""`fast_json`'s split views: public fields written once per shared object, the rest for
each viewer, on a toy view whose every value is known here."""

from __future__ import annotations

from dataclasses import dataclass

import orjson
import pytest

from yanniv.games.wire import FastEncoder, ViewMemo

ENCODER = FastEncoder(coded=(), tagged=lambda cls: False)


@dataclass(slots=True)
class Toy:
    viewer: int
    secret: tuple[int, ...]
    table: tuple[int, ...]
    turn: int


SPLIT = ENCODER.split_view_converter(Toy, frozenset({"secret"}), frozenset({"table", "turn"}))


def read(memo: ViewMemo, toy: Toy, shared: object) -> dict[str, object]:
    data: dict[str, object] = orjson.loads(orjson.dumps(memo.wire(toy, shared)))
    return data


def test_each_viewer_gets_its_own_fields_and_the_public_ones() -> None:
    memo = ViewMemo(ENCODER, SPLIT)
    state = object()
    for viewer in range(3):
        toy = Toy(viewer, (viewer, viewer * 10), (1, 2), 0)
        assert read(memo, toy, state) == {
            "viewer": viewer, "secret": [viewer, viewer * 10], "table": [1, 2], "turn": 0}


def test_public_fields_are_written_again_for_another_shared_object() -> None:
    memo = ViewMemo(ENCODER, SPLIT)
    first, second = object(), object()
    assert read(memo, Toy(0, (), (1,), 0), first)["table"] == [1]
    # Same object: the block written for the first view is reused (the caller vouched).
    assert read(memo, Toy(1, (), (9,), 5), first)["table"] == [1]
    assert read(memo, Toy(1, (), (9,), 5), second) == {
        "viewer": 1, "secret": [], "table": [9], "turn": 5}


def test_without_a_shared_object_every_field_is_written() -> None:
    memo = ViewMemo(ENCODER, SPLIT)
    assert read(memo, Toy(0, (3,), (1,), 0), object())["table"] == [1]
    assert read(memo, Toy(1, (4,), (7,), 2), None) == {
        "viewer": 1, "secret": [4], "table": [7], "turn": 2}


@pytest.mark.parametrize("public", [frozenset(), frozenset({"nope"}),
                                    frozenset({"viewer", "secret", "table", "turn"})])
def test_a_split_needs_fields_on_both_sides(public: frozenset[str]) -> None:
    with pytest.raises(ValueError):
        ENCODER.split_view_converter(Toy, frozenset(), public)
