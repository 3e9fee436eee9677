"""The JSON Schema of the whole protocol, generated from the code (`yanniv schema`).

`docs/protocol.schema.json` is this module's output, committed so that a client author can
validate against it without reading Python; a test regenerates it and fails when it differs.
Three sources feed it:

- the pydantic models of `protocol.py` (WebSocket messages, room HTTP bodies) and of
  `yanniv/profiles/schemas.py` (profiles and leaderboard), through pydantic's own generator;
- each game's own schemas (`Game.protocol_schemas`: view, pending decision, actions, events),
  generated from its dataclasses the way
  the game's codec writes them (a card is its two-character code, tuples are arrays, actions
  and events carry their class name as `"type"`);
- the HTTP routes themselves (method, path, status, body and answer models).

The models' free-form `dict[str, Any]` fields (a `state`'s view, room and events, an action
message's action, the settings patch) are replaced by the precise definitions above; any
free-form object left over is an error, so a new untyped field cannot slip in unnoticed.
Every object is closed (`additionalProperties: false`) so that a new field changes the
committed file; clients should still ignore fields they do not know.
"""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path
from typing import Any

from pydantic import BaseModel, TypeAdapter
from pydantic.json_schema import models_json_schema

from yanniv.games import DEFAULT_GAME, GAMES, Game
from yanniv.games.schema import nullable as _nullable
from yanniv.games.schema import ref as _ref
from yanniv.profiles import schemas as profile_schemas
from yanniv.server.realtime import protocol
from yanniv.server.rooms.room_settings import BASED_ON, TIMER_RANGE, settings_model

#: Where `yanniv schema` writes by default: `docs/` of the source tree.
DOCS = Path(__file__).resolve().parents[3] / "docs"
SCHEMA_PATH = DOCS / "protocol.schema.json"


def schema_path(game: Game) -> Path:
    """The committed schema of rooms playing `game`: the default game's keeps its historical
    name, every other game has `protocol.<id>.schema.json`."""
    return SCHEMA_PATH if game.id == DEFAULT_GAME else DOCS / f"protocol.{game.id}.schema.json"
COMMAND = "yanniv schema"
DIALECT = "https://json-schema.org/draft/2020-12/schema"




# ---------------------------------------------------------------- pydantic models

#: Inputs are read leniently (defaults may be left out); outputs always carry every field.
_INPUTS: tuple[type[BaseModel], ...] = (
    protocol.CreateRoomIn, protocol.JoinRoomIn, protocol.AddBotIn,
    protocol.ActionIn, protocol.PingIn,
    profile_schemas.LoginIn, profile_schemas.PasswordIn,
)
_OUTPUTS: tuple[type[BaseModel], ...] = (
    protocol.SeatGranted, protocol.RoomSummary, protocol.PublicRoom, protocol.ErrorBody,
    *protocol.SERVER_MODELS, protocol.RoomSettings, protocol.GameOut,
    profile_schemas.LeaderboardPage, profile_schemas.ProfileOut, profile_schemas.MatchOut,
    profile_schemas.OkOut,
)

#: The free-form fields of the models, and what they really hold.
_REFINED: dict[tuple[str, str], dict[str, Any]] = {
    ("ActionIn", "action"): _ref("Action"),
    ("StateOut", "room"): _ref("RoomSummary"),
    ("RoomSummary", "settings"): _ref("RoomSettings"),
    ("GameOut", "settings"): {"$ref": DIALECT},
    ("RoomSummary", "limits"): _ref("GameLimits"),
    ("GameOut", "limits"): _ref("GameLimits"),
    ("StateOut", "view"): _nullable(_ref("MatchView")),
    ("StateOut", "events"): {"type": "array", "items": _ref("Event")},
    ("PresenceOut", "seats"): {"type": "array", "items": _ref("PresenceSeat")},
    ("JournalOut", "events"): {"type": "array", "items": _ref("Event")},
}


