"""Yaniv's codec against a reflective encoder written here, its malformed-action reasons, and
every message of a match against the committed protocol schema."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import jsonschema
import orjson
import pytest

from yanniv.games import get_game
from yanniv.games.interface import WireError
from yanniv.games.yaniv.rules import Play, ycards
from yanniv.games.yaniv.rules.cards import YCard
from yanniv.games.yaniv.rules.model import ACTION_TYPES, Event
from yanniv.kit.events import redact

GAME = get_game("yaniv")
SCHEMA = json.loads((Path(__file__).resolve().parents[3] / "docs" /
                     "protocol.yaniv.schema.json").read_text(encoding="utf-8"))


def to_wire(value: Any) -> Any:
    if isinstance(value, YCard):
        return value.code
    if isinstance(value, tuple | list):
        return [to_wire(item) for item in value]
    if isinstance(value, frozenset | set):
        return sorted(to_wire(item) for item in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        data = {f.name: to_wire(getattr(value, f.name)) for f in dataclasses.fields(value)}
        if isinstance(value, Event) or type(value) in ACTION_TYPES.values():
            data = {"type": type(value).__name__, **data}
        return data
    return value


def _validator(name: str) -> jsonschema.Validator:
    return jsonschema.Draft202012Validator({**SCHEMA, "$ref": f"#/$defs/{name}"})


@pytest.mark.parametrize("seats", [2, 6])
def test_fast_encoder_matches_the_reflective_one_and_the_schema(seats: int) -> None:
    rng = random.Random(seats)
    settings = GAME.settings_with(threshold=50, two_decks=True)
    state, events = GAME.new_match(GAME.match_config(settings, seats, None), f"wire-{seats}")
    encoder = GAME.view_encoder()
    server_side = GAME.view_encoder()
    views, event_check, action_check = (_validator("MatchView"), _validator("Event"),
                                        _validator("Action"))
    bots = [GAME.make_bot("facile", s, "wire") for s in range(seats)]
    while True:
        for seat in [*range(seats), None]:
            data = encoder.view(GAME.view(state, seat))
            assert data == to_wire(GAME.view(state, seat))
            sent = orjson.loads(orjson.dumps(server_side.wire(GAME.view(state, seat))))
            assert sent == data  # the server's path: JSON text kept, read back here
            views.validate(data)
            wire = GAME.encode_events(events, seat)
            assert wire == [to_wire(redact(e, seat)) for e in events]
            assert orjson.loads(server_side.wire_text(GAME.view(state, seat))) == data
            assert orjson.loads(GAME.events_text(events, seat)) == wire
            for event in wire:
                event_check.validate(event)
        if GAME.is_over(state):
            break
        for action in GAME.legal_actions(state):
            data = GAME.encode_action(action)
            action_check.validate(data)
            assert GAME.decode_action(data).action == action
        seat = GAME.to_act(state)
        action = (rng.choice(GAME.legal_actions(state)) if rng.random() < 0.3
                  else GAME.bot_decide(bots[seat], GAME.view(state, seat)))
        state, events = GAME.apply(state, action)


def test_a_combination_is_stored_in_one_form_whatever_the_order_sent() -> None:
    for order in (["6H", "XR", "4H"], ["4H", "XR", "6H"]):
        decoded = GAME.decode_action({"type": "Play", "cards": order})
        assert decoded.action == Play(ycards("4H XR 6H"))
        assert decoded.data == {"type": "Play", "cards": ["4H", "XR", "6H"]}


@pytest.mark.parametrize(("message", "reason"), [
    ([], "not_object"),
    ({"type": "Fly"}, "unknown_type"),
    ({"type": "Play"}, "missing_fields"),
    ({"type": "Play", "cards": ["5H"], "x": 1}, "extra_fields"),
    ({"type": "Play", "cards": "5H"}, "not_card_list"),
    ({"type": "Play", "cards": ["5X"]}, "bad_card"),
    ({"type": "TakeDiscard", "card": 5}, "bad_card"),
])
def test_malformed_actions_name_their_problem(message: object, reason: str) -> None:
    with pytest.raises(WireError) as caught:
        GAME.decode_action(message)
    assert caught.value.reason == reason
