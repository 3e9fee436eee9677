"""JSON Schemas of YANNIV's own messages: its actions, events and views.

A small generator over `dataclasses.fields` and their type hints that maps the engine's
dataclasses the way `yanniv_codec` writes them (a card is its two-character code, tuples
are arrays, actions and events carry their class name as `"type"`). The server's protocol
schema (`yanniv schema`) places these definitions beside the platform's messages.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any

from yanniv.games.schema import class_doc as _doc
from yanniv.games.schema import nullable as _nullable
from yanniv.games.schema import ref as _ref
from yanniv.games.yanniv.rules import actions as engine_actions
from yanniv.games.yanniv.rules import events as engine_events
from yanniv.games.yanniv.rules.cards import RANK_CODES, SUITS, Card, Colour
from yanniv.games.yanniv.rules.view import MatchView


class _DataclassSchemas:
    """JSON Schemas of engine dataclasses, as `yanniv_codec` writes them, into `defs`."""

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
    """Every event type, in the order of `yanniv/games/yanniv/rules/events.py`."""
    return [
        value for value in vars(engine_events).values()
        if isinstance(value, type) and issubclass(value, engine_events.Event)
        and value is not engine_events.Event and value.__module__ == engine_events.__name__
    ]


def protocol_defs() -> dict[str, Any]:
    """Definitions `Card`, `Action` (oneOf), `Event` (oneOf), `MatchView` and their parts."""
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
