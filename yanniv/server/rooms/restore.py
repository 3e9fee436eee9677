"""A room brought back from the database at start: its row, seats and match, replayed.

Only the game, its rules version and config, the seed and the action log are stored, never a
state: replaying the log through the game rebuilds the live state, each bot's memory (from
what its seat saw) and the action ids already acknowledged (so a client retrying across a
restart gets its old `ack`).
"""

from __future__ import annotations

from yanniv.games import get_game
from yanniv.server.rooms import bot_turns as bots
from yanniv.server.rooms.changes import aware
from yanniv.server.rooms.room import LiveMatch, Room, Seat, action_fingerprint
from yanniv.server.rooms.room_settings import load_settings
from yanniv.server.store.room_store import LoadedRoom


def restore_room(loaded: LoadedRoom) -> Room:
    """The room as it was; raises if its log is not one its game accepts in order (a gap,
    or an action the stored rules refuse), so the caller can skip that room alone."""
    data = loaded.room
    game, settings = load_settings({**data["settings"], "game": data["game"]})
    m = loaded.match
    version, updated_at = data["version"], aware(data["updated_at"])
    if m is not None and m.actions and m.last_action_at is not None:
        # An action writes its log row, not its room's row (`store._INSERT_ACTION_FENCED`):
        # the room is as the latest write of either left it.
        version = max(version, m.actions[-1][2])
        updated_at = max(updated_at, aware(m.last_action_at))
    room = Room(
        code=data["code"], status=data["status"], host_seat=data["host_seat"],
        settings=settings, game=game, version=version,
        created_at=aware(data["created_at"]), updated_at=updated_at,
        seats=[Seat(**{**s, "joined_at": aware(s["joined_at"])}) for s in loaded.seats],
        lease_epoch=data["lease_epoch"],
    )
    if m is not None and room.status != "waiting":
        match_game = get_game(m.game)
        if match_game is not game:
            raise RuntimeError(f"room {room.code}: its match is of game {m.game!r}")
        config = game.config_from_data(m.config, m.rules_version)
        state, events = game.new_match(config, m.seed)
        bots.new_memories(room, m.seed, events)  # bots remember what their seat saw
        match = LiveMatch(
            id=m.id, seed=m.seed, config=config, rules_version=m.rules_version, state=state,
            pseudos=m.pseudos, started_at=aware(m.started_at), deadline_ms=m.deadline_ms,
        )
        match.remember(events)  # the journal, as the live broadcasts had made it
        for step, seat, version, action_data, client_id in m.actions:
            if step != game.step(match.state):
                raise RuntimeError(f"room {room.code}: action log has a gap at step {step}")
            match.state, events = game.apply(match.state, game.decode_action(action_data).action)
            bots.observe(room, events)
            match.remember(events)
            if client_id is not None:
                match.acknowledged(seat, client_id, version,
                                   action_fingerprint(version - 1, action_data))
        room.match = match
    return room
