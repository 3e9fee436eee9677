"""Engine values ⇄ JSON-ready dicts, kept out of the engine (as scalachess keeps JSON out).

Cards are two-character codes (`"AS"`, `"TH"`, `"QD"`); actions and events are objects with a
`"type"` naming their class; views are nested objects with the same field names as the
engine's dataclasses (`to_wire(view)`; the server's `ViewEncoder` gives the same, faster).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from yanniv.engine.actions import ACTION_TYPES, Action
from yanniv.engine.cards import Card
from yanniv.engine.events import Event, redact


class WireError(ValueError):
    """A message that does not describe a well-formed action: `reason` is a key the server
    turns into French and English text (`yanniv.server.errors.WIRE_PROBLEMS`), `subject` the
    offending name or value."""

    def __init__(self, reason: str, subject: object = "") -> None:
        super().__init__(f"{reason}: {subject}" if subject != "" else reason)
        self.reason = reason
        self.subject = subject


def to_wire(value: Any) -> Any:
    """Recursively turn engine values into JSON-ready values."""
    if isinstance(value, Card):
        return value.code
    if isinstance(value, tuple | list | frozenset | set):
        items = [to_wire(item) for item in value]
        return sorted(items) if isinstance(value, frozenset | set) else items
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        data = {f.name: to_wire(getattr(value, f.name)) for f in dataclasses.fields(value)}
        if isinstance(value, Event) or type(value).__name__ in ACTION_TYPES:
            data = {"type": type(value).__name__, **data}
        return data
    return value


def events_to_wire(events: tuple[Event, ...] | list[Event], viewer: int | None) -> list[dict]:
    """The events as `viewer` may see them."""
    return [to_wire(redact(event, viewer)) for event in events]


def _card(value: Any) -> Card:
    if not isinstance(value, str):
        raise WireError("bad_card", repr(value))
    try:
        return Card.parse(value)
    except ValueError:
        raise WireError("bad_card", repr(value)) from None


def _int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise WireError("not_integer", name)
    return value


def action_from_wire(data: Any) -> Action:
    """Parse `{"type": "Play", "cards": ["5H", "5S"]}` and friends; WireError if malformed."""
    if not isinstance(data, dict):
        raise WireError("not_object")
    kind = data.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise WireError("unknown_type", repr(kind))
    names = {f.name for f in dataclasses.fields(cls)}
    extra = set(data) - names - {"type"}
    if extra:
        raise WireError("extra_fields", sorted(extra))
    missing = names - set(data)
    if missing:
        raise WireError("missing_fields", sorted(missing))
    kwargs: dict[str, Any] = {}
    for name in names:
        raw = data[name]
        if name == "card" or name == "keep":
            kwargs[name] = _card(raw)
        elif name in ("cards", "order"):
            if not isinstance(raw, list) or len(raw) > 52:
                raise WireError("not_card_list", name)
            parsed = tuple(_card(item) for item in raw)
            kwargs[name] = tuple(sorted(parsed)) if name == "cards" else parsed
        elif name == "colour":
            if raw not in ("red", "black"):
                raise WireError("bad_colour")
            kwargs[name] = raw
        else:
            kwargs[name] = _int(raw, name)
    return cls(**kwargs)


_ACTION_FIELDS: dict[type, tuple[str, ...]] = {
    cls: tuple(f.name for f in dataclasses.fields(cls)) for cls in ACTION_TYPES.values()
}


def _plain(value: Any) -> Any:
    if isinstance(value, Card):
        return value.code
    if isinstance(value, tuple):
        return [item.code if isinstance(item, Card) else item for item in value]
    return value


def action_to_wire(action: Action) -> dict[str, Any]:
    cls = type(action)
    data: dict[str, Any] = {"type": cls.__name__}
    for name in _ACTION_FIELDS[cls]:
        data[name] = _plain(getattr(action, name))
    return data
