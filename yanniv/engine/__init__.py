"""The YANNIV rules engine: pure, deterministic, immutable states.

The whole surface: `new_match`, `legal_actions`, `apply`, `view`. Chance comes only from the
seed held in the state; no I/O, no clock, no global `random`.
"""

from yanniv.engine.actions import (
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
from yanniv.engine.cards import DECK, Card, cards, hand_value
from yanniv.engine.errors import IllegalActionError
from yanniv.engine.events import Event, redact
from yanniv.engine.legal import legal_actions
from yanniv.engine.rules import apply
from yanniv.engine.setup import new_match, start_match
from yanniv.engine.state import MatchConfig, MatchState, Pending
from yanniv.engine.view import MatchView, view

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
