"""A seat of a room, as the room and its connections know it, and how seats are made.

Its own module so that a connection can name the seat it is bound to without importing the
room (which holds the connections).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from yanniv.games.interface import BotMemory
from yanniv.profiles.identity import hash_secret
from yanniv.server.rooms.tokens import hash_token, new_token


@dataclass(eq=False)
class Seat:
    """A seated player; `seat` may be renumbered while the room waits (a player removed).

    A computer player has a `bot_level`; its token hash is of a token nobody was given, and
    `bot` is its memory during a match (rebuilt from the log after a restart, never stored).
    """

    seat: int
    pseudo: str
    token_hash: str
    #: sha256 of the `yanniv_owner` cookie of the browser that took the seat (None for bots):
    #: enough to link the seat to a profile, useless to impersonate that browser.
    owner_hash: str | None
    joined_at: datetime
    bot_level: str | None = None
    connections: int = 0
    bot: BotMemory | None = None

    @property
    def is_bot(self) -> bool:
        return self.bot_level is not None

    def row(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "pseudo": self.pseudo, "token_hash": self.token_hash,
            "owner_hash": self.owner_hash, "joined_at": self.joined_at,
            "bot_level": self.bot_level,
        }


def new_seat(seat: int, pseudo: str, token: str, owner_secret: str | None,
             now: datetime) -> Seat:
    return Seat(seat=seat, pseudo=pseudo, token_hash=hash_token(token),
                owner_hash=hash_secret(owner_secret) if owner_secret else None, joined_at=now)


def new_bot_seat(seat: int, pseudo: str, level: str, now: datetime) -> Seat:
    """A computer player's seat: the hash of a token that is thrown away, so no one holds it."""
    return Seat(seat=seat, pseudo=pseudo, token_hash=hash_token(new_token()),
                owner_hash=None, joined_at=now, bot_level=level)
