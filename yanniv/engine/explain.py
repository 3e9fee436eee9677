"""Why an action is not legal: a machine code and a clear French (and English) message.

Legality itself is decided by membership in `legal_actions`; this module only finds the most
helpful reason to give the player.
"""

from __future__ import annotations

from yanniv.engine.actions import (
    Action,
    AskFour,
    CallYanniv,
    DrawPile,
    GiveCard,
    KingSwap,
    Play,
    PlayAtOnce,
    QueenKeep,
    TakeDiscard,
    UseQueen,
)
from yanniv.engine.cards import hand_value
from yanniv.engine.combos import is_combination
from yanniv.engine.errors import IllegalActionError
from yanniv.engine.legal import YANNIV_LIMIT, legal_plays, playable
from yanniv.engine.state import MatchState

_EXPECTED_FR = {
    "turn": "jouer des cartes ou dire YANNIV",
    "choose_power": "choisir le pouvoir de la suite",
    "choose_colour": "choisir la couleur du 6",
    "draw": "piocher",
    "play_drawn": "poser ou garder la carte piochée",
    "queen_keep": "garder une carte et ordonner les autres (Dame)",
    "four_ask": "demander une valeur (4)",
    "four_give": "donner une carte de la valeur demandée",
    "four_exchange": "donner une carte en échange",
    "four_play_received": "poser ou garder le 4 reçu",
    "king": "donner une carte à un joueur (Roi)",
}

_DECISION_ACTIONS: dict[str, tuple[type, ...]] = {
    "turn": (Play, CallYanniv, DrawPile, TakeDiscard),
    "draw": (DrawPile, TakeDiscard, UseQueen),
    "queen_keep": (QueenKeep,),
    "four_ask": (AskFour,),
    "four_give": (GiveCard,),
    "four_exchange": (GiveCard,),
    "king": (KingSwap,),
    "play_drawn": (PlayAtOnce,),
    "four_play_received": (PlayAtOnce,),
}


def _err(code: str, fr: str, en: str) -> IllegalActionError:
    return IllegalActionError(code, fr, en)


def explain(state: MatchState, action: Action) -> IllegalActionError:
    """The reason `action` is not among `legal_actions(state)`."""
    pending = state.pending
    assert pending is not None
    kind = pending.kind
    allowed = _DECISION_ACTIONS.get(kind)
    if allowed is not None and not isinstance(action, allowed) and type(action).__name__ != "Skip":
        return _err(
            "wrong_decision",
            f"Ce n'est pas le moment : il faut {_EXPECTED_FR[kind]}.",
            f"Not now: the pending decision is '{kind}'.",
        )
    hand = state.hands[pending.seat]
    if isinstance(action, Play):
        if any(card not in hand for card in action.cards):
            return _err("card_not_in_hand", "Vous n'avez pas cette carte.", "Card not in hand.")
        if not is_combination(action.cards):
            return _err(
                "not_a_combination",
                "Combinaison impossible : une carte, un double/triple/carré, ou une suite "
                "d'au moins 3 cartes de même couleur.",
                "Not a single, a set, or a run of 3+ of one suit.",
            )
        constraint = state.turn_constraint
        if constraint is not None and not playable(action.cards, constraint):
            if constraint.kind == "six":
                colour = "rouge" if constraint.colour == "red" else "noire"
                return _err(
                    "six_colour",
                    f"Un 6 a été posé : jouez au moins une carte {colour}.",
                    f"A 6 was played: play at least one {constraint.colour} card.",
                )
            return _err(
                "seven_limit",
                "Un 7 a été posé : jouez seulement des cartes de 7 ou moins.",
                "A 7 was played: only cards of 7 or less.",
            )
    if isinstance(action, CallYanniv):
        if state.yanniv_caller is not None:
            return _err(
                "yanniv_last_lap",
                "YANNIV a déjà été dit : dernier tour, impossible de le dire.",
                "YANNIV was already called: last lap.",
            )
        if state.turn_constraint is not None and state.turn_constraint.kind == "seven":
            return _err(
                "yanniv_after_seven",
                "Après un 7, on ne peut pas dire YANNIV.",
                "No YANNIV after a 7.",
            )
        if hand_value(hand) > YANNIV_LIMIT:
            return _err(
                "yanniv_too_high",
                f"YANNIV seulement avec {YANNIV_LIMIT} points ou moins en main.",
                f"YANNIV needs {YANNIV_LIMIT} points or less.",
            )
    if kind == "turn" and isinstance(action, DrawPile | TakeDiscard) and legal_plays(state):
        return _err(
            "must_play",
            "Vous devez jouer (ou dire YANNIV) avant de piocher.",
            "Play (or call YANNIV) before drawing.",
        )
    if isinstance(action, TakeDiscard):
        if action.card.is_power:
            return _err(
                "power_not_takeable",
                "Une carte pouvoir ne se reprend pas dans la défausse (sauf avec un Valet).",
                "Power cards cannot be taken from the discard (except with a Jack).",
            )
        return _err(
            "not_takeable",
            "Cette carte ne peut pas être prise : seulement une carte posée par le joueur "
            "précédent.",
            "Only a card the previous player put down can be taken.",
        )
    if isinstance(action, UseQueen):
        return _err("no_queen", "Aucune Dame posée ce tour-ci.", "No Queen played this turn.")
    if isinstance(action, GiveCard | KingSwap | PlayAtOnce) and action.card not in hand:
        return _err("card_not_in_hand", "Vous n'avez pas cette carte.", "Card not in hand.")
    if isinstance(action, GiveCard) and kind == "four_give":
        return _err(
            "wrong_rank",
            "Donnez une carte de la valeur demandée.",
            "Give a card of the asked value.",
        )
    if isinstance(action, AskFour | KingSwap):
        return _err(
            "invalid_target",
            "Choisissez un autre joueur de la manche (et une valeur de l'As au Roi).",
            "Choose another player of this manche (and a rank from Ace to King).",
        )
    if isinstance(action, QueenKeep):
        return _err(
            "invalid_order",
            "Gardez une des cartes piochées et remettez toutes les autres.",
            "Keep one drawn card and put all the others back.",
        )
    return _err(
        "illegal_action",
        f"Action impossible maintenant : il faut {_EXPECTED_FR[kind]}.",
        f"Action not legal now (pending: {kind}).",
    )