def _strip_titles(schema: Any) -> Any:
    """pydantic's per-property `title`s repeat the property names: drop them."""
    if isinstance(schema, dict):
        out = {}
        for key, value in schema.items():
            if key == "properties":
                out[key] = {
                    name: {k: _strip_titles(v) for k, v in prop.items() if k != "title"}
                    for name, prop in value.items()
                }
            else:
                out[key] = _strip_titles(value)
        return out
    if isinstance(schema, list):
        return [_strip_titles(item) for item in schema]
    return schema


def _settings_properties(game: Game) -> dict[str, Any]:
    """A room's settings with the ranges `room_settings.py` enforces: the platform's, then
    the game's own (from its settings model, labels included)."""
    t_low, t_high = TIMER_RANGE
    fields = settings_model(game).model_fields
    props: dict[str, Any] = {
        "game": {"const": game.id},
        "public": {"type": "boolean"},
        "first_player": {"anyOf": [{"enum": ["random", "host"]}, {
            "type": "integer", "minimum": 0, "maximum": game.max_seats - 1}]},
        "show_known_cards": {"type": "boolean"},
        "log_visible": {"type": "boolean"},
        "timer_seconds": _nullable({"type": "integer", "minimum": t_low, "maximum": t_high}),
    }
    if set(props) != set(protocol.RoomSettings.model_fields):
        raise RuntimeError(f"RoomSettings fields changed; update {__name__}")
    for name, prop in game.settings_schema()["properties"].items():
        props[name] = {k: v for k, v in prop.items() if k not in ("title", "default")}
    return {name: {**props[name], "default": fields[name].default} for name in fields}


def _model_defs(game: Game) -> dict[str, Any]:
    pairs = [(m, "validation") for m in _INPUTS] + [(m, "serialization") for m in _OUTPUTS]
    _, generated = models_json_schema(pairs, ref_template="#/$defs/{model}")
    defs: dict[str, Any] = _strip_titles(generated["$defs"])
    outputs = {m.__name__ for m in _OUTPUTS} | {"RoomSettings", "SeatSummary"}
    outputs |= {name for name in defs if name.endswith("Out") or name in (
        "LeaderboardEntry", "MatchSummary")}
    for name, schema in defs.items():
        props = schema.get("properties")
        if props is None:
            continue
        for field_name in props:
            refined = _REFINED.get((name, field_name))
            if refined is not None:
                props[field_name] = refined
        if name in outputs:  # the server always writes every field
            schema["required"] = list(props)
        schema["additionalProperties"] = False
    settings = _settings_properties(game)
    defs["RoomSettings"]["properties"] = settings
    defs["SettingsPatch"] = {
        "type": "object",
        "description": "Body of PATCH /api/rooms/{code}/settings: only the settings to change, "
                       "and the room version they were chosen at.",
        "properties": {
            **{name: {k: v for k, v in prop.items() if k != "default"}
               for name, prop in settings.items()},
            BASED_ON: {"type": "integer", "description": (
                "The room version the change was chosen at: refused with stale_settings "
                "if the room changed since. Optional (without it the change always applies).")},
        },
        "additionalProperties": False,
    }
    defs["GameLimits"] = {
        "type": "object",
        "description": "A game's numbers (`Game.limits`): integers or lists of integers.",
        "properties": {},
        "additionalProperties": {
            "anyOf": [{"type": "integer"}, {"type": "array", "items": {"type": "integer"}}]},
    }
    defs["PresenceSeat"] = {
        "type": "object",
        "properties": {"seat": {"type": "integer"}, "connected": {"type": "boolean"}},
        "required": ["seat", "connected"],
        "additionalProperties": False,
    }
    defs["ClientMessage"] = {"oneOf": [_ref("ActionIn"), _ref("PingIn")]}
    defs["ServerMessage"] = {"oneOf": [_ref(m.__name__) for m in protocol.SERVER_MODELS]}
    return defs


# ---------------------------------------------------------------- HTTP routes


def _type_schema(annotation: Any) -> dict[str, Any]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _ref(annotation.__name__)
    if typing.get_origin(annotation) is list:
        return {"type": "array", "items": _type_schema(typing.get_args(annotation)[0])}
    if annotation == dict[str, Any]:
        return _ref("SettingsPatch")  # the one free-form body: checked field by field
    raise TypeError(f"no schema for the HTTP body {annotation!r}")


