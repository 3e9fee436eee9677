"""`facile`: plays its heaviest combination, takes small discards, calls YANNIV at once.

Shallow on purpose (a beginner's opponent): it is the engine's greedy policy, seat-honest.
"""

from __future__ import annotations

from yanniv.games.yanniv.bots.base import Bot
from yanniv.games.yanniv.bots.policies import greedy
from yanniv.games.yanniv.rules.actions import Action
from yanniv.games.yanniv.rules.view import MatchView


class Facile(Bot):
    level = "facile"

    def decide(self, v: MatchView) -> Action:
        return greedy(v)
