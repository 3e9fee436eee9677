"""A room's settings: the platform's own choices and its game's, as one flat, strict model.

The platform's fields (`protocol.RoomSettings`: game, public, first player, known cards, log,
timer) and the game's settings model (`Game.settings_model`: YANNIV's manches and rule
options) are joined into one pydantic model per game, so the lobby form, the checks and the
stored JSON all come from the same fields. A game's field may not reuse a platform name.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from pydantic import ValidationError

from yanniv.games import Game, get_game
from yanniv.server.errors import game_error
from yanniv.server.realtime.protocol import STRICT, RoomSettings

#: Seconds per decision a host may choose (or None: no timer).
TIMER_RANGE = (10, 600)
_FLAGS = ("public", "show_known_cards", "log_visible")
#: The field of a settings change that is not a setting: the room version it was based on.
BASED_ON = "version"


@cache
def settings_model(game: Game) -> type[RoomSettings]:
    """`RoomSettings` plus `game`'s settings fields (one class per game)."""
    clash = (set(RoomSettings.model_fields) | {BASED_ON}) & set(game.settings_model.model_fields)
    if clash:
        raise TypeError(f"{game.id} settings reuse platform names: {sorted(clash)}")
    return type(f"{type(game).__name__}RoomSettings", (RoomSettings, game.settings_model),
                {"model_config": STRICT, "__doc__": RoomSettings.__doc__})


def default_settings(game: Game, **platform: Any) -> RoomSettings:
    return settings_model(game)(game=game.id, **platform)


def load_settings(data: dict[str, Any]) -> tuple[Game, RoomSettings]:
    """Stored settings (a room row's JSON); rows older than games say no `game`: YANNIV."""
    game = get_game(data.get("game", "yanniv"))
    return game, settings_model(game).model_validate({**data, "game": game.id})


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _bad(fr: str, en: str) -> Exception:
    return game_error("bad_setting", fr, en)


def _check_platform(key: str, value: Any, game: Game) -> None:
    if key in _FLAGS:
        if not isinstance(value, bool):
            raise _bad(f"« {key} » vaut true ou false", f"{key!r} is true or false")
    elif key == "first_player":
        last = game.max_seats - 1
        if value not in ("random", "host") and not (_int(value) and 0 <= value <= last):
            raise _bad(f"le premier joueur est « random », « host » ou une place de 0 à {last}",
                       f"first_player is 'random', 'host' or a seat from 0 to {last}")
    elif key == "timer_seconds":
        low, high = TIMER_RANGE
        if value is not None and (not _int(value) or not low <= value <= high):
            raise _bad(f"le chrono est désactivé (null) ou de {low} à {high} secondes",
                       f"the timer is off (null) or {low} to {high} seconds")


def _check_game_field(key: str, value: Any, game: Game) -> None:
    """A game setting, checked against its own field (type and bounds), in words drawn from
    its labels, so no game needs error texts of its own."""
    schema = game.settings_schema()["properties"][key]
    label_fr, label_en = schema["label_fr"], schema["label_en"]
    if schema.get("type") == "boolean":
        if not isinstance(value, bool):
            raise _bad(f"« {label_fr} » vaut true ou false", f"{label_en!r} is true or false")
        return
    if schema.get("type") == "integer":
        low, high = schema.get("minimum"), schema.get("maximum")
        if not _int(value) or (low is not None and value < low) or (
                high is not None and value > high):
            raise _bad(f"« {label_fr} » va de {low} à {high}",
                       f"{label_en!r} goes from {low} to {high}")
        return
    try:
        game.settings_model.model_validate({key: value})
    except ValidationError:
        raise _bad(f"valeur refusée pour « {label_fr} »",
                   f"value refused for {label_en!r}") from None


def split_settings_change(body: object) -> tuple[object, int | None]:
    """A settings change body → (the settings to change, the room version they were chosen
    at, None when the body does not say). The patch itself is checked by `patched_settings`."""
    if not isinstance(body, dict) or BASED_ON not in body:
        return body, None
    version = body[BASED_ON]
    if not _int(version):
        raise _bad(f"« {BASED_ON} » est un nombre entier (la version de la salle)",
                   f"{BASED_ON!r} is an integer (the room version)")
    return {k: v for k, v in body.items() if k != BASED_ON}, version


def patched_settings(current: RoomSettings, patch: object) -> RoomSettings:
    """`current` with the fields of `patch` changed, each checked with a clear message.
    Changing `game` keeps the platform's choices and takes the new game's defaults."""
    if not isinstance(patch, dict):
        raise _bad("un objet JSON est attendu", "a JSON object is expected")
    game = get_game(current.game)
    data = current.model_dump()
    if "game" in patch and patch["game"] != current.game:
        wanted = patch["game"]
        try:
            game = get_game(wanted) if isinstance(wanted, str) else None  # type: ignore[assignment]
        except KeyError:
            game = None  # type: ignore[assignment]
        if game is None:
            raise _bad(f"jeu inconnu « {wanted} »", f"unknown game {wanted!r}")
        data = {k: v for k, v in data.items() if k in RoomSettings.model_fields}
        data["game"] = game.id
    fields = settings_model(game).model_fields
    for key, value in patch.items():
        if key == "game":
            continue
        if key not in fields:
            raise _bad(f"réglage inconnu « {key} »", f"unknown setting {key!r}")
        if key in RoomSettings.model_fields:
            _check_platform(key, value, game)
        else:
            _check_game_field(key, value, game)
        data[key] = value
    return settings_model(game).model_validate(data)
