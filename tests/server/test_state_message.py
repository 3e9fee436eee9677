"""`protocol.state_bytes`, the `state` message joined from its parts' texts, against the
generic writer `outgoing_bytes(StateOut, ...)` over the shapes a room sends."""

from __future__ import annotations

import orjson
import pytest

from yanniv.server.realtime.protocol import SERVER_MESSAGE, StateOut, outgoing_bytes, state_bytes

ROOM = {"code": "ABC234", "seats": [{"seat": 0, "pseudo": "Zoé « l'as »"}], "your_seat": 0}
VIEW = {"viewer": 0, "hand": ["QH", "XR"], "players": [{"seat": 0, "known_cards": []}]}
EVENTS = [{"type": "Drew", "seat": 1, "card": None}]


@pytest.mark.parametrize(("version", "view", "events", "deadline"), [
    (0, None, [], None),
    (1, VIEW, EVENTS, None),
    (123456, VIEW, [], 1_790_000_000_123),
    (7, None, EVENTS, 0),
])
def test_joined_state_message_is_what_the_generic_writer_writes(
        version: int, view: dict | None, events: list, deadline: int | None) -> None:
    joined = state_bytes(version, orjson.dumps(ROOM), orjson.dumps(view), orjson.dumps(events),
                         deadline)
    generic = outgoing_bytes(StateOut, version=version, room=ROOM, view=view, events=events,
                             deadline=deadline)
    assert joined == generic
    assert SERVER_MESSAGE.validate_json(joined) == SERVER_MESSAGE.validate_json(generic)
