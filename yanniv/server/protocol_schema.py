"""The JSON Schema of the whole protocol, generated from the code (`yanniv schema`).

`docs/protocol.schema.json` is this module's output, committed so that a client author can
validate against it without reading Python; a test regenerates it and fails when it differs.
Three sources feed it:

- the pydantic models of `protocol.py` (WebSocket messages, room HTTP bodies) and of
  `yanniv/profiles/schemas.py` (profiles and leaderboard), through pydantic's own generator;
- the engine's dataclasses (view, pending decision, actions, events), through a small
  generator over `dataclasses.fields` and their type hints that maps them the way
  `yanniv.wire.to_wire` does (a card is its two-character code, tuples are arrays, actions
  and events carry their class name as `"type"`);
- the HTTP routes themselves (method, path, status, body and answer models).

The models' free-form `dict[str, Any]` fields (a `state`'s view, room and events, an action
message's action, the settings patch) are replaced by the precise definitions above; any
free-form object left over is an error, so a new untyped field cannot slip in unnoticed.
Every object is closed (`additionalProperties: false`) so that a new field changes the
committed file; clients should still ignore fields they do not know.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import re
import types
import typing
from pathlib import Path
from typing import Any

from pydantic import BaseModel, TypeAdapter
from pydantic.json_schema import models_json_schema

from yanniv.engine import actions as engine_actions
from yanniv.engine import events as engine_events
from yanniv.engine.cards import RANK_CODES, SUITS, Card, Colour
from yanniv.engine.view import MatchView
from yanniv.profiles import schemas as profile_schemas
from yanniv.server import protocol
from yanniv.server.validation import BASED_ON, MANCHES_RANGE, MAX_SEATS, TIMER_RANGE

#: Where `yanniv schema` writes by default: `docs/` of the source tree.
SCHEMA_PATH = Path(__file__).resolve().parents[2] / "docs" / "protocol.schema.json"
COMMAND = "yanniv schema"
DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/$defs/{name}"}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def _doc(cls: type) -> str | None:
    """The class's own docstring (not a dataclass's generated signature), first paragraph."""
    doc = cls.__dict__.get("__doc__")
    if not doc or doc.startswith(cls.__name__ + "("):
        return None
    return inspect.cleandoc(doc).split("\n\n")[0].replace("\n", " ")


# ---------------------------------------------------------------- engine dataclasses


class _DataclassSchemas:
    """JSON Schemas of engine dataclasses, as `to_wire` serializes them, into `defs`."""

    #: Named aliases worth a definition of their own (compared by value: Literal types).
    ALIASES: typing.ClassVar[dict[str, Any]] = {
        "Colour": Colour,
        "DecisionKind": engine_actions.DecisionKind,
    }

    def __init__(self, defs: dict[str, Any]) -> None:
        self.defs = defs

    def of(self, hint: Any) -> dict[str, Any]:
        if hint is Card:
            return _ref("Card")
        if hint is bool:
            return {"type": "boolean"}
        if hint is int:
            return {"type": "integer"}
        if hint is str:
            return {"type": "string"}
        if hint is float:
            return {"type": "number"}
        if hint is type(None):
            return {"type": "null"}
        for name, alias in self.ALIASES.items():
            if hint == alias:
                self.defs.setdefault(name, self._literal(alias))
                return _ref(name)
        if hint == engine_actions.Action:
            return _ref("Action")
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            return self.dataclass(hint)
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin is typing.Literal:
            return self._literal(hint)
        if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": self.of(args[0])}
        if origin is frozenset:
            return {"type": "array", "items": self.of(args[0]), "uniqueItems": True}
        if origin in (types.UnionType, typing.Union):
            members = [a for a in args if a is not type(None)]
            inner = self.of(members[0]) if len(members) == 1 else {
                "anyOf": [self.of(a) for a in members]
            }
            return _nullable(inner) if len(members) < len(args) else inner
        raise TypeError(f"no JSON Schema for the annotation {hint!r}")

    @staticmethod
    def _literal(hint: Any) -> dict[str, Any]:
        return {"enum": list(typing.get_args(hint))}

    def dataclass(self, cls: type) -> dict[str, Any]:
        """A `$ref` to `cls`'s definition, built on first use."""
        name = cls.__name__
        if name not in self.defs:
            self.defs[name] = {}  # placeholder: recursive and repeated references
            self.defs[name] = self._object(cls)
        return _ref(name)

    def _object(self, cls: type) -> dict[str, Any]:
        hints = typing.get_type_hints(cls)
        properties: dict[str, Any] = {}
        tagged = issubclass(cls, engine_events.Event) or cls in engine_actions.ACTION_TYPES.values()
        if tagged:
            properties["type"] = {"const": cls.__name__}
        private = set(getattr(cls, "private", ()))
        for f in dataclasses.fields(cls):
            schema = self.of(hints[f.name])
            if f.name in private:
                schema = {**schema, "description": "Private to the event's parties: null "
                          "for every other recipient (see docs/PROTOCOL.md)."}
            properties[f.name] = schema
        result: dict[str, Any] = {"type": "object"}
        doc = _doc(cls)
        if doc:
            result["description"] = doc
        result.update(properties=properties, required=list(properties),
                      additionalProperties=False)
        return result


