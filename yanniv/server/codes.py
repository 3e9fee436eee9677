"""Room codes: short, easy to read aloud and type, drawn with `secrets` so none can be guessed."""

from __future__ import annotations

import secrets

#: No 0/O, 1/I/L: nothing that reads or sounds like another character.
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
LENGTH = 6


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normalize_code(text: str) -> str:
    """What a player typed → the canonical code (case, spaces and dashes do not matter)."""
    return text.strip().upper().replace(" ", "").replace("-", "")[:16]
