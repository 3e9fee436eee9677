"""Bot levels by name, as the CLI, the tournament and the server refer to them."""

from __future__ import annotations

from collections.abc import Callable

from yanniv.games.yanniv.bots.base import Bot
from yanniv.games.yanniv.bots.facile import Facile
from yanniv.games.yanniv.bots.moyen import Moyen

BotFactory = Callable[[int, int | str], Bot]


def _difficile(seat: int, seed: int | str) -> Bot:
    from yanniv.games.yanniv.bots.difficile import Difficile

    return Difficile(seat, seed)


LEVELS: dict[str, BotFactory] = {
    "facile": Facile,
    "moyen": Moyen,
    "difficile": _difficile,
}


def make_bot(level: str, seat: int, seed: int | str = 0) -> Bot:
    """A fresh bot of `level` for `seat`; KeyError names the known levels."""
    try:
        factory = LEVELS[level]
    except KeyError:
        raise KeyError(f"unknown bot level {level!r}; choose from {sorted(LEVELS)}") from None
    return factory(seat, seed)