def _event_classes() -> list[type]:
    """Every event type, in the order of `yanniv/engine/events.py`."""
    return [
        value for value in vars(engine_events).values()
        if isinstance(value, type) and issubclass(value, engine_events.Event)
        and value is not engine_events.Event and value.__module__ == engine_events.__name__
    ]


def _engine_defs() -> dict[str, Any]:
    defs: dict[str, Any] = {
        "Card": {
            "type": "string",
            "pattern": f"^[{RANK_CODES}][{''.join(SUITS)}]$",
            "description": "Rank A 2-9 T J Q K, then suit S H D C: 'TH' is the 10 of hearts.",
        },
    }
    gen = _DataclassSchemas(defs)
    action_names = []
    for cls in engine_actions.ACTION_TYPES.values():
        gen.dataclass(cls)
        action_names.append(cls.__name__)
    defs["Action"] = {"oneOf": [_ref(name) for name in action_names]}
    event_names = []
    for cls in _event_classes():
        gen.dataclass(cls)
        event_names.append(cls.__name__)
    defs["Event"] = {"oneOf": [_ref(name) for name in event_names]}
    gen.dataclass(MatchView)
    return defs


# ---------------------------------------------------------------- pydantic models

#: Inputs are read leniently (defaults may be left out); outputs always carry every field.
_INPUTS: tuple[type[BaseModel], ...] = (
    protocol.CreateRoomIn, protocol.JoinRoomIn, protocol.AddBotIn,
    protocol.ActionIn, protocol.PingIn,
    profile_schemas.LoginIn, profile_schemas.PasswordIn,
)
_OUTPUTS: tuple[type[BaseModel], ...] = (
    protocol.SeatGranted, protocol.RoomSummary, protocol.PublicRoom, protocol.ErrorBody,
    *protocol.SERVER_MODELS,
    profile_schemas.LeaderboardPage, profile_schemas.ProfileOut, profile_schemas.MatchOut,
    profile_schemas.OkOut,
)

#: The free-form fields of the models, and what they really hold.
_REFINED: dict[tuple[str, str], dict[str, Any]] = {
    ("ActionIn", "action"): _ref("Action"),
    ("StateOut", "room"): _ref("RoomSummary"),
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


def _settings_properties() -> dict[str, Any]:
    """The room settings with the ranges `validation.py` enforces."""
    low, high = MANCHES_RANGE
    t_low, t_high = TIMER_RANGE
    fields = protocol.RoomSettings.model_fields
    props: dict[str, Any] = {
        "public": {"type": "boolean"},
        "manches": {"type": "integer", "minimum": low, "maximum": high},
        "first_player": {"anyOf": [{"enum": ["random", "host"]},
                                   {"type": "integer", "minimum": 0, "maximum": MAX_SEATS - 1}]},
        "show_known_cards": {"type": "boolean"},
        "log_visible": {"type": "boolean"},
        "timer_seconds": _nullable({"type": "integer", "minimum": t_low, "maximum": t_high}),
    }
    if set(props) != set(fields):
        raise RuntimeError(f"RoomSettings fields changed: {sorted(fields)}; update {__name__}")
    return {name: {**props[name], "default": fields[name].default} for name in fields}


def _model_defs() -> dict[str, Any]:
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
    settings = _settings_properties()
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
    from yanniv.server.http_rooms import router as rooms_router

    result: dict[str, Any] = {}
    for route in [*rooms_router.routes, *profiles_router.routes]:
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


def protocol_schema() -> dict[str, Any]:
    """The whole protocol as one JSON Schema document (definitions under `$defs`)."""
    engine = _engine_defs()
    models = _model_defs()
    clash = set(engine) & set(models)
    if clash:
        raise RuntimeError(f"engine and model definitions share names: {sorted(clash)}")
    defs = {**engine, **models}
    document = {
        "$schema": DIALECT,
        "$id": "https://yanniv.invalid/protocol.schema.json",
        "title": "Yanniv HTTP and WebSocket protocol",
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


def schema_text() -> str:
    """The committed file's exact text."""
    return json.dumps(protocol_schema(), indent=2, ensure_ascii=False) + "\n"


def is_current(text: str) -> bool:
    """Whether `text` is the schema the code gives; compared as JSON, so that the order in
    which a pydantic version writes an object's keys does not matter."""
    try:
        return json.loads(text) == protocol_schema()
    except ValueError:
        return False


def write_schema(path: Path = SCHEMA_PATH, check: bool = False) -> bool:
    """Write the schema to `path` (or, with `check`, only compare); True if it was current."""
    current = path.exists() and is_current(path.read_text(encoding="utf-8"))
    if not check and not current:
        path.write_text(schema_text(), encoding="utf-8")
    return current
