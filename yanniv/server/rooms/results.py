"""A finished match as profiles record it: who sat where, each manche, totals and the log.

Built by the server, from the room's seats and its game's outcome (`Game.outcome`), for the
write of the match's last action (`RoomStore.append_action`): the record and the end of the
match are one transaction, so a match is never over without its result, nor recorded twice.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from yanniv.profiles.types import FinishedManche, FinishedMatch, FinishedPlayer
from yanniv.server.rooms.room import LiveMatch, Room


def finished_match(room: Room, match: LiveMatch, state: Any,
                   finished_at: datetime) -> FinishedMatch:
    """The record of `match`, ended in `state`, from its game's outcome. Only people's seats
    carry an owner (the browser that played, which the profile belongs to); a seat that was
    removed has none. Its `actions` are left empty: the store reads the log from the
    database in the transaction that writes the last action (memory keeps no log)."""
    game = room.game
    outcome = game.outcome(state)
    assert outcome is not None, "only a finished match is recorded"
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
            number=m.number, tiebreak=m.tiebreak, caller=m.caller, caller_won=m.caller_won,
            winner=m.winner, points=m.points, deltas=m.deltas, participants=m.participants,
        )
        for m in outcome.manches
    )
    return FinishedMatch(
        room_code=room.code, seed=match.seed, game=game.id, rules_version=match.rules_version,
        config=game.config_to_data(match.config), started_at=match.started_at,
        finished_at=finished_at, players=players, manches=manches, totals=outcome.totals,
        ranking=outcome.ranking,
    )
