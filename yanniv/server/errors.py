"""Errors the server reports to one client: a stable code, French text and English text."""

from __future__ import annotations

from typing import Any

#: code → (HTTP status, French message, English message); messages may hold `{name}` fields.
MESSAGES: dict[str, tuple[int, str, str]] = {
    "room_not_found": (404, "Aucune salle ne porte ce code.", "No room has this code."),
    "rate_limited": (
        429,
        "Trop de codes de salle erronés : réessayez dans quelques minutes.",
        "Too many wrong room codes: try again in a few minutes.",
    ),
    "pseudo_length": (
        422,
        "Le pseudo doit faire entre 1 et 20 caractères.",
        "The pseudo must be 1 to 20 characters long.",
    ),
    "pseudo_chars": (
        422,
        "Le pseudo ne peut contenir que des caractères imprimables.",
        "The pseudo may only contain printable characters.",
    ),
    "pseudo_taken": (
        409,
        "Ce pseudo est déjà pris dans cette salle : choisissez-en un autre.",
        "This pseudo is already taken in this room: choose another one.",
    ),
    "pseudo_owned": (409, "{detail}", "This pseudo belongs to another player: choose another one."),
    "room_full": (409, "La salle est complète (4 joueurs).", "The room is full (4 players)."),
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
        "Invalid request: {detail}",
    ),
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
    "bad_message": (400, "Message mal formé : {detail}", "Malformed message: {detail}"),
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
    "not_your_turn": (
        409,
        "Ce n'est pas à vous de jouer.",
        "It is not your turn to act.",
    ),
    "bad_action": (400, "Action mal formée : {detail}", "Malformed action: {detail}"),
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
    "server_error": (
        500,
        "Erreur du serveur : rien n'a été joué, réessayez.",
        "Server error: nothing was played, try again.",
    ),
}


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
