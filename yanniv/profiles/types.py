"""What the server hands over when a match finishes (pure data, no database types)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class FinishedPlayer:
    seat: int
    pseudo: str
    #: sha256 hex (`identity.hash_secret`) of the secret of the browser that played this seat
    #: (the `yanniv_owner` cookie); None for bots and browsers without one.
    owner_hash: str | None
    is_bot: bool = False


@dataclass(frozen=True, slots=True)
class FinishedManche:
    number: int
    tiebreak: bool
    caller: int | None
    #: Whether the caller won the manche (None when nobody called).
    caller_won: bool | None
    winner: int | None
    points: tuple[int, ...]
    deltas: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class FinishedMatch:
    room_code: str
    seed: str
    started_at: datetime
    finished_at: datetime
    players: tuple[FinishedPlayer, ...]
    manches: tuple[FinishedManche, ...]
    totals: tuple[int, ...]
    #: Seats from first to last.
    ranking: tuple[int, ...]
    #: The action log as JSON-ready dicts (the game's stored form), for replays.
    actions: tuple[dict, ...] = ()
    rated: bool = True
