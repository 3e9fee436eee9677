"""Refusals of the profiles API, by code only.

The texts and HTTP status of every refusal, the rooms' and the profiles' alike, are in the
server's one catalogue (`yanniv/server/errors.py`), and one handler (`server/api/refusals.py`)
answers
them all as `{code, message, message_en}`. Profiles sit below the server, so they name the
code and let the layer above word it.
"""

from __future__ import annotations

#: Every code the profiles API refuses with (a test checks each is catalogued).
CODES = frozenset({
    "profile_not_found", "match_not_found", "not_owner", "login_failed", "login_throttled",
    "unknown_game",
})


class ProfileRefusal(Exception):
    """A profiles request refused with `code` (one of `CODES`); nothing was changed."""

    def __init__(self, code: str) -> None:
        if code not in CODES:
            raise ValueError(f"unknown profiles refusal {code!r}")
        super().__init__(code)
        self.code = code
