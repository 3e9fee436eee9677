"""Room codes: short, easy to read aloud and type, drawn with `secrets` so none can be guessed."""

from __future__ import annotations

import secrets

#: No 0/O, 1/I/L: nothing that reads or sounds like another character.
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
LENGTH = 6


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normalize_code(text: str) -> str:
    """What a player typed → the canonical code: case, spaces, dashes and any other character
    that is not a letter or a digit do not matter (« 5ff ghp », « UFD-8QN », « ufd–8qn »)."""
    return "".join(ch for ch in text if ch.isascii() and ch.isalnum()).upper()[:16]


def is_code(text: str) -> bool:
    """Whether `text` is spelled as the server spells codes (a room may still not exist)."""
    return len(text) == LENGTH and all(ch in ALPHABET for ch in text)
