"""The public rooms list of a cluster, read from the database (docs/cluster.md): every process
shows the same list, whichever process serves each room.

A room's holder knows whether it is listable (public, waiting, a free seat, someone connected:
`Rooms.listable`) and writes it with each lease renewal (`room_leases.listed`, no statement of
its own); a room counts only while its lease runs, so the rooms of a dead process leave the
list within a lease. The list is thus at most one renewal period (1.5 s) behind the holder's
memory, well within the home page's 3 s refresh; joining checks the room itself anyway.
A lone process keeps listing from its memory (`Rooms.public_rooms`).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, Table, func, select

from yanniv.games import GAMES
from yanniv.server.cluster.leases import db_now_ms
from yanniv.server.rooms.changes import aware
from yanniv.server.store.models import RoomLeaseRow, RoomRow, RoomSeatRow

_LEASES: Table = RoomLeaseRow.__table__  # type: ignore[assignment]
_ROOMS: Table = RoomRow.__table__  # type: ignore[assignment]
_SEATS: Table = RoomSeatRow.__table__  # type: ignore[assignment]
#: Rooms shown at most (as a lone process shows).
SHOWN = 100


def listed_rooms(engine: Engine) -> list[dict[str, Any]]:
    """The listed public rooms whose lease runs, newest first, in `PublicRoom`'s shape."""
    taken = (select(func.count()).select_from(_SEATS)
             .where(_SEATS.c.room_code == _ROOMS.c.code).scalar_subquery())
    host = (select(_SEATS.c.pseudo)
            .where(_SEATS.c.room_code == _ROOMS.c.code, _SEATS.c.seat == _ROOMS.c.host_seat)
            .limit(1).scalar_subquery())
    statement = (
        select(_ROOMS.c.code, _ROOMS.c.game, _ROOMS.c.created_at, taken, host)
        .join(_LEASES, _LEASES.c.room_code == _ROOMS.c.code)
        .where(_LEASES.c.listed, _LEASES.c.expires_ms > db_now_ms(), _ROOMS.c.public,
               _ROOMS.c.status == "waiting")
        .order_by(_ROOMS.c.created_at.desc())
        .limit(SHOWN)
    )
    with engine.connect() as conn:
        rows = conn.execute(statement).all()
    shown = []
    for code, game_id, created_at, seats_taken, host_pseudo in rows:
        game = GAMES.get(game_id)
        if game is None or seats_taken >= game.max_seats:
            continue
        shown.append({"code": code, "host": host_pseudo or "", "seats_taken": seats_taken,
                      "seats_free": game.max_seats - seats_taken, "game": game_id,
                      "created_at": aware(created_at).isoformat()})
    return shown
