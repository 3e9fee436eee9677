"""Checks of what players type: pseudos (the host's settings: `room_settings`)."""

from __future__ import annotations

from yanniv.profiles.identity import PSEUDO_MAX
from yanniv.server.errors import game_error
from yanniv.server.rooms.pseudos import bot_word_of, has_invisible


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
    reserved = bot_word_of(pseudo)
    if reserved is not None:
        raise game_error("pseudo_reserved", reserved)
    return pseudo
