"""What every bot is: a seat's memory plus a decision from that seat's view only."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TYPE_CHECKING

from yanniv.games.yanniv.bots.tracker import Tracker
from yanniv.games.yanniv.rules.actions import Action
from yanniv.games.yanniv.rules.events import Event
from yanniv.games.yanniv.rules.view import MatchView

if TYPE_CHECKING:
    from yanniv.games.yanniv.bots.search import Work


class Bot:
    """A computer player for one seat. It never sees the state: only `observe`d events (as
    redacted for its seat) and the `MatchView` passed to `decide`."""

    level = "base"

    def __init__(self, seat: int, seed: int | str = 0) -> None:
        self.seat = seat
        self.rng = random.Random(f"{self.level}/{seed}/{seat}")
        self.tracker = Tracker(seat)

    def observe(self, events: Iterable[Event]) -> None:
        """Remember what the seat just saw (events already redacted for it)."""
        self.tracker.observe(events)

    def decide(self, v: MatchView) -> Action:
        raise NotImplementedError

    def work_spent(self) -> Work | None:
        """What the last `decide` searched (worlds, playouts, simulated turns); None for a
        bot that does not search. The tournament reports it beside decision times."""
        return None
