"""Server CPU per action, in process: the real room code path with fake sockets.

    python bench/bench_server.py [--matches 3] [--seats 4] [--database-url POSTGRES_URL]
    python bench/bench_server.py --instructions 3


Prints, per action: engine `apply`; views + events serialized for every seat (orjson);
the whole `Rooms.act` on the event-loop thread (checks, apply, views, queueing — what the
loop spends besides waiting for the database); the database write (wall time, in the DB
thread); and the process CPU including the database thread.

`--gap MS` sleeps MS milliseconds before each action (outside what is measured): the same
work costs more CPU when the loop was idle before it, since what an action touches has left
the processor's caches meanwhile (docs/OPERATIONS.md, « Idle gaps »). `--window S` sets the
group commit's window (default: `Settings.group_commit_window`; with a window, each action
waits it out, an idle gap of its own).

`--instructions M` instead counts the instructions per action of the rooms part under
valgrind's cachegrind: a run of M + 1 matches minus a run of 1 (start-up cancels out), over
the actions of those M matches, with `PYTHONHASHSEED=0` unless the environment sets it,
and the group commit's window 0 (each action its own batch: with a window, how many actions
share a batch, and the loop's turns, follow the wall clock, which under valgrind follows the
machine's load). Unlike CPU time, that figure does not move with the load.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from statistics import mean
from typing import Any

from yanniv.app import GC_THRESHOLDS
from yanniv.games import get_game
from yanniv.games.yanniv.bots.policies import default_action
from yanniv.games.yanniv.rules import MatchConfig, apply, legal_actions, view
from yanniv.games.yanniv.rules.setup import start_match
from yanniv.server.rooms.registry import Rooms
from yanniv.server.settings import Settings


class FakeSocket:
    """Stands for a connection: records what would be sent."""

    def __init__(self, seat: Any) -> None:
        self.seat = seat
        self.sent = 0
        self.last = ""

    @property
    def seat_index(self) -> int | None:
        return self.seat.seat

    def send(self, text: str) -> None:
        self.sent += 1
        self.last = text

    def send_both(self, first: str, second: str) -> None:
        self.send(first)
        self.send(second)

    def close(self, code: int) -> None:
        pass


def bench_engine(seats: int, matches: int) -> tuple[float, float, int]:
    import orjson

    apply_s = views_s = 0.0
    actions = 0
    for m in range(matches):
        state, _ = start_match(MatchConfig(seats=seats), f"bench-{m}")
        encoder = get_game("yanniv").view_encoder()
        while not state.finished:
            action = default_action(state)
            t0 = time.perf_counter()
            state, events = apply(state, action)
            t1 = time.perf_counter()
            for seat in range(seats):
                orjson.dumps({"view": encoder.view(view(state, seat)),
                              "events": get_game("yanniv").encode_events(events, seat)})
            t2 = time.perf_counter()
            apply_s += t1 - t0
            views_s += t2 - t1
            actions += 1
    return apply_s / actions, views_s / actions, actions


async def bench_rooms(seats: int, matches: int, url: str, gap: float = 0.0,
                      window: float | None = None) -> dict[str, float]:
    settings = Settings(database_url=url)
    if window is not None:
        settings = settings.model_copy(update={"group_commit_window": window})
    from yanniv.db.session import Database

    db = Database(url)
    await db.run(db.upgrade)
    rooms = Rooms(db, settings)
    # The collector as `yanniv serve` tunes it (`create_app(tune_gc=True)`).
    gc.set_threshold(*GC_THRESHOLDS)
    gc.collect()
    gc.freeze()
    loop_cpu: list[float] = []
    walls: list[float] = []
    cpu0 = time.process_time()
    count = 0
    for m in range(matches):
        rooms.seed_factory = lambda m=m: f"bench-{m}"
        room, host, _ = await rooms.create(f"Hôte{m}", False, None)
        seat_objs = [host]
        for n in range(1, seats):
            seat, _ = await rooms.join(room, f"J{m}x{n}", None)
            seat_objs.append(seat)
        sockets = [FakeSocket(s) for s in seat_objs]
        room.connections.update(sockets)  # type: ignore[arg-type]
        await rooms.start(room, host)
        rng = random.Random(m)
        while not room.match.state.finished:
            state = room.match.state
            legal = legal_actions(state)
            action = default_action(state) if rng.random() < 0.9 else rng.choice(legal)
            actor = sockets[state.to_act]
            if gap:
                await asyncio.sleep(gap)
            t0 = time.thread_time()
            w0 = time.perf_counter()
            await rooms.act(room, actor.seat, f"id{count}", room.version,
                            get_game("yanniv").encode_action(action), actor)  # type: ignore[arg-type]
            walls.append(time.perf_counter() - w0)
            loop_cpu.append(time.thread_time() - t0)
            count += 1
    total_cpu = time.process_time() - cpu0
    rooms.close()
    db.close()
    return {
        "actions": count,
        "loop_cpu_ms": mean(loop_cpu) * 1000,
        "wall_ms": mean(walls) * 1000,
        "process_cpu_ms": total_cpu / count * 1000,
        "window": settings.group_commit_window,
    }


@contextlib.contextmanager
def scratch_database(server_url: str | None) -> Iterator[str | None]:
    """For a PostgreSQL URL, a fresh database on that server, dropped afterwards (the
    benchmark never writes into an existing database)."""
    if not server_url:
        yield None
        return
    from sqlalchemy import create_engine, text

    from yanniv.db.session import normalize_url

    admin_url = normalize_url(server_url)
    name = f"yanniv_bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield admin_url.rsplit("/", 1)[0] + "/" + name
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def _cachegrind(matches: int, seats: int) -> tuple[int, int]:
    """Instructions and room actions of a `--rooms-only` run of `matches` matches."""
    out = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         sys.executable, __file__, "--rooms-only", "--matches", str(matches),
         "--seats", str(seats), "--window", "0"],
        # A fixed hash seed: with a random one (the default) the count moved by ±3 % from
        # run to run of the same code (set orders, dict layouts); with it, by ~0.1 %.
        env={"PYTHONHASHSEED": "0", **os.environ}, capture_output=True, text=True,
        check=True,
    )
    refs = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    actions = re.search(r"\((\d+) actions, database", out.stdout)
    assert refs and actions, out.stdout + out.stderr
    return int(refs.group(1).replace(",", "")), int(actions.group(1))


def instructions(matches: int, seats: int) -> None:
    long_refs, long_actions = _cachegrind(matches + 1, seats)
    short_refs, short_actions = _cachegrind(1, seats)
    actions = long_actions - short_actions
    per_action = (long_refs - short_refs) / actions
    print(f"Rooms path under cachegrind: {per_action / 1e3:8.1f} k instructions/action "
          f"({actions} actions of {matches} matches, SQLite, {seats} seats)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--database-url", default=None,
                        help="PostgreSQL server URL: a scratch database is created there "
                             "(default: a temporary SQLite file)")
    parser.add_argument("--rooms-only", action="store_true",
                        help="skip the engine-only figures (apply, views+events)")
    parser.add_argument("--gap", type=float, default=0.0, metavar="MS",
                        help="idle milliseconds before each action (not measured)")
    parser.add_argument("--window", type=float, default=None, metavar="S",
                        help="the group commit's window in seconds (default: the setting's)")
    parser.add_argument("--instructions", type=int, default=0, metavar="M",
                        help="count instructions per action of M matches under cachegrind")
    args = parser.parse_args()
    if args.instructions:
        instructions(args.instructions, args.seats)
        return
    if not args.rooms_only:
        apply_s, views_s, actions = bench_engine(args.seats, args.matches)
        print(f"engine apply:                 {apply_s * 1e6:8.1f} µs/action ({actions} actions)")
        print(f"views+events, {args.seats} seats, orjson: {views_s * 1e6:8.1f} µs/action")
    with tempfile.TemporaryDirectory() as folder, scratch_database(args.database_url) as scratch:
        url = scratch or f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        figures = asyncio.run(bench_rooms(args.seats, args.matches, url, args.gap / 1000,
                                          args.window))
    print(f"Rooms.act, event-loop CPU:    {figures['loop_cpu_ms'] * 1000:8.1f} µs/action "
          f"({figures['actions']} actions, database: {url.split(':')[0]}, "
          f"idle gap {args.gap:g} ms, window {figures['window'] * 1000:g} ms)")
    print(f"Rooms.act, wall (with write): {figures['wall_ms'] * 1000:8.1f} µs/action")
    print(f"process CPU incl. DB thread:  {figures['process_cpu_ms'] * 1000:8.1f} µs/action")


if __name__ == "__main__":
    main()
