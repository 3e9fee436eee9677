"""Rooms with equal settings share their settings' data; a change of settings is seen at once;
the summary's text kept around its version follows every change of what it shows."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import orjson

from yanniv.games import get_game
from yanniv.server.rooms.room import Room
from yanniv.server.rooms.room_settings import settings_model
from yanniv.server.rooms.seat import Seat


def _room(code: str, **fields: object) -> Room:
    game = get_game("yanniv")
    now = datetime.now(UTC)
    settings = settings_model(game)(game="yanniv", **fields)
    return Room(code=code, status="waiting", host_seat=0, settings=settings, version=1,
                created_at=now, updated_at=now, game=game)


def test_equal_settings_share_one_copy_and_a_change_is_seen() -> None:
    first, second, other = _room("AAAA"), _room("BBBB"), _room("CCCC", manches=3)
    assert first.settings_data() is second.settings_data()
    assert first.limits_data() is second.limits_data()
    assert other.settings_data()["manches"] == 3 != first.settings_data()["manches"]
    first.settings = first.settings.model_copy(update={"manches": 2})
    assert first.settings_data()["manches"] == 2
    assert second.settings_data()["manches"] != 2  # the shared copy was not changed
    assert first.summary(None)["settings"]["manches"] == 2


def test_summary_head_follows_every_change() -> None:
    """After each random change (version, status, host, settings, a seat taken, left,
    renamed, renumbered, connected, disconnected, made a bot), the kept text is what writing
    the whole summary again gives."""
    rng = random.Random(7)
    room = _room("DDDD")
    now = datetime.now(UTC)

    def seat(n: int) -> Seat:
        return Seat(seat=n, pseudo=f"J{n}", token_hash="x", owner_hash=None, joined_at=now)

    room.seats.append(seat(0))
    changes = [
        lambda: setattr(room, "version", room.version + 1),
        lambda: setattr(room, "status", rng.choice(["waiting", "playing", "finished"])),
        lambda: setattr(room, "host_seat", rng.randrange(4)),
        lambda: setattr(room, "settings", room.settings.model_copy(
            update={"manches": rng.randint(1, 9), "public": rng.random() < 0.5})),
        lambda: room.seats.append(seat(len(room.seats))) if len(room.seats) < 4 else None,
        lambda: room.seats.pop() if len(room.seats) > 1 else None,
        lambda: setattr(rng.choice(room.seats), "pseudo", rng.choice(["Zoé", "Léo", "A"])),
        lambda: setattr(rng.choice(room.seats), "seat", rng.randrange(4)),
        lambda: setattr(rng.choice(room.seats), "connections", rng.randrange(3)),
        lambda: setattr(rng.choice(room.seats), "bot_level",
                        rng.choice([None, "facile", "difficile"])),
    ]
    for _ in range(2000):
        rng.choice(changes)()
        assert room.summary_head() == orjson.dumps(room._summary_fields())[:-1]
        assert orjson.loads(room.summary_head() + b',"your_seat":0}') == room.summary(0)
