"""The games the platform hosts, by id: the one registry everything else asks.

A game is a value (`yanniv.games.interface.Game`); adding one means writing its module and
listing it here, never editing the server, the lobby or profiles.
"""

from __future__ import annotations

from yanniv.games.interface import Game
from yanniv.games.yaniv.game import GAME as YANIV_GAME
from yanniv.games.yanniv.game import GAME as YANNIV_GAME

#: Every registered game by id, in the order the lobby offers them.
GAMES: dict[str, Game] = {game.id: game for game in (YANNIV_GAME, YANIV_GAME)}
#: The game a room plays when its creator does not say.
DEFAULT_GAME = YANNIV_GAME.id
#: The most seats any game has (the server sizes its per-room socket caps on it).
MOST_SEATS = max(game.max_seats for game in GAMES.values())


class UnknownGameError(KeyError):
    """No registered game has this id."""


def get_game(game_id: str) -> Game:
    """The registered game `game_id`; `UnknownGameError` names the known ids."""
    try:
        return GAMES[game_id]
    except KeyError:
        raise UnknownGameError(f"unknown game {game_id!r}; choose from {sorted(GAMES)}") from None


__all__ = ["DEFAULT_GAME", "GAMES", "MOST_SEATS", "Game", "UnknownGameError", "get_game"]
