"""The YANNIV rules engine: pure, deterministic, immutable states.

The whole surface: `new_match`, `legal_actions`, `apply`, `view`. Chance comes only from the
seed held in the state; no I/O, no clock, no global `random`.
"""

from yanniv.games.yanniv.rules.actions import (
    Action,
    AskFour,
    CallYanniv,
    ChooseColour,
    ChoosePower,
    DrawPile,
    GiveCard,
    KingSwap,
    Play,
    PlayAtOnce,
    QueenKeep,
    Skip,
    TakeDiscard,
    UseQueen,
)
from yanniv.games.yanniv.rules.cards import DECK, Card, cards, hand_value
from yanniv.games.yanniv.rules.errors import IllegalActionError
from yanniv.games.yanniv.rules.legal import legal_actions
from yanniv.games.yanniv.rules.setup import new_match, start_match
from yanniv.games.yanniv.rules.state import MatchConfig, MatchState, Pending
from yanniv.games.yanniv.rules.turn import apply
from yanniv.games.yanniv.rules.view import MatchView, view
from yanniv.kit.events import Event, redact

__all__ = [
    "DECK",
    "Action",
    "AskFour",
    "CallYanniv",
    "Card",
    "ChooseColour",
    "ChoosePower",
    "DrawPile",
    "Event",
    "GiveCard",
    "IllegalActionError",
    "KingSwap",
    "MatchConfig",
    "MatchState",
    "MatchView",
    "Pending",
    "Play",
    "PlayAtOnce",
    "QueenKeep",
    "Skip",
    "TakeDiscard",
    "UseQueen",
    "apply",
    "cards",
    "hand_value",
    "legal_actions",
    "new_match",
    "redact",
    "start_match",
    "view",
]