def _endpoints() -> dict[str, Any]:
    """`"METHOD /path"` → status, headers, query parameters, body and answer of each API route."""
    from yanniv.profiles.api import router as profiles_router
    from yanniv.server.api.games import router as games_router
    from yanniv.server.api.rooms import router as rooms_router

    result: dict[str, Any] = {}
    for route in [*rooms_router.routes, *games_router.routes, *profiles_router.routes]:
        # As OpenAPI writes it: `{pseudo:path}` is `{pseudo}` (the converter is the server's).
        path = re.sub(r"\{(\w+):\w+\}", r"{\1}", getattr(route, "path", ""))
        if not path.startswith("/api/"):
            continue
        dependant = route.dependant
        entry: dict[str, Any] = {"status": route.status_code or 200}
        headers = [h.alias for h in dependant.header_params]
        if headers:
            entry["headers"] = headers
        if dependant.query_params:
            entry["query"] = {
                q.name: _strip_titles({"properties": {"q": TypeAdapter(
                    typing.Annotated[q.field_info.annotation, q.field_info]
                ).json_schema()}})["properties"]["q"]
                for q in dependant.query_params
            }
        if dependant.body_params:
            entry["request"] = _type_schema(dependant.body_params[0].field_info.annotation)
        entry["response"] = _type_schema(route.response_model)
        for method in sorted(route.methods):
            result[f"{method} {path}"] = entry
    return result


# ---------------------------------------------------------------- the document


def _free_form(schema: Any, where: str = "") -> list[str]:
    """Paths of objects that say nothing of their fields (what `_REFINED` must cover)."""
    found: list[str] = []
    if isinstance(schema, dict):
        if schema.get("type") == "object" and "properties" not in schema:
            found.append(where)
        for key, value in schema.items():
            found += _free_form(value, f"{where}/{key}")
    elif isinstance(schema, list):
        for index, value in enumerate(schema):
            found += _free_form(value, f"{where}/{index}")
    return found


def protocol_schema(game: Game | None = None) -> dict[str, Any]:
    """The whole protocol of rooms playing `game` (the default game if None) as one JSON
    Schema document (definitions under `$defs`): the platform's messages with that game's
    settings, actions, events and view."""
    game = game or GAMES[DEFAULT_GAME]
    engine = game.protocol_schemas()
    models = _model_defs(game)
    clash = set(engine) & set(models)
    if clash:
        raise RuntimeError(f"engine and model definitions share names: {sorted(clash)}")
    defs = {**engine, **models}
    document = {
        "$schema": DIALECT,
        "$id": f"https://yanniv.invalid/{schema_path(game).name}",
        "title": f"Yanniv HTTP and WebSocket protocol, rooms playing {game.id}",
        "description": (
            f"Generated by `{COMMAND}` from the code; do not edit. Explained in "
            "docs/PROTOCOL.md. Validate a WebSocket message against "
            "#/$defs/ServerMessage or #/$defs/ClientMessage; HTTP bodies are listed per "
            "route in x-endpoints."
        ),
        "x-endpoints": _endpoints(),
        "$defs": dict(sorted(defs.items())),
    }
    loose = _free_form(document)
    if loose:
        raise RuntimeError(f"free-form objects left in the schema: {loose}; refine them")
    return document


def schema_text(game: Game | None = None) -> str:
    """The committed file's exact text."""
    return json.dumps(protocol_schema(game), indent=2, ensure_ascii=False) + "\n"


def is_current(text: str, game: Game | None = None) -> bool:
    """Whether `text` is the schema the code gives; compared as JSON, so that the order in
    which a pydantic version writes an object's keys does not matter."""
    try:
        return json.loads(text) == protocol_schema(game)
    except ValueError:
        return False


def write_schema(path: Path = SCHEMA_PATH, check: bool = False,
                 game: Game | None = None) -> bool:
    """Write `game`'s schema to `path` (or, with `check`, only compare); True if it was
    current."""
    current = path.exists() and is_current(path.read_text(encoding="utf-8"), game)
    if not check and not current:
        path.write_text(schema_text(game), encoding="utf-8")
    return current
