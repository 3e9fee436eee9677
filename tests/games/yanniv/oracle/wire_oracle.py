"""A reflective encoder of engine values, the oracle of the fast one (`yanniv.games.wire`).

It walks any value by `dataclasses.fields`, with no code generation and no memo, so it
shares nothing with what it checks: a card is its code, a tuple a list, a set a sorted list,
an action or an event an object with a leading `"type"`.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from yanniv.games.yanniv.rules.actions import ACTION_TYPES
from yanniv.games.yanniv.rules.cards import Card
from yanniv.kit.events import Event, redact


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
    """The events as the product's `redact` gives them to `viewer`, encoded reflectively: the
    reference of the fast codec's encoding only. It is no oracle of what a seat may see, since
    it trusts `redact` (the leak oracles use `_witnesses` or `knowledge_model` instead)."""
    return [to_wire(redact(event, viewer)) for event in events]
