"""The server's fast serializer gives exactly what `yanniv.wire` gives, for every view and
event of whole matches (so the protocol is the wire format, only faster)."""

from __future__ import annotations

import random

import pytest

from yanniv.engine import MatchConfig, apply, legal_actions, view
from yanniv.engine.setup import start_match
from yanniv.server.serialize import ViewEncoder, events_wire
from yanniv.wire import events_to_wire, to_wire


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_fast_serializer_matches_wire(seats: int) -> None:
    rng = random.Random(seats)
    state, events = start_match(MatchConfig(seats=seats, manches=2), f"serialize-{seats}")
    encoder = ViewEncoder()
    while True:
        for seat in [*range(seats), None]:
            assert encoder.view(view(state, seat)) == to_wire(view(state, seat))
            assert events_wire(events, seat) == events_to_wire(events, seat)
        if state.finished:
            break
        state, events = apply(state, rng.choice(legal_actions(state)))


def test_known_cards_left_out_for_opponents_only() -> None:
    state, _ = start_match(MatchConfig(seats=3), "known")
    data = ViewEncoder().view(view(state, 1), show_known_cards=False)
    for player in data["players"]:
        if player["seat"] == 1:
            assert player["known_cards"] == data["hand"]
        else:
            assert player["known_cards"] == []
