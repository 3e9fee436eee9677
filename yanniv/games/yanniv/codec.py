"""YANNIV's messages: its actions read and written, its views and events encoded.

Cards are two-character codes (`"AS"`, `"TH"`, `"QD"`); actions and events are objects with
a `"type"` naming their class; views are nested objects with the engine dataclasses' field
names. Everything goes through the one fast encoder (`fast_json`); the JSON stays here,
outside the engine, as scalachess keeps it out of its core.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from yanniv.games.interface import DecodedAction, WireError
from yanniv.games.wire import EventWriter, FastEncoder, ViewMemo
from yanniv.games.yanniv.rules.actions import ACTION_TYPES, Action
from yanniv.games.yanniv.rules.cards import Card, parse_card
from yanniv.games.yanniv.rules.view import MatchView
from yanniv.kit.events import Event, redact, shown_to_all

ENCODER = FastEncoder(
    coded=(Card,), tagged=lambda cls: issubclass(cls, Event) or cls.__name__ in ACTION_TYPES
)
#: A view's fields that differ from one seat to the next: not kept in a room's memo (it would
#: hold the last seat's, and compare the next seat's with them for nothing).
_OWN = frozenset({"hand", "players"})
#: A view's fields that are the same for every viewer of a state (checked against `view` by
#: `tests/games/test_codec.py`): written once per state for all its viewers. An allow-list:
#: a field added to `MatchView` is written for each viewer until it is named here.
PUBLIC_FIELDS = frozenset({
    "seats", "manche", "manches", "tiebreak", "step", "pile_count", "discard",
    "previous_packet", "takeable", "turn", "direction", "constraint", "yanniv_caller",
    "scores", "history", "last_result", "finished", "ranking", "turn_play", "turn_power",
    "six_colour", "rules", "last_lap",
})
_VIEW = ENCODER.split_view_converter(MatchView, _OWN, PUBLIC_FIELDS)
_FIELDS: dict[type, tuple[str, ...]] = {
    cls: tuple(f.name for f in dataclasses.fields(cls)) for cls in ACTION_TYPES.values()
}
#: Longest card list an action may carry (the whole deck).
_MAX_CARDS = 52


def view_memo() -> ViewMemo:
    """A per-room encoder of views (`.view(view) -> dict`)."""
    return ViewMemo(ENCODER, _VIEW)


#: The events as a seat (None: a spectator) may see them.
encode_events = EventWriter(ENCODER, redact, shown_to_all)


def encode_action(action: Action) -> dict[str, Any]:
    data: dict[str, Any] = ENCODER.encode(action)
    return data


def _card(value: Any) -> Card:
    if not isinstance(value, str):
        raise WireError("bad_card", repr(value))
    try:
        return parse_card(value)
    except ValueError:
        raise WireError("bad_card", repr(value)) from None


def _int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise WireError("not_integer", name)
    return value


def decode_action(data: Any) -> DecodedAction:
    """Parse `{"type": "Play", "cards": ["5S", "5H"]}` and friends; `WireError` if malformed.

    The stored form is built while parsing, canonical (a Play's cards in card order): the
    same action always has the same stored form, so retries and restarts agree on it.
    """
    if not isinstance(data, dict):
        raise WireError("not_object")
    kind = data.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise WireError("unknown_type", repr(kind))
    names = _FIELDS[cls]
    extra = set(data) - set(names) - {"type"}
    if extra:
        raise WireError("extra_fields", sorted(extra))
    missing = [name for name in names if name not in data]
    if missing:
        raise WireError("missing_fields", sorted(missing))
    kwargs: dict[str, Any] = {}
    stored: dict[str, Any] = {"type": kind}
    for name in names:
        raw = data[name]
        if name in ("card", "keep"):
            card = _card(raw)
            kwargs[name], stored[name] = card, card.code
        elif name in ("cards", "order"):
            if not isinstance(raw, list) or len(raw) > _MAX_CARDS:
                raise WireError("not_card_list", name)
            parsed = [_card(item) for item in raw]
            if name == "cards":
                parsed.sort()
            kwargs[name] = tuple(parsed)
            stored[name] = [card.code for card in parsed]
        elif name == "colour":
            if raw not in ("red", "black"):
                raise WireError("bad_colour")
            kwargs[name] = stored[name] = raw
        else:
            kwargs[name] = stored[name] = _int(raw, name)
    return DecodedAction(cls(**kwargs), stored)
