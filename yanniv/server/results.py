"""A finished match as profiles record it: who sat where, each manche, totals and the log.

Built by the server, from the room's seats and the final engine state, for the write of the
match's last action (`RoomStore.append_action`): the record and the end of the match are one
transaction, so a match is never over without its result, nor recorded twice.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from yanniv.engine import MatchState
from yanniv.profiles.types import FinishedManche, FinishedMatch, FinishedPlayer
from yanniv.server.room import LiveMatch, Room


def finished_match(room: Room, match: LiveMatch, state: MatchState,
                   actions: list[dict[str, Any]], finished_at: datetime) -> FinishedMatch:
    """The record of `match`, ended in `state`. Only people's seats carry an owner (the
    browser that played, which the profile belongs to); a seat that was removed has none."""
    by_seat = {s.seat: s for s in room.seats}
    players = tuple(
        FinishedPlayer(
            seat=n, pseudo=pseudo,
            owner_hash=(by_seat[n].owner_hash
                        if n in by_seat and not by_seat[n].is_bot else None),
            is_bot=n in by_seat and by_seat[n].is_bot,
        )
        for n, pseudo in enumerate(match.pseudos)
    )
    manches = tuple(
        FinishedManche(
            number=r.manche, tiebreak=r.tiebreak, caller=r.caller,
            caller_won=None if r.caller is None else r.winner == r.caller,
            winner=r.winner, points=tuple(r.points), deltas=tuple(r.deltas),
        )
        for r in state.manche_history
    )
    return FinishedMatch(
        room_code=room.code, seed=match.seed, started_at=match.started_at,
        finished_at=finished_at, players=players, manches=manches,
        totals=tuple(state.scores), ranking=tuple(state.ranking), actions=tuple(actions),
    )
