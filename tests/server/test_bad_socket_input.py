"""The WebSocket half of the bad-input table: every malformed, oversized, ill-typed, untimely
or illegal message gets one `error` frame to its sender only, in the one error shape with a
French message in French; the room does not change, no other socket hears of it, the sender's
socket stays open and the match goes on."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from bad_input_scene import Scene, check_error
from fastapi.testclient import TestClient

Message = str | bytes | dict[str, Any]


@dataclass(frozen=True)
class SocketCase:
    name: str
    #: The frame to send, made from the scene (the acting seat's latest state).
    make: Callable[[Scene], Message]
    code: str
    #: Who sends it: the seat that must act, the other seat, or the spectator.
    sender: str = "actor"
    setup: Callable[[Scene], None] | None = None


def _action(scene: Scene, action: Any, action_id: str = "a-1", **fields: Any) -> dict[str, Any]:
    assert scene.state is not None
    return {"type": "action", "id": action_id, "version": scene.state["version"],
            "action": action, **fields}


def _legal(scene: Scene) -> dict[str, Any]:
    assert scene.state is not None
    return scene.state["view"]["legal_actions"][0]


def _version(scene: Scene) -> int:
    assert scene.state is not None
    return scene.state["version"]


def _hand(scene: Scene) -> list[str]:
    assert scene.state is not None
    return scene.state["view"]["hand"]


def _not_in_hand(scene: Scene) -> str:
    hand = set(_hand(scene))
    return next(f"{r}{s}" for r in "A23456789TJQK" for s in "SHDC" if f"{r}{s}" not in hand)


def _two_ranks(scene: Scene) -> list[str]:
    """Two cards of the hand of different ranks: never a combination."""
    hand = _hand(scene)
    first = hand[0]
    return [first, next(c for c in hand if c[0] != first[0])]


DUP_ID = "dup-1"


def _played_with_dup_id(scene: Scene) -> None:
    """The acting seat plays its first legal action under `DUP_ID` (acknowledged)."""
    action, version = _legal(scene), _version(scene)
    answer = scene.actor.act(action, version, DUP_ID)
    assert answer["type"] == "ack", answer
    for player in scene.sockets:
        player.wait_version(answer["version"])
    scene.first_played = (action, version)  # type: ignore[attr-defined]
    scene.drain()
    scene.state = scene.table.sync()
    seat = scene.state["view"]["pending"]["seat"]
    assert scene.table.players[seat] is scene.actor, "a Play is followed by the same seat's draw"
    scene.state = scene.actor.last_state


def _original(scene: Scene) -> tuple[dict[str, Any], int]:
    return scene.first_played  # type: ignore[attr-defined,no-any-return]


CASES: list[SocketCase] = [
    # Not JSON, or not a message.
    SocketCase("malformed JSON", lambda s: "{not json", "bad_json"),
    SocketCase("binary garbage", lambda s: b"\xff\xfe\x00", "bad_json"),
    SocketCase("empty frame", lambda s: "", "bad_json"),
    SocketCase("JSON array", lambda s: "[1, 2, 3]", "unknown_type"),
    SocketCase("JSON string", lambda s: '"hello"', "unknown_type"),
    SocketCase("unknown type", lambda s: {"type": "dance"}, "unknown_type"),
    SocketCase("type missing", lambda s: {"id": "x", "version": 1}, "unknown_type"),
    SocketCase("type not text", lambda s: {"type": 7}, "unknown_type"),
    # Missing, extra or ill-typed fields (strict: nothing is converted).
    SocketCase("fields missing", lambda s: {"type": "action", "id": "x1"}, "bad_message"),
    SocketCase("id missing",
               lambda s: {"type": "action", "version": _version(s), "action": _legal(s)},
               "bad_message"),
    SocketCase("extra field", lambda s: _action(s, _legal(s), cheat=True), "bad_message"),
    SocketCase("empty id", lambda s: _action(s, _legal(s), ""), "bad_message"),
    SocketCase("id of 65 characters", lambda s: _action(s, _legal(s), "i" * 65), "bad_message"),
    SocketCase("id not text", lambda s: {**_action(s, _legal(s)), "id": 17}, "bad_message"),
    SocketCase("version true", lambda s: {**_action(s, _legal(s)), "version": True},
               "bad_message"),
    SocketCase("version as text", lambda s: {**_action(s, _legal(s)), "version": str(_version(s))},
               "bad_message"),
    SocketCase("version as float",
               lambda s: {**_action(s, _legal(s)), "version": _version(s) + 0.0},
               "bad_message"),
    SocketCase("version null", lambda s: {**_action(s, _legal(s)), "version": None},
               "bad_message"),
    SocketCase("action not an object", lambda s: _action(s, "DrawPile"), "bad_message"),
    SocketCase("ping with extra field", lambda s: {"type": "ping", "x": 1}, "bad_message"),
    # Oversized (the documented 4096-byte cap; the socket stays open).
    SocketCase("message of 5000 bytes", lambda s: "x" * 5000, "message_too_large"),
    SocketCase("action of 4097 bytes", lambda s: _action(s, _legal(s), pad="p" * 4097),
               "message_too_large"),
    SocketCase("frame of 1 MiB", lambda s: "x" * (1 << 20), "message_too_large"),
    SocketCase("binary frame of 1 MiB", lambda s: b"\x00" * (1 << 20), "message_too_large"),
    # Malformed actions.
    SocketCase("unknown action", lambda s: _action(s, {"type": "Teleport"}), "bad_action"),
    SocketCase("action without type", lambda s: _action(s, {}), "bad_action"),
    SocketCase("bad card code", lambda s: _action(s, {"type": "Play", "cards": ["ZZ"]}),
               "bad_action"),
    SocketCase("card not text", lambda s: _action(s, {"type": "Play", "cards": [5]}), "bad_action"),
    SocketCase("cards not a list", lambda s: _action(s, {"type": "Play", "cards": "3D"}),
               "bad_action"),
    SocketCase("extra action field",
               lambda s: _action(s, {"type": "DrawPile", "card": "3D"}), "bad_action"),
    SocketCase("action field missing", lambda s: _action(s, {"type": "TakeDiscard"}),
               "bad_action"),
    SocketCase("bad colour", lambda s: _action(s, {"type": "ChooseColour", "colour": "green"}),
               "bad_action"),
    SocketCase("rank not an integer",
               lambda s: _action(s, {"type": "ChoosePower", "rank": "J"}), "bad_action"),
    SocketCase("rank true", lambda s: _action(s, {"type": "AskFour", "target": 0, "rank": True}),
               "bad_action"),
    # Untimely: wrong sender, wrong version.
    SocketCase("out of turn", lambda s: _action(s, {"type": "DrawPile"}), "not_your_turn",
               sender="other"),
    SocketCase("spectator acts", lambda s: _action(s, _legal(s)), "spectator",
               sender="spectator"),
    SocketCase("stale version", lambda s: _action(s, _legal(s), version=_version(s) - 1),
               "stale_version"),
    SocketCase("future version", lambda s: _action(s, _legal(s), version=_version(s) + 5),
               "stale_version"),
    SocketCase("negative version", lambda s: _action(s, _legal(s), version=-1), "stale_version"),
    # Well-formed but illegal now (the engine's codes; seat 1 holds 3D 4D 7H KH KD).
    SocketCase("not a combination", lambda s: _action(s, {"type": "Play", "cards": _two_ranks(s)}),
               "not_a_combination"),
    SocketCase("card not in hand",
               lambda s: _action(s, {"type": "Play", "cards": [_not_in_hand(s)]}),
               "card_not_in_hand"),
    SocketCase("YANNIV with 34 points", lambda s: _action(s, {"type": "CallYanniv"}),
               "yanniv_too_high"),
    SocketCase("draw before playing", lambda s: _action(s, {"type": "DrawPile"}), "must_play"),
    SocketCase("take before playing", lambda s: _action(s, {"type": "TakeDiscard", "card": "8D"}),
               "must_play"),
    SocketCase("Queen's keep on a turn",
               lambda s: _action(s, {"type": "QueenKeep", "keep": "3D", "order": []}),
               "wrong_decision"),
    SocketCase("4's ask on a turn",
               lambda s: _action(s, {"type": "AskFour", "target": 0, "rank": 7}),
               "wrong_decision"),
    # An id reused with another payload (after an acknowledged action under that id).
    SocketCase("reused id, another action",
               lambda s: _action(s, _legal(s), DUP_ID), "duplicate_id",
               setup=_played_with_dup_id),
    SocketCase("reused id, same action, another version",
               lambda s: _action(s, _original(s)[0], DUP_ID, version=_version(s)),
               "duplicate_id", setup=_played_with_dup_id),
    SocketCase("reused id, malformed action",
               lambda s: _action(s, {"type": "Teleport"}, DUP_ID), "duplicate_id",
               setup=_played_with_dup_id),
]


def _send(player: Any, message: Message) -> None:
    if isinstance(message, bytes):
        player.ws.send_bytes(message)
    elif isinstance(message, str):
        player.ws.send_text(message)
    else:
        player.send(message)


def _echoed_id(message: Message) -> str | None:
    """The id an error must carry: the message's own, when it is a usable one."""
    if isinstance(message, dict):
        value = message.get("id")
        if isinstance(value, str) and len(value) <= 64 and "pad" not in message:
            return value
    return None


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_socket_input(client: TestClient, table_cls: Any, player_cls: Any,
                          case: SocketCase) -> None:
    scene = Scene(client, table_cls, player_cls)
    try:
        if case.setup is not None:
            case.setup(scene)
        sender = {"actor": scene.actor, "other": scene.other,
                  "spectator": scene.spectator}[case.sender]
        before = scene.snapshot()
        message = case.make(scene)
        _send(sender, message)
        answer = sender.recv()
        assert answer["type"] == "error", answer
        check_error(answer, case.code)
        assert answer["id"] == _echoed_id(message)
        scene.assert_unchanged(before)
        scene.assert_quiet([p for p in scene.sockets if p is not sender])
        scene.assert_quiet([sender])  # nothing but the error, and its socket is open
        assert scene.table.step(random.Random(1)), "the match goes on"
    finally:
        scene.close()


def test_table_is_large_enough() -> None:
    """The bar of issue 16: at least 60 bad inputs between the two tables."""
    from test_bad_http_input import CASES as HTTP_CASES

    assert len(CASES) + len(HTTP_CASES) >= 60
    assert len({c.name for c in CASES}) == len(CASES)


def test_retry_with_same_payload_is_acknowledged_once(client: TestClient, table_cls: Any,
                                                      player_cls: Any) -> None:
    """The same id with the same payload (a resend) gets the same ack and is not replayed."""
    scene = Scene(client, table_cls, player_cls)
    try:
        action, version = _legal(scene), _version(scene)
        first = scene.actor.act(action, version, DUP_ID)
        assert first["type"] == "ack"
        steps = scene.room.match.state.step
        again = scene.actor.act(action, version, DUP_ID)
        assert again == first
        assert scene.room.match.state.step == steps
        assert scene.room.version == first["version"]
    finally:
        scene.close()
