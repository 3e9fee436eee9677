"""`facile`: plays its heaviest combination, takes small discards, calls YANNIV at once.

Shallow on purpose (a beginner's opponent): it is the engine's greedy policy, seat-honest.
"""

from __future__ import annotations

from yanniv.bots.base import Bot
from yanniv.engine.actions import Action
from yanniv.engine.view import MatchView
from yanniv.policies import greedy


class Facile(Bot):
    level = "facile"

    def decide(self, v: MatchView) -> Action:
        return greedy(v)
