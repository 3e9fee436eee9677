"""Classic Yaniv (rule book `shared/rules/001_…txt`): a pure rules engine, seeded, no I/O."""

from yanniv.games.yaniv.rules.cards import YCard, deck, hand_value, ycards
from yanniv.games.yaniv.rules.model import (
    CallYaniv,
    DrawPile,
    MatchView,
    Play,
    TakeDiscard,
    YanivConfig,
    YanivState,
)
from yanniv.games.yaniv.rules.turn import YanivIllegal, apply, legal_actions, start_match, view

__all__ = [
    "CallYaniv", "DrawPile", "MatchView", "Play", "TakeDiscard", "YCard", "YanivConfig",
    "YanivIllegal", "YanivState", "apply", "deck", "hand_value", "legal_actions",
    "start_match", "view", "ycards",
]
