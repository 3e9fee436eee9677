"""`fast_json.EventWriter`: each seat gets its own form of each event, the data of a form
made once per tuple of events, on toy events whose every form is known here."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

import orjson

from yanniv.games.wire import EventWriter, FastEncoder


@dataclass(frozen=True, slots=True)
class Drew:
    private: ClassVar[tuple[str, ...]] = ("card",)
    seat: int
    card: str | None


@dataclass(frozen=True, slots=True)
class Turn:
    private: ClassVar[tuple[str, ...]] = ()
    seat: int


HIDDEN: dict[Drew, Drew] = {}
made: list[object] = []


def redact(event: object, seat: int | None) -> object:
    """Written for this test: the drawer sees its card, everyone else one hidden copy."""
    if isinstance(event, Drew) and seat != event.seat:
        return HIDDEN.setdefault(event, replace(event, card=None))
    return event


def counting_encoder() -> FastEncoder:
    encoder = FastEncoder(coded=(), tagged=lambda cls: True)
    encode = encoder.encode

    def counted(value: object) -> object:
        made.append(value)
        return encode(value)

    encoder.encode = counted  # type: ignore[method-assign]
    return encoder


def test_each_seat_gets_its_own_form_and_each_form_is_made_once() -> None:
    made.clear()
    write = EventWriter(counting_encoder(), redact)
    events = (Turn(1), Drew(1, "QH"))
    seen = {seat: write(events, seat) for seat in (0, 1, 2, 3, None)}
    assert seen[1] == [{"type": "Turn", "seat": 1}, {"type": "Drew", "seat": 1, "card": "QH"}]
    for seat in (0, 2, 3, None):
        assert seen[seat] == [{"type": "Turn", "seat": 1},
                              {"type": "Drew", "seat": 1, "card": None}]
    assert len(made) == 3  # the turn, the whole draw, the hidden draw


def test_another_tuple_is_written_afresh_and_lists_every_time() -> None:
    made.clear()
    write = EventWriter(counting_encoder(), redact)
    assert write((Turn(0),), 0) == [{"type": "Turn", "seat": 0}]
    assert write((Turn(2),), 0) == [{"type": "Turn", "seat": 2}]
    events = [Turn(3)]
    write(events, 0)
    write(events, 1)
    assert len(made) == 4


def test_text_is_written_once_per_list_of_forms() -> None:
    """Every seat that gets the same forms gets the same text, written once; the drawer its
    own; a list of events (which could change) is written every time."""
    write = EventWriter(counting_encoder(), redact)
    events = (Turn(1), Drew(1, "QH"))
    texts = {seat: write.text(events, seat) for seat in (0, 1, 2, 3, None)}
    for seat, text in texts.items():
        assert orjson.loads(text) == write(events, seat)
    assert texts[0] is texts[2] is texts[3] is texts[None]
    assert texts[1] is not texts[0]
    assert write.text((), 0) == b"[]"
    listed = [Turn(3)]
    first = write.text(listed, 0)
    listed.append(Turn(0))
    assert orjson.loads(write.text(listed, 0)) == [{"type": "Turn", "seat": 3},
                                                   {"type": "Turn", "seat": 0}]
    assert orjson.loads(first) == [{"type": "Turn", "seat": 3}]


def test_a_change_of_public_events_only_is_written_once_for_every_seat() -> None:
    """With `public`, a tuple whose events all pass it is written once (no redaction per
    seat); one private event in it sends every seat back to its own forms."""
    made.clear()
    asked: list[object] = []

    def counted_redact(event: object, seat: int | None) -> object:
        asked.append(event)
        return redact(event, seat)

    write = EventWriter(counting_encoder(), counted_redact, lambda e: not e.private)
    public = (Turn(1), Turn(2))
    texts = {seat: write.text(public, seat) for seat in (0, 1, 2, 3, None)}
    assert len({id(text) for text in texts.values()}) == 1
    assert orjson.loads(texts[0]) == [{"type": "Turn", "seat": 1}, {"type": "Turn", "seat": 2}]
    assert asked == [] and len(made) == 2
    mixed = (Turn(1), Drew(1, "QH"))
    seen = {seat: orjson.loads(write.text(mixed, seat)) for seat in (0, 1, None)}
    assert seen[1][1]["card"] == "QH"
    assert seen[0][1]["card"] is None and seen[None][1]["card"] is None
    assert orjson.loads(write.text(public, 2)) == orjson.loads(texts[0])  # a new tuple again
