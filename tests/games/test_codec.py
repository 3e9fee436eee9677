"""The one production codec (`yanniv.games.yanniv.codec`) against the reflective oracle
(`tests/games/yanniv/oracle/wire_oracle.py`), over every view and event of whole matches."""

from __future__ import annotations

import random

import orjson
import pytest

from tests.games.yanniv.oracle.wire_oracle import events_to_wire, to_wire
from yanniv.games import get_game
from yanniv.games.interface import WireError
from yanniv.games.yanniv.codec import PUBLIC_FIELDS
from yanniv.games.yanniv.rules import MatchConfig, Play, apply, legal_actions, view
from yanniv.games.yanniv.rules.cards import parse_card
from yanniv.games.yanniv.rules.setup import start_match

GAME = get_game("yanniv")


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_fast_encoder_matches_the_oracle(seats: int) -> None:
    rng = random.Random(seats)
    state, events = start_match(MatchConfig(seats=seats, manches=2), f"serialize-{seats}")
    encoder = GAME.view_encoder()
    wire = GAME.view_encoder()  # the server's path: JSON text kept, read back here
    shared = GAME.view_encoder()  # ... with the public fields written once per state
    text = GAME.view_encoder()  # ... and as the text a `state` message splices in
    while True:
        for seat in [*range(seats), None]:
            assert encoder.view(view(state, seat)) == to_wire(view(state, seat))
            assert orjson.loads(orjson.dumps(wire.wire(view(state, seat)))) == to_wire(
                view(state, seat))
            assert orjson.loads(orjson.dumps(shared.wire(view(state, seat), state))) == to_wire(
                view(state, seat))
            assert orjson.loads(text.wire_text(view(state, seat), state)) == to_wire(
                view(state, seat))
            assert GAME.encode_events(events, seat) == events_to_wire(events, seat)
            assert orjson.loads(GAME.events_text(events, seat)) == events_to_wire(events, seat)
        if state.finished:
            break
        actions = legal_actions(state)
        for action in actions:
            data = GAME.encode_action(action)
            assert data == to_wire(action)
            decoded = GAME.decode_action(data)
            assert decoded.action == action and decoded.data == data
        state, events = apply(state, rng.choice(actions))


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_fields_written_once_per_state_are_the_same_for_every_viewer(seats: int) -> None:
    """The codec writes `PUBLIC_FIELDS` once for all the seats of a state: each of them must
    be equal in every seat's view and a spectator's, with known cards shown or not."""
    rng = random.Random(100 + seats)
    state, _ = start_match(MatchConfig(seats=seats, manches=2), f"public-{seats}")
    checked = 0
    while not state.finished:
        for show in (True, False):
            spectator = view(state, None, show)
            for seat in range(seats):
                seen = view(state, seat, show)
                for name in PUBLIC_FIELDS:
                    assert getattr(seen, name) == getattr(spectator, name), (name, seat)
                    checked += 1
        state, _ = apply(state, rng.choice(legal_actions(state)))
    assert checked > 1000


def test_known_cards_left_out_for_opponents_only() -> None:
    state, _ = start_match(MatchConfig(seats=3), "known")
    data = GAME.view_encoder().view(GAME.view(state, 1, show_known_cards=False))
    for player in data["players"]:
        if player["seat"] == 1:
            assert player["known_cards"] == data["hand"]
        else:
            assert player["known_cards"] == []


def test_decoding_gives_the_stored_form_in_card_order() -> None:
    five_h, five_s = parse_card("5H"), parse_card("5S")
    canonical = tuple(sorted((five_h, five_s)))
    for order in (["5H", "5S"], ["5S", "5H"]):
        decoded = GAME.decode_action({"type": "Play", "cards": order})
        assert decoded.action == Play(cards=canonical)
        assert decoded.data == {"type": "Play", "cards": [card.code for card in canonical]}
    assert decoded.data == GAME.encode_action(decoded.action)


@pytest.mark.parametrize(("message", "reason"), [
    ([], "not_object"),
    ({"type": "Fly"}, "unknown_type"),
    ({"type": "Play"}, "missing_fields"),
    ({"type": "Play", "cards": ["5H"], "x": 1}, "extra_fields"),
    ({"type": "Play", "cards": "5H"}, "not_card_list"),
    ({"type": "Play", "cards": ["5X"]}, "bad_card"),
    ({"type": "AskFour", "target": True, "rank": 5}, "not_integer"),
])
def test_malformed_actions_name_their_problem(message: object, reason: str) -> None:
    with pytest.raises(WireError) as caught:
        GAME.decode_action(message)
    assert caught.value.reason == reason
