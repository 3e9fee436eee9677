"""Fast engine values → JSON-ready values for the hot path (every view of every change).

Gives exactly what `yanniv.wire.to_wire` gives (a test pins it) but with code generated per
dataclass from its annotations, and reuses a view field's conversion while its value stays
the same (most of a view is identical for every seat and from one change to the next).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from typing import Any

from yanniv.engine.actions import ACTION_TYPES
from yanniv.engine.cards import Card
from yanniv.engine.events import Event, redact
from yanniv.engine.view import MatchView

_SCALARS = (int, str, bool, float, type(None))
_Converter = Callable[[Any], Any]
_CONVERTERS: dict[type, _Converter] = {}


def _card(value: Card) -> str:
    return value.code


def _sequence(value: Any) -> list[Any]:
    return [fast_wire(item) for item in value]


def _set(value: Any) -> list[Any]:
    return sorted(fast_wire(item) for item in value)


def _field_expr(name: str, hint: Any, env: dict[str, Any]) -> str:
    """Python source converting `v.<name>` given its annotation (generic when unsure); `env`
    receives the converters of nested dataclasses the source refers to."""
    return _expr(f"v.{name}", hint, env, 0)


def _expr(access: str, hint: Any, env: dict[str, Any], depth: int) -> str:
    if hint in (int, str, bool, float) or _is_scalar_union(hint):
        return access
    if hint is Card:
        return f"{access}.code"
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        key = f"c_{hint.__name__}_{id(hint)}"
        env[key] = _CONVERTERS.get(hint) or _CONVERTERS.setdefault(hint, _converter(hint))
        return f"{key}({access})"
    args = typing.get_args(hint)
    origin = typing.get_origin(hint)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = f"i{depth}"
        inner = _expr(item, args[0], env, depth + 1)
        return f"list({access})" if inner == item else f"[{inner} for {item} in {access}]"
    if origin in (types.UnionType, typing.Union) and len(args) == 2 and type(None) in args:
        other = args[0] if args[1] is type(None) else args[1]
        inner = _expr(access, other, env, depth)
        return access if inner == access else f"(None if {access} is None else {inner})"
    return f"fw({access})"


def _is_scalar_union(hint: Any) -> bool:
    args = typing.get_args(hint)
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return all(isinstance(a, int | str | bool) for a in args)
    return origin in (types.UnionType, typing.Union) and all(
        a in (int, str, bool, float, type(None)) or _is_scalar_union(a) for a in args
    )


def _dataclass_converter(cls: type, overrides: dict[str, str] | None = None) -> _Converter:
    """Generate `lambda v, sh=None: {...}` for a dataclass, so each field costs no dispatch
    when its annotation says it is a scalar or cards; `overrides` replaces fields' source."""
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # unresolvable annotations: stay generic
        hints = {}
    tag = cls.__name__ if issubclass(cls, Event) or cls.__name__ in ACTION_TYPES else None
    parts = [f"'type': {tag!r}"] if tag else []
    env: dict[str, Any] = {"fw": fast_wire}
    for f in dataclasses.fields(cls):
        expr = (overrides or {}).get(f.name) or _field_expr(f.name, hints.get(f.name, Any), env)
        parts.append(f"{f.name!r}: {expr}")
    source = "lambda v, sh=None: {" + ", ".join(parts) + "}"
    return eval(source, env)


def _converter(cls: type) -> _Converter:
    if issubclass(cls, Card):
        return _card
    if issubclass(cls, _SCALARS):
        return _identity
    if issubclass(cls, tuple | list):
        return _sequence
    if issubclass(cls, frozenset | set):
        return _set
    if dataclasses.is_dataclass(cls):
        return _dataclass_converter(cls)
    return _identity


def _identity(value: Any) -> Any:
    return value


def fast_wire(value: Any) -> Any:
    """Same result as `yanniv.wire.to_wire(value)`, faster."""
    cls = type(value)
    convert = _CONVERTERS.get(cls)
    if convert is None:
        convert = _CONVERTERS[cls] = _converter(cls)
    return convert(value)


def _view_fields_memoized() -> dict[str, str]:
    """Every non-scalar field of the view goes through the encoder's memo."""
    hints = typing.get_type_hints(MatchView)
    overrides = {}
    for f in dataclasses.fields(MatchView):
        hint = hints.get(f.name, Any)
        if not (hint in (int, str, bool, float) or _is_scalar_union(hint)):
            overrides[f.name] = f"sh({f.name!r}, v.{f.name})"
    return overrides


_VIEW_CONVERTER = _dataclass_converter(MatchView, _view_fields_memoized())


class ViewEncoder:
    """Converts views of one room. Most of a view is the same for every seat and from one
    change to the next (discard, history, scores…): each field's latest value and its
    conversion are kept, and reused when the new value is the same object or equal."""

    __slots__ = ("_memo",)

    def __init__(self) -> None:
        self._memo: dict[str, tuple[Any, Any]] = {}

    def _memoized(self, name: str, value: Any) -> Any:
        cached = self._memo.get(name)
        if cached is not None and (cached[0] is value or cached[0] == value):
            return cached[1]
        data = fast_wire(value)
        self._memo[name] = (value, data)
        return data

    def view(self, view: MatchView, show_known_cards: bool = True) -> dict[str, Any]:
        """The view as JSON-ready data (its parts are shared: never modify them); without
        `show_known_cards`, opponents' known cards are left out (the room hides them)."""
        data: dict[str, Any] = _VIEW_CONVERTER(view, self._memoized)
        if not show_known_cards:
            data["players"] = [
                p if p["seat"] == view.viewer else {**p, "known_cards": []}
                for p in data["players"]
            ]
        return data


def events_wire(events: tuple[Event, ...] | list[Event], viewer: int | None) -> list[dict]:
    """Same as `yanniv.wire.events_to_wire`: the events as `viewer` may see them."""
    return [fast_wire(redact(event, viewer)) for event in events]
