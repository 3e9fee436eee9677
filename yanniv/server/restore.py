"""A room brought back from the database at start: its row, seats and match, replayed.

Only the seed, config and action log are stored, never an engine state: replaying the log
through the engine rebuilds the live state, each bot's memory (from what its seat saw) and the
action ids already acknowledged (so a client retrying across a restart gets its old `ack`).
"""

from __future__ import annotations

from yanniv.engine import MatchConfig, apply
from yanniv.engine.setup import start_match
from yanniv.server import bots
from yanniv.server.changes import aware
from yanniv.server.protocol import RoomSettings
from yanniv.server.room import LiveMatch, Room, Seat, action_fingerprint
from yanniv.server.store import LoadedRoom
from yanniv.wire import action_from_wire


def restore_room(loaded: LoadedRoom) -> Room:
    """The room as it was; raises if its log is not one the engine accepts in order (a gap,
    or an action the current rules refuse), so the caller can skip that room alone."""
    data = loaded.room
    room = Room(
        code=data["code"], status=data["status"], host_seat=data["host_seat"],
        settings=RoomSettings.model_validate(data["settings"]), version=data["version"],
        created_at=aware(data["created_at"]), updated_at=aware(data["updated_at"]),
        seats=[Seat(**{**s, "joined_at": aware(s["joined_at"])}) for s in loaded.seats],
    )
    m = loaded.match
    if m is not None and room.status != "waiting":
        config = MatchConfig(seats=m.seats, manches=m.manches, first_player=m.first_player)
        state, events = start_match(config, m.seed)
        bots.new_memories(room, m.seed, events)  # bots remember what their seat saw
        match = LiveMatch(
            id=m.id, seed=m.seed, config=config, state=state, pseudos=m.pseudos,
            started_at=aware(m.started_at), deadline_ms=m.deadline_ms,
        )
        for step, seat, version, action_data, client_id in m.actions:
            if step != match.state.step:
                raise RuntimeError(f"room {room.code}: action log has a gap at step {step}")
            match.state, events = apply(match.state, action_from_wire(action_data))
            bots.observe(room, events)
            match.log.append(action_data)
            if client_id is not None:
                match.seen[(seat, client_id)] = (
                    version, action_fingerprint(version - 1, action_data))
        room.match = match
    return room
