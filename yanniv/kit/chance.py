"""Chance, kept outside the rules: every random draw comes from the match seed and a label.

`random.Random` instances are created per use from `"{seed}/{label}"`, so the global `random`
module is never touched and the same seed always yields the same deals and draws.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def rng(seed: int | str, *label: object) -> random.Random:
    """A generator of its own for this seed and label (the same pair, the same draws)."""
    return random.Random("/".join(str(part) for part in (seed, *label)))


def shuffled(items: Sequence[T], seed: int | str, *label: object) -> list[T]:
    """`items` in the order the seed and label shuffle them to."""
    result = list(items)
    rng(seed, *label).shuffle(result)
    return result
