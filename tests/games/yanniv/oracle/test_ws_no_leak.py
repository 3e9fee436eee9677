"""The independent knowledge model over 200 matches played through real WebSocket clients.

The app runs under uvicorn on 127.0.0.1; each seat and one spectator hold a `websockets` client
socket and keep every frame they receive. After a match the test rebuilds the truth by replaying
the room's seed and action log through the engine, follows it with the model of
`oracle/knowledge_model.py`, and checks every `state` frame each recipient received at the
step it was sent: a card named there that the recipient may not know is a leak.

The 200 matches are five shards of 40 (the same seeds, seat counts and batches of four), so
that the test workers share them, and each batch's frames are checked and dropped once it is
over: kept for the whole run, they made every collection of the garbage collector walk them.
"""

from __future__ import annotations

import asyncio
import json
import random
import uuid
from collections.abc import Callable
from typing import Any, TypeVar

import httpx
import orjson
import pytest
import websockets
from sqlalchemy import text as sql_text

from tests.fresh_loop import run_fresh
from tests.games.yanniv.oracle.knowledge_model import Checker, Truth
from tests.games.yanniv.oracle.play import choose, truth_of
from tests.live_ws import Recipient, collector_paused, served_app

MATCHES = 200
CONCURRENT = 4
SHARDS = 5
PER_SHARD = MATCHES // SHARDS
assert PER_SHARD * SHARDS == MATCHES and PER_SHARD % CONCURRENT == 0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with served_app(tmp_path_factory.mktemp("ws_leaks")) as served:
        yield served


Frames = dict[int | None, list[dict[str, Any]]]
T = TypeVar("T")


async def _play_match(http: httpx.AsyncClient, host: str, seats: int,
                      seed: int) -> tuple[str, dict[int | None, list[str | bytes]]]:
    rng = random.Random(seed)
    response = await http.post("/api/rooms", json={"pseudo": f"S0x{seed}"})
    assert response.status_code == 201, response.text
    created = response.json()
    code, tokens = created["code"], [created["token"]]
    for n in range(1, seats):
        joined = await http.post(f"/api/rooms/{code}/join", json={"pseudo": f"S{n}x{seed}"})
        assert joined.status_code == 200, joined.text
        tokens.append(joined.json()["token"])
    host_header = {"X-Seat-Token": tokens[0]}
    patched = await http.patch(f"/api/rooms/{code}/settings", json={"manches": 1},
                               headers=host_header)
    assert patched.status_code == 200, patched.text
    urls = [f"ws://{host}/ws/{code}?token={t}" for t in tokens] + [f"ws://{host}/ws/{code}"]
    sockets = [await websockets.connect(url, max_size=2**22) for url in urls]
    recipients = [Recipient(ws, seat) for seat, ws in enumerate(sockets[:seats])]
    recipients.append(Recipient(sockets[-1], None))
    readers = [asyncio.create_task(r.read()) for r in recipients]
    try:
        started = await http.post(f"/api/rooms/{code}/start", headers=host_header)
        assert started.status_code == 200, started.text
        for _ in range(5_000):
            await recipients[0].until_state()
            version = max(r.version for r in recipients)
            for r in recipients:
                await r.until_version(version)
            view = (await recipients[0].until_state())["view"]
            if view["finished"]:
                break
            actor = recipients[view["pending"]["seat"]]
            own = await actor.until_state()
            action_id = uuid.uuid4().hex
            await actor.ws.send(json.dumps({"type": "action", "id": action_id,
                                            "version": own["version"],
                                            "action": choose(own["view"]["legal_actions"], rng)}))
            answer = await actor.answer(action_id)
            assert answer["type"] == "ack", answer
            for r in recipients:
                await r.until_version(answer["version"])
        else:
            raise AssertionError("the match did not end")
    finally:
        for ws in sockets:
            await ws.close()
        await asyncio.gather(*readers, return_exceptions=True)
    return code, {r.seat: r.frames for r in recipients}


def _play_all(host: str, numbers: range, then: Callable[[str, Frames], T]) -> list[T]:
    """Matches `numbers` (match n: 2 + n % 3 seats, seed 9,000,000 + n), `CONCURRENT` at a
    time; `then(code, frames)` of each (what each recipient was sent) once its batch is over,
    so that no more than a batch's frames are held at once, and one match's parsed."""

    async def run_all() -> list[T]:
        async with httpx.AsyncClient(base_url=f"http://{host}", timeout=30) as http:
            done: list[T] = []
            for first in range(numbers.start, numbers.stop, CONCURRENT):
                batch = range(first, min(first + CONCURRENT, numbers.stop))
                played = await asyncio.gather(
                    *(_play_match(http, host, 2 + n % 3, 9_000_000 + n) for n in batch))
                with collector_paused():
                    done += [then(code, {seat: [orjson.loads(text) for text in texts]
                                         for seat, texts in frames.items()})
                             for code, frames in played]
            return done

    return run_fresh(run_all)


