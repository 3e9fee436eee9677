"""Why an action is not legal: a machine code and a clear French (and English) message.

Legality itself is decided by membership in `legal_actions`; this module only finds the most
helpful reason to give the player, from the same predicates `legal_actions` is built from
(`play_refusal`, `call_refusal`, `take_refusal`, `mandatory_power`, `legal_plays`): each
rule has one source, and only the words live here.
"""

from __future__ import annotations

from yanniv.games.yanniv.rules.actions import (
    Action,
    AskFour,
    CallYanniv,
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
from yanniv.games.yanniv.rules.cards import JACK, QUEEN
from yanniv.games.yanniv.rules.errors import IllegalActionError
from yanniv.games.yanniv.rules.legal import (
    call_refusal,
    legal_plays,
    mandatory_power,
    play_refusal,
    take_refusal,
)
from yanniv.games.yanniv.rules.state import MatchState

RANK_NAMES_FR = {4: "4", 11: "Valet", 12: "Dame", 13: "Roi"}
_RANK_NAMES_EN = {4: "4", 11: "Jack", 12: "Queen", 13: "King"}
#: What a mandatory power orders, by rank.
_ORDER_FR = {
    4: "demandez une valeur à un joueur",
    11: "reprenez une carte dans la défausse",
    12: "piochez avec la Dame",
    13: "donnez une carte à un joueur",
}

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


def _refused_play(state: MatchState, reason: str) -> IllegalActionError:
    if reason == "card_not_in_hand":
        return _err(reason, "Vous n'avez pas cette carte.", "Card not in hand.")
    if reason == "not_a_combination":
        return _err(
            reason,
            "Combinaison impossible : une carte, un double/triple/carré, ou une suite "
            "d'au moins 3 cartes de même couleur.",
            "Not a single, a set, or a run of 3+ of one suit.",
        )
    if reason == "six_colour":
        colour = state.turn_constraint.colour if state.turn_constraint else None
        colour_fr = "rouge" if colour == "red" else "noire"
        return _err(
            reason,
            f"Un 6 a été posé : jouez au moins une carte {colour_fr}.",
            f"A 6 was played: play at least one {colour} card.",
        )
    return _err(
        reason,
        "Un 7 a été posé : jouez seulement des cartes de 7 ou moins.",
        "A 7 was played: only cards of 7 or less.",
    )


def _refused_call(state: MatchState, reason: str) -> IllegalActionError:
    if reason == "yanniv_last_lap":
        return _err(
            reason,
            "YANNIV a déjà été dit : dernier tour, impossible de le dire.",
            "YANNIV was already called: last lap.",
        )
    if reason == "yanniv_after_seven":
        return _err(reason, "Après un 7, on ne peut pas dire YANNIV.", "No YANNIV after a 7.")
    limit = state.config.rules.call_limit
    return _err(
        reason,
        f"YANNIV seulement avec {limit} points ou moins en main.",
        f"YANNIV needs {limit} points or less.",
    )


def _declines(action: Action, forced: int) -> bool:
    """Whether `action` would decline the mandatory power `forced`."""
    if isinstance(action, Skip):
        return True
    if forced == QUEEN:
        return isinstance(action, DrawPile | TakeDiscard)
    return forced == JACK and isinstance(action, DrawPile)


def explain(state: MatchState, action: Action) -> IllegalActionError:
    """The reason `action` is not among `legal_actions(state)`."""
    pending = state.pending
    assert pending is not None
    kind = pending.kind
    allowed = _DECISION_ACTIONS.get(kind)
    if allowed is not None and not isinstance(action, allowed) and not isinstance(action, Skip):
        return _err(
            "wrong_decision",
            f"Ce n'est pas le moment : il faut {_EXPECTED_FR[kind]}.",
            f"Not now: the pending decision is '{kind}'.",
        )
    forced = mandatory_power(state)
    if forced is not None and _declines(action, forced):
        return _err(
            "power_mandatory",
            f"Les pouvoirs sont obligatoires ({RANK_NAMES_FR[forced]}) : {_ORDER_FR[forced]}.",
            f"Powers are mandatory ({_RANK_NAMES_EN[forced]}): it cannot be declined.",
        )
    hand = state.hands[pending.seat]
    if isinstance(action, Play) and kind == "turn":
        reason = play_refusal(state, action.cards)
        if reason is not None:
            return _refused_play(state, reason)
    if isinstance(action, CallYanniv):
        reason = call_refusal(state)
        if reason is not None:
            return _refused_call(state, reason)
    if kind == "turn" and isinstance(action, DrawPile | TakeDiscard) and legal_plays(state):
        return _err(
            "must_play",
            "Vous devez jouer (ou dire YANNIV) avant de piocher.",
            "Play (or call YANNIV) before drawing.",
        )
    if isinstance(action, TakeDiscard):
        if take_refusal(state, action.card) == "power_not_takeable":
            return _err(
                "power_not_takeable",
                "Une carte pouvoir ne se reprend pas dans la défausse (sauf avec un Valet).",
                "Power cards cannot be taken from the discard (except with a Jack).",
            )
        return _err(
            "not_takeable",
            "Cette carte ne peut pas être prise : seulement une carte posée par le joueur "
            "précédent (ou à portée du Valet).",
            "Only a card the previous player put down (or one in the Jack's reach) can be "
            "taken.",
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
