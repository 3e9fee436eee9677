"""Game values → JSON-ready values, for the hot path (every view of every change).

The platform's only encoder of views and events, for any game whose values are dataclasses,
tuples, sets and scalars. Code is generated per dataclass from its annotations, so a field
annotated as a scalar or a card costs no dispatch; and a view field's conversion is reused
while its value stays the same (most of a view is identical for every seat and from one
change to the next). The reflective encoder in `tests/games/yanniv/oracle/wire_oracle.py` is the
oracle
that pins this one.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Iterable
from typing import Any

from orjson import Fragment, dumps

_SCALARS = (int, str, bool, float, type(None))
_Converter = Callable[[Any], Any]


def _is_scalar_union(hint: Any) -> bool:
    args = typing.get_args(hint)
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return all(isinstance(a, int | str | bool) for a in args)
    return origin in (types.UnionType, typing.Union) and all(
        a in (int, str, bool, float, type(None)) or _is_scalar_union(a) for a in args
    )


def _is_scalar(hint: Any) -> bool:
    return hint in (int, str, bool, float) or _is_scalar_union(hint)


def _identity(value: Any) -> Any:
    return value


def _code(value: Any) -> Any:
    return value.code


class FastEncoder:
    """One game's encoder. `coded` types are written as their `code` attribute (cards as
    `"QH"`); dataclasses for which `tagged(cls)` holds get a leading `"type"` naming their
    class (actions, events), so a reader can tell them apart."""

    def __init__(self, coded: tuple[type, ...], tagged: Callable[[type], bool]) -> None:
        self._coded = coded
        self._tagged = tagged
        self._converters: dict[type, _Converter] = {}

    def encode(self, value: Any) -> Any:
        """`value` as JSON-ready data (lists for tuples, sorted lists for sets)."""
        cls = type(value)
        convert = self._converters.get(cls)
        if convert is None:
            convert = self._converters[cls] = self._converter(cls)
        return convert(value)

    def _converter(self, cls: type) -> _Converter:
        if issubclass(cls, self._coded):
            return _code
        if issubclass(cls, _SCALARS):
            return _identity
        if issubclass(cls, tuple | list):
            encode = self.encode
            return lambda value: [encode(item) for item in value]
        if issubclass(cls, frozenset | set):
            encode = self.encode
            return lambda value: sorted(encode(item) for item in value)
        if dataclasses.is_dataclass(cls):
            return self.dataclass_converter(cls)
        return _identity

    def dataclass_converter(self, cls: type, overrides: dict[str, str] | None = None,
                            names: dict[str, Any] | None = None,
                            only: frozenset[str] | None = None) -> _Converter:
        """Generate `lambda v, sh=None: {...}` for a dataclass; `overrides` replaces some
        fields' source (the view encoder routes them through its memo `sh`), with `names`
        what that source refers to; `only`, if given, keeps just those fields."""
        try:
            hints = typing.get_type_hints(cls)
        except Exception:  # unresolvable annotations: stay generic
            hints = {}
        parts = [f"'type': {cls.__name__!r}"] if self._tagged(cls) else []
        env: dict[str, Any] = {"fw": self.encode, **(names or {})}
        for f in dataclasses.fields(cls):
            if only is not None and f.name not in only:
                continue
            expr = (overrides or {}).get(f.name) or self._expr(
                f"v.{f.name}", hints.get(f.name, Any), env, 0)
            parts.append(f"{f.name!r}: {expr}")
        source = "lambda v, sh=None: {" + ", ".join(parts) + "}"
        return eval(source, env)

    def _expr(self, access: str, hint: Any, env: dict[str, Any], depth: int) -> str:
        """Python source converting `access` given its annotation (generic when unsure)."""
        if _is_scalar(hint):
            return access
        if isinstance(hint, type) and issubclass(hint, self._coded):
            return f"{access}.code"
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            key = f"c_{hint.__name__}_{id(hint)}"
            converter = self._converters.get(hint)
            if converter is None:
                converter = self._converters[hint] = self.dataclass_converter(hint)
            env[key] = converter
            return f"{key}({access})"
        args = typing.get_args(hint)
        origin = typing.get_origin(hint)
        if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
            item = f"i{depth}"
            inner = self._expr(item, args[0], env, depth + 1)
            return f"list({access})" if inner == item else f"[{inner} for {item} in {access}]"
        if origin in (types.UnionType, typing.Union) and len(args) == 2 and type(None) in args:
            other = args[0] if args[1] is type(None) else args[1]
            inner = self._expr(access, other, env, depth)
            return access if inner == access else f"(None if {access} is None else {inner})"
        return f"fw({access})"

    def view_converter(self, view_cls: type, own: frozenset[str] = frozenset(),
                       only: frozenset[str] | None = None) -> _Converter:
        """A converter of `view_cls` whose non-scalar fields go through a memo (`ViewMemo`),
        each with its own converter generated from its annotation (on a miss, no generic
        dispatch on the type of every nested value). The fields named in `own` differ from
        one viewer to the next (a seat's own hand): converted every time, never kept.
        `only`: just those fields (one side of a `split_view_converter`)."""
        hints = typing.get_type_hints(view_cls)
        overrides: dict[str, str] = {}
        names: dict[str, Any] = {}
        for f in dataclasses.fields(view_cls):
            hint = hints.get(f.name, Any)
            if _is_scalar(hint) or f.name in own:
                continue
            env: dict[str, Any] = {"fw": self.encode}
            source = "lambda x: " + self._expr("x", hint, env, 0)
            names[f"k_{f.name}"] = eval(source, env)
            overrides[f.name] = f"sh({f.name!r}, v.{f.name}, k_{f.name})"
        return self.dataclass_converter(view_cls, overrides, names, only)

    def split_view_converter(self, view_cls: type, own: frozenset[str],
                             public: frozenset[str]) -> ViewSplit:
        """`view_cls`'s converter (`view_converter`) and the two halves a `ViewMemo` writes
        apart: the fields not in `public`, converted for each viewer, and those in `public`,
        written once for all the views of one state. `public` is an allow-list: a field a
        game adds later is converted for each viewer until it is named there."""
        names = {f.name for f in dataclasses.fields(view_cls)}
        unknown = public - names
        if unknown or not public or public == names:
            raise ValueError(f"public fields of {view_cls.__name__}: {sorted(public)}")
        return ViewSplit(
            whole=self.view_converter(view_cls, own),
            private=self.view_converter(view_cls, own, frozenset(names - public)),
            public=self.view_converter(view_cls, own, public),
        )


@dataclasses.dataclass(frozen=True, slots=True)
class ViewSplit:
    """A view's converters: the whole view, and its per-viewer and public halves."""

    whole: _Converter
    private: _Converter
    public: _Converter


class ViewMemo:
    """Converts the views of one room. Each non-scalar field's latest value and its
    conversion are kept and reused when the next view's value is the same object or equal
    (discard, history, scores… change rarely). The data returned shares those parts: never
    modify it.

    `wire` is `view` for `orjson.dumps` alone, the server's path: what it keeps of a field is
    its JSON text, an `orjson.Fragment`, which orjson copies as it is instead of writing the
    field again for every seat and every change, and which takes a fifth of the memory of
    the data (a whole match's history: ~2 KB of text against ~9.5 KB of lists and dicts).

    With a `ViewSplit`, `wire(view, shared)` also writes the public fields once for all the
    views that carry the same `shared` object (the state they were built from): each
    further seat's view costs only its own fields."""

    __slots__ = ("_convert", "_data", "_public", "_shared", "_split", "_values")

    def __init__(self, encoder: FastEncoder, convert: _Converter | ViewSplit) -> None:
        del encoder  # each field's converter is generated into `convert` (`view_converter`)
        self._split = convert if isinstance(convert, ViewSplit) else None
        self._convert = convert.whole if isinstance(convert, ViewSplit) else convert
        #: The public fields' JSON (without its opening brace) and the object it was written
        #: for: kept, so it cannot be freed and another object take its identity.
        self._public = b""
        self._shared: Any = None
        #: Each field's latest value and its conversion, in two dicts rather than a pair per
        #: field: a new pair at every change of a room was one more young object for the
        #: cyclic collector per field and room.
        self._values: dict[str, Any] = {}
        self._data: dict[str, Any] = {}

    def _memoized(self, name: str, value: Any, convert: _Converter) -> Any:
        data = self._data.get(name)
        if data is not None and type(data) is not Fragment:
            kept = self._values[name]
            if kept is value or kept == value:
                return data
        data = convert(value)
        self._values[name] = value
        self._data[name] = data
        return data

    def _fragment(self, name: str, value: Any, convert: _Converter) -> Any:
        data = self._data.get(name)
        if type(data) is Fragment:
            kept = self._values[name]
            if kept is value or kept == value:
                return data
        # As text: the bytes orjson returns keep its whole output buffer (~8 KB for 1.5 KB of
        # JSON, measured), which a kept field would hold for the room's life.
        data = Fragment(dumps(convert(value)).decode())
        self._values[name] = value
        self._data[name] = data
        return data

    def view(self, view: Any) -> dict[str, Any]:
        data: dict[str, Any] = self._convert(view, self._memoized)
        return data

    def wire(self, view: Any, shared: Any = None) -> dict[str, Any] | Fragment:
        """`view`'s data with `orjson.Fragment`s in it: for `orjson.dumps` only.

        `shared`: an object that stands for everything the public fields hold (the immutable
        state `view` was built from). Views wired with the same object get the public fields
        written for the first of them, spliced after their own: the caller vouches that
        those fields do not depend on the viewer (`tests/games/test_codec.py` checks it)."""
        if self._split is None or shared is None:
            data: dict[str, Any] = self._convert(view, self._fragment)
            return data
        return Fragment(self.wire_text(view, shared))

    def wire_text(self, view: Any, shared: Any = None) -> bytes:
        """`wire`'s JSON text: what the server splices into its messages."""
        split = self._split
        if split is None or shared is None:
            return dumps(self._convert(view, self._fragment))
        if self._shared is not shared:
            # Sliced: a copy of its own size, without the opening brace.
            self._public = dumps(split.public(view, self._fragment))[1:]
            self._shared = shared
        own = dumps(split.private(view, self._fragment))
        return b"".join((own[:-1], b",", self._public))


class EventWriter:
    """A game's events as each seat may see them (`redact`), JSON-ready. A broadcast asks
    for the same tuple of events once per seat: an event's data is made once per form of it
    the seats get (whole, or the one hidden form `redact` returns for all the others) and
    shared by the seats that get that form; `text` writes the JSON once per list of forms
    (every seat that sees none of the private ones gets the same text). With `public`, which
    holds for an event that `redact` returns as it is for every viewer, a tuple of such events
    only (about half of a match's changes) is written once and given to every seat without
    redacting it for each. The data returned shares parts between calls: never modify it."""

    __slots__ = ("_encode", "_events", "_forms", "_mixed", "_public", "_redact", "_same",
                 "_texts")

    def __init__(self, encoder: FastEncoder, redact: Callable[[Any, int | None], Any],
                 public: Callable[[Any], bool] | None = None) -> None:
        self._encode = encoder.encode
        self._redact = redact
        self._public = public
        #: For the latest tuple: its one text when every event in it is public, and whether
        #: one of them is not (then each seat's forms are looked at).
        self._same: bytes | None = None
        self._mixed = public is None
        #: The latest tuple of events (kept, so no other tuple can take its identity) and,
        #: for each form of its events met since (kept too), its data; for each list of
        #: forms a seat got (its forms kept with it), its JSON text.
        self._events: tuple[Any, ...] = ()
        self._forms: dict[int, tuple[Any, Any]] = {}
        self._texts: dict[tuple[int, ...], tuple[list[Any], bytes]] = {}

    def __call__(self, events: Iterable[Any], seat: int | None) -> list[Any]:
        redact = self._redact
        if type(events) is not tuple:  # a list could change between two calls
            encode = self._encode
            return [encode(redact(event, seat)) for event in events]
        self._follow(events)
        return self._data([redact(event, seat) for event in events])

    def text(self, events: Iterable[Any], seat: int | None) -> bytes:
        """`self(events, seat)` as JSON text."""
        if type(events) is not tuple:
            return dumps(self(events, seat))
        self._follow(events)
        if not self._mixed:
            same = self._same
            if same is not None:
                return same
            assert self._public is not None
            if all(map(self._public, events)):
                same = self._same = dumps(self._data(list(events)))
                return same
            self._mixed = True
        redact = self._redact
        forms = [redact(event, seat) for event in events]
        key = tuple(map(id, forms))
        kept = self._texts.get(key)
        if kept is None:
            kept = self._texts[key] = (forms, dumps(self._data(forms)))
        return kept[1]

    def _follow(self, events: tuple[Any, ...]) -> None:
        if events is not self._events:
            self._events = events
            self._forms = {}
            self._texts = {}
            self._same = None
            self._mixed = self._public is None

    def _data(self, forms: list[Any]) -> list[Any]:
        encode, kept_forms = self._encode, self._forms
        out = []
        for form in forms:
            kept = kept_forms.get(id(form))
            if kept is None:
                kept = kept_forms[id(form)] = (form, encode(form))
            out.append(kept[1])
        return out
