"""Classic Yaniv's messages: actions read and written, views and events encoded, and their
JSON Schemas.

A card is its code (`"TH"`, `"XR"`, `"5S2"`, see `yanniv.games.yaniv.rules.cards`); actions and
events
are objects whose `"type"` names their class; views have the dataclasses' field names. The
one fast encoder (`fast_json`) writes them, as for YANNIV.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any

from yanniv.games.interface import DecodedAction, WireError
from yanniv.games.schema import class_doc, nullable, ref
from yanniv.games.wire import EventWriter, FastEncoder, ViewMemo
from yanniv.games.yaniv.rules import combos
from yanniv.games.yaniv.rules.cards import YCard, deck, parse_card
from yanniv.games.yaniv.rules.model import (
    ACTION_TYPES,
    Action,
    Event,
    MatchView,
    Play,
    TakeDiscard,
    event_classes,
)
from yanniv.kit.events import redact, shown_to_all

_ACTIONS = frozenset(ACTION_TYPES.values())
ENCODER = FastEncoder(coded=(YCard,), tagged=lambda cls: issubclass(cls, Event) or cls in _ACTIONS)
#: A view's fields that differ from one seat to the next: not kept in a room's memo.
_OWN = frozenset({"hand", "players"})
_VIEW = ENCODER.view_converter(MatchView, _OWN)
#: Longest card list an action may carry (a hand is 7 cards; 13 is the longest run).
_MAX_CARDS = 13


def view_memo() -> ViewMemo:
    return ViewMemo(ENCODER, _VIEW)


#: The events as a seat (None: a spectator) may see them.
encode_events = EventWriter(ENCODER, redact, shown_to_all)


def encode_action(action: Action) -> dict[str, Any]:
    data: dict[str, Any] = ENCODER.encode(action)
    return data


def _card(value: Any) -> YCard:
    try:
        return parse_card(value)
    except ValueError:
        raise WireError("bad_card", repr(value)) from None


def decode_action(data: Any) -> DecodedAction:
    """`{"type": "Play", "cards": ["4H", "XR", "6H"]}` and friends; `WireError` if malformed.
    A combination's stored form is the one `combos.canonical_play` gives (a run low to high
    with its jokers in place, a set with its ends outside), whatever the order sent."""
    if not isinstance(data, dict):
        raise WireError("not_object")
    kind = data.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise WireError("unknown_type", repr(kind))
    names = [f.name for f in dataclasses.fields(cls)]
    extra = set(data) - set(names) - {"type"}
    if extra:
        raise WireError("extra_fields", sorted(extra))
    missing = [name for name in names if name not in data]
    if missing:
        raise WireError("missing_fields", sorted(missing))
    if cls is Play:
        raw = data["cards"]
        if not isinstance(raw, list) or len(raw) > _MAX_CARDS:
            raise WireError("not_card_list", "cards")
        given = tuple(_card(item) for item in raw)
        cards = combos.canonical_play(given) or given
        return DecodedAction(Play(cards), {"type": kind, "cards": [c.code for c in cards]})
    if cls is TakeDiscard:
        card = _card(data["card"])
        return DecodedAction(TakeDiscard(card), {"type": kind, "card": card.code})
    return DecodedAction(cls(), {"type": kind})


# ---------------------------------------------------------------- JSON Schemas


class _Schemas:
    """JSON Schemas of the engine's dataclasses as the codec writes them, into `defs`."""

    def __init__(self, defs: dict[str, Any]) -> None:
        self.defs = defs

    def of(self, hint: Any) -> dict[str, Any]:
        simple = {bool: "boolean", int: "integer", str: "string", type(None): "null"}
        if hint is YCard:
            return ref("Card")
        if hint in simple:
            return {"type": simple[hint]}
        if hint == Action:
            return ref("Action")
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            return self.dataclass(hint)
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin is typing.Literal:
            return {"enum": list(args)}
        if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": self.of(args[0])}
        if origin in (types.UnionType, typing.Union):
            members = [a for a in args if a is not type(None)]
            inner = self.of(members[0]) if len(members) == 1 else {
                "anyOf": [self.of(a) for a in members]}
            return nullable(inner) if len(members) < len(args) else inner
        raise TypeError(f"no JSON Schema for {hint!r}")

    def dataclass(self, cls: type) -> dict[str, Any]:
        name = cls.__name__
        if name not in self.defs:
            self.defs[name] = {}
            hints = typing.get_type_hints(cls)
            props: dict[str, Any] = {}
            if issubclass(cls, Event) or cls in _ACTIONS:
                props["type"] = {"const": name}
            private = set(getattr(cls, "private", ()))
            for f in dataclasses.fields(cls):
                schema = self.of(hints[f.name])
                if f.name in private:
                    schema = {**schema, "description": "Private to the event's parties: "
                              "null for every other recipient."}
                props[f.name] = schema
            out: dict[str, Any] = {"type": "object"}
            doc = class_doc(cls)
            if doc:
                out["description"] = doc
            out.update(properties=props, required=list(props), additionalProperties=False)
            self.defs[name] = out
        return ref(name)


def protocol_defs() -> dict[str, Any]:
    """`Card`, `Action` (oneOf), `Event` (oneOf), `MatchView` and their parts."""
    defs: dict[str, Any] = {"Card": {
        "enum": sorted(card.code for card in deck(2)),
        "description": "Rank A 2-9 T J Q K (X: a joker), suit S H D C (a joker: R red, B "
                       "black), then 2 for the second deck's copy: 'TH', 'XR', '5S2'.",
    }}
    gen = _Schemas(defs)
    defs["Action"] = {"oneOf": [gen.dataclass(cls) for cls in ACTION_TYPES.values()]}
    defs["Event"] = {"oneOf": [gen.dataclass(cls) for cls in event_classes()]}
    gen.dataclass(MatchView)
    return defs
