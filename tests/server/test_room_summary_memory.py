"""Rooms with equal settings share their settings' data; a change of settings is seen at once."""

from __future__ import annotations

from datetime import UTC, datetime

from yanniv.games import get_game
from yanniv.server.room import Room
from yanniv.server.room_settings import settings_model


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
