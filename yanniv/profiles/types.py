"""What the server hands over when a match finishes (pure data, no database types)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any


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
    #: Seats that played it, as the game's result says (a tiebreak leaves some out).
    participants: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class FinishedMatch:
    room_code: str
    seed: str
    #: What the match was: its game id, rules code version and config (`Game.config_to_data`),
    #: so that `actions` replay under exactly its rules.
    game: str
    rules_version: str
    config: dict[str, Any]
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
