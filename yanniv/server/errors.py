"""Errors reported to one client: a stable code, French text and English text.

The one catalogue of refusals: the rooms' and sockets', the framework's and the profiles
API's (raised there by code, `ProfileRefusal`); `server/api/refusals.py` answers every one of them
in
the shape `{code, message, message_en}`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

#: code → (HTTP status, French message, English message); messages may hold `{name}` fields.
MESSAGES: dict[str, tuple[int, str, str]] = {
    "room_not_found": (404, "Aucune salle ne porte ce code.", "No room has this code."),
    "rate_limited": (
        429,
        "Trop de codes de salle erronés : réessayez dans quelques minutes.",
        "Too many wrong room codes: try again in a few minutes.",
    ),
    "too_many_lookups": (
        429,
        "Trop de salles demandées depuis votre adresse : réessayez dans une minute.",
        "Too many rooms asked for from your address: try again in a minute.",
    ),
    "pseudo_length": (
        422,
        "Le pseudo doit faire entre 1 et {detail} caractères.",
        "The pseudo must be 1 to {detail} characters long.",
    ),
    "pseudo_chars": (
        422,
        "Le pseudo ne peut contenir ni caractère invisible ni caractère de contrôle.",
        "The pseudo may not contain invisible or control characters.",
    ),
    "pseudo_taken": (
        409,
        "Ce pseudo est déjà pris dans cette salle : choisissez-en un autre.",
        "This pseudo is already taken in this room: choose another one.",
    ),
    # Worded by profiles (`record.pseudo_refusal`: who owns it, how to log in).
    "pseudo_owned": (409, "{detail}", "{detail_en}"),
    "pseudo_reserved": (
        422,
        "Les pseudos commençant par « {detail} » sont réservés aux joueurs ordinateur : "
        "choisissez-en un autre.",
        "Pseudos starting with “{detail}” are reserved for computer players: "
        "choose another one.",
    ),
    "pseudo_confusable": (
        409,
        "Ce pseudo ressemble trop à celui de « {detail} », déjà dans cette salle : "
        "choisissez-en un autre.",
        "This pseudo looks too much like that of “{detail}”, already in this room: "
        "choose another one.",
    ),
    "room_full": (409, "La salle est complète.", "The room is full."),
    "too_many_for_game": (
        409,
        "Ce jeu se joue à {detail} au plus : retirez d'abord des joueurs.",
        "This game is played by {detail} at most: remove players first.",
    ),
    "bot_level_not_in_game": (
        409,
        "Ce jeu n'a pas d'ordinateur de niveau « {detail} » : retirez-le d'abord.",
        "This game has no computer player of level “{detail_en}”: remove it first.",
    ),
    "unknown_game": (422, "Ce jeu n'existe pas sur le site.",
                     "This game does not exist on this site."),
    "room_started": (
        409,
        "La partie a déjà commencé dans cette salle.",
        "The match has already started in this room.",
    ),
    "missing_token": (
        401,
        "Jeton de place manquant : rejoignez d'abord la salle.",
        "Missing seat token: join the room first.",
    ),
    "bad_token": (
        403,
        "Jeton de place invalide pour cette salle.",
        "Invalid seat token for this room.",
    ),
    "not_host": (403, "Seul l'hôte peut faire cela.", "Only the host can do that."),
    "not_waiting": (
        409,
        "Impossible : la partie a déjà commencé.",
        "Not possible: the match has already started.",
    ),
    "not_finished": (
        409,
        "La revanche n'est possible qu'une fois la partie terminée.",
        "A rematch is only possible once the match is over.",
    ),
    "not_playing": (409, "Aucune partie en cours dans cette salle.", "No match in play here."),
    "seat_not_found": (404, "Cette place est vide.", "This seat is empty."),
    "cannot_remove_host": (
        409,
        "L'hôte ne peut pas se retirer de sa salle.",
        "The host cannot remove themselves from the room.",
    ),
    "not_enough_players": (
        409,
        "Il faut au moins 2 joueurs assis pour lancer la partie.",
        "At least 2 seated players are needed to start.",
    ),
    "first_player_absent": (
        409,
        "Le premier joueur choisi n'est pas assis à la table.",
        "The chosen first player is not seated.",
    ),
    "bad_bot_level": (
        422,
        "Niveau d'ordinateur inconnu : choisissez facile, moyen ou difficile.",
        "Unknown computer level: choose facile, moyen or difficile.",
    ),
    "bad_setting": (422, "Réglage invalide : {detail}", "Invalid setting: {detail_en}"),
    "invalid_request": (
        422,
        "Requête invalide : {detail}",
        "Invalid request: {detail_en}",
    ),
    "not_found": (404, "Cette adresse n'existe pas.", "There is nothing at this address."),
    "method_not_allowed": (
        405,
        "Cette adresse n'accepte pas cette méthode HTTP.",
        "This address does not accept this HTTP method.",
    ),
    "http_error": (400, "Requête refusée (HTTP {detail}).", "Request refused (HTTP {detail})."),
    "request_too_large": (
        413,
        "Requête trop grande (au plus {detail} octets).",
        "Request too large (at most {detail} bytes).",
    ),
    # WebSocket-only errors.
    "bad_json": (400, "Message illisible : ce n'est pas du JSON.", "Unreadable message: not JSON."),
    "unknown_type": (
        400,
        "Type de message inconnu : {detail}.",
        "Unknown message type: {detail}.",
    ),
    "bad_message": (400, "Message mal formé : {detail}", "Malformed message: {detail_en}"),
    "message_too_large": (
        413,
        "Message trop long (au plus {detail} octets).",
        "Message too large (at most {detail} bytes).",
    ),
    "flood": (
        429,
        "Trop de messages envoyés : connexion fermée.",
        "Too many messages sent: connection closed.",
    ),
    "too_many_sockets_ip": (
        429,
        "Trop de connexions ouvertes depuis votre adresse : fermez des onglets ou réessayez "
        "plus tard.",
        "Too many connections open from your address: close some tabs or try again later.",
    ),
    "too_many_lobby_sockets": (
        429,
        "Trop de pages d'accueil ouvertes depuis votre adresse : la liste des salles se met à "
        "jour un peu moins vite.",
        "Too many home pages open from your address: the rooms list updates a little slower.",
    ),
    "too_many_spectators": (
        429,
        "Cette salle a déjà trop de spectateurs : réessayez plus tard.",
        "This room already has too many spectators: try again later.",
    ),
    "too_many_seat_sockets": (
        429,
        "Votre place est déjà ouverte dans trop d'onglets : fermez-en un.",
        "Your seat is already open in too many tabs: close one.",
    ),
    "spectator": (
        403,
        "Vous regardez la partie : seuls les joueurs assis peuvent jouer.",
        "You are watching: only seated players can play.",
    ),
    "stale_version": (
        409,
        "Action refusée : la partie a changé entre-temps (version {detail}), rejouez.",
        "Action refused: the game changed meanwhile (version {detail}), play again.",
    ),
    "stale_settings": (
        409,
        "Réglages refusés : la salle a changé entre-temps (version {detail}), "
        "vérifiez-les et recommencez.",
        "Settings refused: the room changed meanwhile (version {detail}), check them and "
        "try again.",
    ),
    "not_your_turn": (
        409,
        "Ce n'est pas à vous de jouer.",
        "It is not your turn to act.",
    ),
    "bad_action": (400, "Action mal formée : {detail}", "Malformed action: {detail_en}"),
    "duplicate_id": (
        409,
        "Cet identifiant d'action a déjà servi pour une autre action : rien n'a été joué, "
        "envoyez-la avec un nouvel identifiant.",
        "This action id was already used for another action: nothing was played, send it "
        "with a new id.",
    ),
    "seat_removed": (
        403,
        "L'hôte vous a retiré de la salle.",
        "The host removed you from the room.",
    ),
    "slow_client": (
        503,
        "Connexion trop lente : reconnectez-vous.",
        "Connection too slow: please reconnect.",
    ),
    # Profiles API (`yanniv.profiles.errors.ProfileRefusal` names these codes).
    "profile_not_found": (404, "Aucun profil ne porte ce pseudo.", "No profile has this name."),
    "match_not_found": (404, "Cette partie n'existe pas.", "This match does not exist."),
    "not_owner": (
        403,
        "Ce profil n'est pas à vous : seul le navigateur qui le détient peut changer son mot "
        "de passe.",
        "This profile is not yours: only the browser holding it may change its password.",
    ),
    "login_failed": (401, "Pseudo ou mot de passe incorrect.", "Wrong name or password."),
    "login_throttled": (
        429,
        "Trop d'essais : réessayez dans quelques minutes.",
        "Too many attempts: try again in a few minutes.",
    ),
    "room_elsewhere": (
        307,
        "Cette salle est servie par un autre serveur : suivez l'adresse donnée (Location).",
        "This room is served by another server: follow the address given (Location).",
    ),
    "room_moved": (
        503,
        "Cette salle est maintenant servie par un autre serveur : rien n'a été joué, "
        "reconnectez-vous.",
        "This room is now served by another server: nothing was played, reconnect.",
    ),
    "server_error": (
        500,
        "Erreur du serveur : rien n'a été joué, réessayez.",
        "Server error: nothing was played, try again.",
    ),
}


#: What is wrong with one field of a request or message, by pydantic error type: French and
#: English, never pydantic's own (English) text; `{name}` fields come from the error's context.
FIELD_PROBLEMS: dict[str, tuple[str, str]] = {
    "missing": ("champ obligatoire manquant", "field required"),
    "extra_forbidden": ("champ inconnu", "unknown field"),
    "string_type": ("texte attendu", "text expected"),
    "int_type": ("nombre entier attendu", "integer expected"),
    "int_parsing": ("nombre entier attendu", "integer expected"),
    "int_from_float": ("nombre entier attendu", "integer expected"),
    "float_type": ("nombre attendu", "number expected"),
    "float_parsing": ("nombre attendu", "number expected"),
    "bool_type": ("true ou false attendu", "true or false expected"),
    "bool_parsing": ("true ou false attendu", "true or false expected"),
    "dict_type": ("objet JSON attendu", "JSON object expected"),
    "model_type": ("objet JSON attendu", "JSON object expected"),
    "model_attributes_type": ("objet JSON attendu", "JSON object expected"),
    "list_type": ("liste attendue", "list expected"),
    "none_required": ("null attendu", "null expected"),
    "string_too_short": (
        "texte trop court (au moins {min_length} caractère(s))",
        "text too short (at least {min_length} character(s))",
    ),
    "string_too_long": (
        "texte trop long (au plus {max_length} caractères)",
        "text too long (at most {max_length} characters)",
    ),
    "too_short": ("trop peu d'éléments", "too few items"),
    "too_long": ("trop d'éléments", "too many items"),
    "greater_than_equal": ("valeur trop petite (au moins {ge})", "value too small (at least {ge})"),
    "greater_than": ("valeur trop petite (plus de {gt})", "value too small (more than {gt})"),
    "less_than_equal": ("valeur trop grande (au plus {le})", "value too large (at most {le})"),
    "less_than": ("valeur trop grande (moins de {lt})", "value too large (less than {lt})"),
    "literal_error": ("valeur non permise", "value not allowed"),
    "enum": ("valeur non permise", "value not allowed"),
    "string_pattern_mismatch": ("format non permis", "format not allowed"),
    "union_tag_invalid": ("type inconnu", "unknown type"),
    "union_tag_not_found": ("champ « type » manquant", "field 'type' missing"),
    "json_invalid": ("ce n'est pas du JSON valide", "not valid JSON"),
    "json_type": ("ce n'est pas du JSON valide", "not valid JSON"),
}
#: Any other pydantic error type.
OTHER_PROBLEM = ("valeur invalide", "invalid value")
#: Names of the parts of an HTTP request (FastAPI's first `loc` item), when no field is named.
REQUEST_PARTS: dict[str, tuple[str, str]] = {
    "body": ("corps", "body"),
    "path": ("chemin", "path"),
    "query": ("paramètres", "query"),
    "header": ("en-têtes", "headers"),
    "cookie": ("cookies", "cookies"),
}
#: A WebSocket message as a whole.
WHOLE_MESSAGE = ("message", "message")
#: Why `Game.decode_action` refused an action (`WireError.reason`), French and English.
WIRE_PROBLEMS: dict[str, tuple[str, str]] = {
    "not_object": (
        "une action est un objet avec un « type »",
        "an action is an object with a 'type'",
    ),
    "unknown_type": ("type d'action inconnu {subject}", "unknown action type {subject}"),
    "extra_fields": ("champs en trop {subject}", "unexpected fields {subject}"),
    "missing_fields": ("champs manquants {subject}", "missing fields {subject}"),
    "bad_card": (
        "une carte est un code comme « TH », pas {subject}",
        "a card is a code like 'TH', not {subject}",
    ),
    "not_card_list": ("« {subject} » doit être une liste de cartes",
                      "'{subject}' must be a list of cards"),
    "bad_colour": ("« colour » vaut « red » ou « black »", "'colour' is 'red' or 'black'"),
    "not_integer": ("« {subject} » doit être un nombre entier", "'{subject}' must be an integer"),
}
#: At most this many field problems are listed in one message.
MAX_PROBLEMS = 3


def _format(template: str, context: Mapping[str, Any]) -> str:
    try:
        return template.format(**context)
    except (KeyError, IndexError, ValueError):
        return template.split(" (")[0]


def validation_detail(problems: Sequence[Mapping[str, Any]], skip: int,
                      whole: tuple[str, str]) -> tuple[str, str]:
    """French and English descriptions of pydantic errors: « field : problem » each.

    `skip` leading `loc` items are not field names (FastAPI's `body`, a union's tag); `whole`
    names the request or message when no field is left."""
    french: list[str] = []
    english: list[str] = []
    for problem in list(problems)[:MAX_PROBLEMS]:
        kind = str(problem.get("type"))
        loc = [str(part)[:40] for part in problem.get("loc", ())]  # keys come from clients
        # Unreadable JSON is located by character position, not by field.
        where_fr, where_en = ("",) * 2 if kind.startswith("json_") else (".".join(loc[skip:]),) * 2
        if not where_fr:
            where_fr, where_en = REQUEST_PARTS.get(loc[0], whole) if loc else whole
        fr, en = FIELD_PROBLEMS.get(kind, OTHER_PROBLEM)
        context = problem.get("ctx") or {}
        french.append(f"{where_fr} : {_format(fr, context)}")
        english.append(f"{where_en}: {_format(en, context)}")
    return " ; ".join(french) or whole[0], "; ".join(english) or whole[1]


def wire_detail(reason: str, subject: object) -> tuple[str, str]:
    """French and English descriptions of a `yanniv.games.interface.WireError`."""
    fr, en = WIRE_PROBLEMS.get(reason, OTHER_PROBLEM)
    shown = str(subject)[:40]
    return fr.format(subject=shown), en.format(subject=shown)


class GameError(Exception):
    """A refusal sent to the one client that caused it; nothing was changed."""

    #: Extra HTTP headers of the answer (a refusal for a while says when to retry).
    headers: dict[str, str] | None = None

    def __init__(self, code: str, message: str, message_en: str, status: int = 400) -> None:
        super().__init__(message_en)
        self.code = code
        self.message = message
        self.message_en = message_en
        self.status = status

    def body(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "message_en": self.message_en}


def game_error(code: str, detail: object = "", detail_en: object | None = None) -> GameError:
    """The catalogued error `code`, with `detail` filled into its messages."""
    status, fr, en = MESSAGES[code]
    fields = {"detail": detail, "detail_en": detail if detail_en is None else detail_en}
    return GameError(code, fr.format(**fields), en.format(**fields), status)
