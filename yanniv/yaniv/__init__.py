"""Classic Yaniv (rule book `shared/rules/001_…txt`): a pure rules engine, seeded, no I/O."""

from yanniv.yaniv.cards import YCard, deck, hand_value, ycards
from yanniv.yaniv.model import (
    CallYaniv,
    DrawPile,
    MatchView,
    Play,
    TakeDiscard,
    YanivConfig,
    YanivState,
    redact,
)
from yanniv.yaniv.rules import YanivIllegal, apply, legal_actions, start_match, view

__all__ = [
    "CallYaniv", "DrawPile", "MatchView", "Play", "TakeDiscard", "YCard", "YanivConfig",
    "YanivIllegal", "YanivState", "apply", "deck", "hand_value", "legal_actions", "redact",
    "start_match", "view", "ycards",
]
