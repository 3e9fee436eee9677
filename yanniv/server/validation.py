"""Checks of what players type or send over HTTP: pseudos and the host's settings."""

from __future__ import annotations

from typing import Any

from yanniv.profiles.identity import PSEUDO_MAX
from yanniv.server.errors import game_error
from yanniv.server.protocol import RoomSettings
from yanniv.server.pseudos import BOT_WORD, has_invisible, is_bot_name

MANCHES_RANGE = (1, 20)
TIMER_RANGE = (10, 600)
MAX_SEATS = 4


def clean_pseudo(raw: object) -> str:
    """The trimmed pseudo a person asked for (1–20 visible characters, not a computer
    player's name), or a French error. Look-alikes of seated players are the room's check."""
    if not isinstance(raw, str):
        raise game_error("pseudo_length", PSEUDO_MAX)
    pseudo = raw.strip()
    if not 1 <= len(pseudo) <= PSEUDO_MAX:
        raise game_error("pseudo_length", PSEUDO_MAX)
    if not pseudo.isprintable() or has_invisible(pseudo):
        raise game_error("pseudo_chars")
    if is_bot_name(pseudo):
        raise game_error("pseudo_reserved", BOT_WORD)
    return pseudo


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def patched_settings(current: RoomSettings, patch: object) -> RoomSettings:
    """`current` with the fields of `patch` changed, each checked with a clear message."""
    if not isinstance(patch, dict):
        raise game_error("bad_setting", "un objet JSON est attendu", "a JSON object is expected")
    data = current.model_dump()
    for key, value in patch.items():
        if key not in data:
            raise game_error(
                "bad_setting", f"réglage inconnu « {key} »", f"unknown setting {key!r}"
            )
        if key in ("public", "show_known_cards", "log_visible"):
            if not isinstance(value, bool):
                raise game_error("bad_setting", f"« {key} » vaut true ou false",
                                 f"{key!r} is true or false")
        elif key == "manches":
            low, high = MANCHES_RANGE
            if not _int(value) or not low <= value <= high:
                raise game_error("bad_setting", f"le nombre de manches va de {low} à {high}",
                                 f"manches goes from {low} to {high}")
        elif key == "first_player":
            if value not in ("random", "host") and not (_int(value) and 0 <= value < MAX_SEATS):
                raise game_error("bad_setting",
                                 "le premier joueur est « random », « host » ou une place de 0 à 3",
                                 "first_player is 'random', 'host' or a seat from 0 to 3")
        elif key == "timer_seconds":
            low, high = TIMER_RANGE
            if value is not None and (not _int(value) or not low <= value <= high):
                raise game_error("bad_setting",
                                 f"le chrono est désactivé (null) ou de {low} à {high} secondes",
                                 f"the timer is off (null) or {low} to {high} seconds")
        data[key] = value
    return RoomSettings.model_validate(data)
