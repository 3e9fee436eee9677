"""`GET /api/games`: the games rooms may play, each with its settings schema and its bots.

The lobby draws its form from these schemas (labels in both languages, bounds, defaults), and
the client reads the game's limits here instead of keeping copies of them.
"""

from __future__ import annotations

from fastapi import APIRouter

from yanniv.games import GAMES
from yanniv.server.realtime.protocol import GameOut
from yanniv.server.rooms.room_settings import TIMER_RANGE

router = APIRouter(prefix="/api/games", tags=["games"])


@router.get("")
async def list_games() -> list[GameOut]:
    """Every registered game, in the order the lobby offers them."""
    return [GameOut.model_validate({**game.describe(), "timer_range": list(TIMER_RANGE)})
            for game in GAMES.values()]
