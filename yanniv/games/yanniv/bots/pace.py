"""How long a bot seems to think before acting, so that a table feels human.

The server waits this long (without blocking its event loop) and then calls `choose_action`
in a worker thread; decisions that are forced (one legal action) come quicker.
"""

from __future__ import annotations

import random

from yanniv.games.yanniv.rules.view import MatchView

#: (minimum, maximum) seconds by pending kind; others use the default.
_DELAYS: dict[str, tuple[float, float]] = {
    "turn": (0.9, 2.2),
    "draw": (0.5, 1.2),
    "four_ask": (0.8, 1.6),
    "king": (0.8, 1.6),
    "queen_keep": (0.7, 1.4),
}
_DEFAULT = (0.4, 0.9)
_FORCED = (0.3, 0.6)


def human_delay(v: MatchView, rng: random.Random | None = None) -> float:
    """Seconds to wait before the bot of `v.viewer` acts on `v`'s pending decision."""
    rng = rng or random.Random()
    kind = v.pending.kind if v.pending is not None else ""
    low, high = _FORCED if len(v.legal_actions) <= 1 else _DELAYS.get(kind, _DEFAULT)
    return rng.uniform(low, high)
