"""`codes_in`, which reads card codes off a value's JSON text, finds what a walk over the
value finds (the oracle's reading before it), in hand-made values and in the messages of a
few engine matches; and no more, but for keys and a string that ends in a quoted code."""

from __future__ import annotations

from typing import Any

import pytest

from tests.games.yanniv.oracle.knowledge_model import CARD, codes_in
from tests.games.yanniv.oracle.play import engine_match


def walked(value: Any) -> set[str]:
    """Every string `CARD` matches anywhere in `value`, by a walk (dict values, lists, tuples)."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if CARD.match(item):
                found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


HAND_MADE = [
    {"a": [("QS", {"b": "2H"})], "c": "XR", "d": "QSX", "e": 7, "f": None, "g": "10H"},
    ["AS", ["KD", ["TC", ["9H"]]], {"x": {"y": ("7D",)}}, True, 1.5],
    {"quoted": 'say "QS" now', "slash": "QS\\n", "newline": "JC\n", "empty": ""},
    "5C",
    "5c",
    [],
]


@pytest.mark.parametrize("value", HAND_MADE)
def test_the_same_codes_as_a_walk(value: Any) -> None:
    assert codes_in(value) == walked(value)


def test_stricter_than_a_walk_on_keys_and_quotes() -> None:
    assert codes_in({"QS": 1}) == {"QS"}
    assert codes_in('a "KH') == {"KH"}
    with pytest.raises(TypeError):
        codes_in({"hand": {"QS"}})  # not JSON: an error, never a blind spot


def test_the_same_codes_as_a_walk_in_every_message_of_some_matches() -> None:
    compared = 0
    for seed in range(6):
        for step in engine_match(7_500_000 + seed, 2 + seed % 3, 1):
            for view, events in step.sent.values():
                for part in [view, *view.values(), events, *events]:
                    assert codes_in(part) == walked(part), part
                    compared += 1
    assert compared > 10_000