def _replay(app: Any, code: str) -> tuple[int, list[tuple[Truth, Truth, list[dict[str, Any]]]]]:
    """The truth of a room's match: (before, after, unredacted events) per step, from its seed
    and action log (what the server persists)."""
    from tests.games.yanniv.oracle.wire_oracle import to_wire
    from yanniv.games import get_game
    from yanniv.games.yanniv.rules import apply, start_match

    match = app.state.rooms.get(code).match
    state, events = start_match(match.config, match.seed)
    steps = [(truth_of(state), truth_of(state), [to_wire(e) for e in events])]
    # The log as stored (memory keeps none): the rows themselves, not the server's loader.
    with app.state.db.engine.connect() as conn:
        rows = conn.execute(sql_text("SELECT action FROM room_actions WHERE match_id = :m "
                                 "ORDER BY step"), {"m": match.id}).all()
    for (stored,) in rows:
        data = json.loads(stored) if isinstance(stored, str) else stored
        before = truth_of(state)
        state, events = apply(state, get_game("yanniv").decode_action(data).action)
        steps.append((before, truth_of(state), [to_wire(e) for e in events]))
    return match.config.seats, steps


def _leaks(app: Any, code: str, frames: Frames) -> list[str]:
    seats, steps = _replay(app, code)
    return _leaks_in(code, seats, steps, frames)


def _leaks_in(label: str, seats: int, steps: list[tuple[Truth, Truth, list[dict[str, Any]]]],
              frames: dict[int | None, list[dict[str, Any]]]) -> list[str]:
    by_step: dict[int, list[tuple[int | None, dict[str, Any], int | None]]] = {}
    for recipient, states in frames.items():
        previous: int | None = None
        for message in states:
            step = message["view"]["step"]
            by_step.setdefault(step, []).append((recipient, message, previous))
            previous = step
    checker = Checker(seats)
    knew: list[dict[int | None, set[str]]] = []
    found: list[str] = []
    recipients: list[int | None] = [*range(seats), None]
    for step, (before, after, events) in enumerate(steps):
        knew.append({r: checker.pile_knowledge(r) for r in recipients})
        for event in events:
            checker.model.follow(event, before, after)
        for recipient, message, previous in by_step.get(step, []):
            problems = checker.check_view(recipient, message["view"], after)
            if previous is None:  # the first frame of a socket: the events of its step, or none
                batch = [step] if message["events"] else []
            else:
                batch = list(range(previous + 1, step + 1))
            true_events = [e for j in batch for e in steps[j][2]]
            knew_pile = set().union(*(knew[j][recipient] for j in batch)) if batch else set()
            problems += checker.check_events(recipient, message["events"], true_events,
                                             knew_pile)
            found += [f"{label} step {step} recipient {recipient}: {p}" for p in problems]
    return found


@pytest.mark.parametrize("shard", range(SHARDS))
def test_no_frame_names_a_card_its_recipient_may_not_know(server: Any, shard: int) -> None:
    app, host = server

    def checked(code: str, frames: Frames) -> tuple[int, list[str]]:
        return sum(len(states) for states in frames.values()), _leaks(app, code, frames)

    played = _play_all(host, range(shard * PER_SHARD, (shard + 1) * PER_SHARD), checked)
    assert len(played) == PER_SHARD
    assert sum(n for n, _ in played) > PER_SHARD * 20, "every recipient got a whole match"
    leaking = [leaks for _, leaks in played if leaks]
    assert not leaking, f"{len(leaking)} of {PER_SHARD} matches leak:\n" + "\n".join(
        f"{leaks[0]} (+{len(leaks) - 1})" for leaks in leaking[:10])


def test_the_frames_were_checked_against_the_true_course(server: Any) -> None:
    """The checker is not vacuous: seat 0's first frame doctored to show one of seat 1's true
    cards (nothing is known of another hand at the deal) is flagged. On a match of its own
    (the 201st), played in whichever worker runs this test."""
    app, host = server
    [(code, frames)] = _play_all(host, range(MATCHES, MATCHES + 1), lambda *played: played)
    seats, steps = _replay(app, code)
    message = json.loads(json.dumps(frames[0][0]))
    step = message["view"]["step"]
    message["view"]["players"][1]["known_cards"] = [steps[step][1].hands[1][0]]
    found = _leaks_in("doctored", seats, steps, {0: [message]})
    assert any("players[1].known_cards shows" in p for p in found), found
    assert not _leaks_in("honest", seats, steps, frames), "the honest frames pass"
