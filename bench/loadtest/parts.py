"""Where a live server's time per action goes, part by part, under the load generator.

    python bench/loadtest/parts.py --rooms 500 [--database postgres] [--seed N]

`yanniv serve` runs as it always does (uvicorn, uvloop, its own config), from this file, with a
timer around each hot part of its code (`PARTS`: reading a frame, checking a message, the
engine's `apply`, the batch write, the broadcast and its pieces, the frames' writes, the
heartbeat) and the cyclic collector's passes. The generator plays the load; the server's
counters are read at the start and the end of the measured window, and each part is printed
in microseconds per action (an action: one `apply` of a seat's action in the window), beside
the process's whole CPU per action (`/proc`, from the generator's result).

Why not a sampling profiler: py-spy's stacks under uvloop are unreliable, and it cannot say how
long one call takes. Why not `bench/bench_server.py`: in process, with nothing between two
actions, the same code costs a third to a half of what it costs in a live server, where each
action finds its room's data out of the processor's caches (docs/OPERATIONS.md, « Idle gaps »).

The timers are wall time on the event loop's thread (the loop thread runs alone: SQLite's
batches are written on it; PostgreSQL's in the database thread are not counted here). Each timed
call costs about a microsecond more than it would untimed, so the process's CPU per action is
higher than in `ramp.py`; the parts are nested as printed (a part includes the parts under it).
A measurement, not a test.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import servers
from ramp import DEFAULT_POSTGRES, generator_cpu, raise_open_files, uptime

#: (label, module, class, attribute); a label's indent says what it is part of. `*game` stands
#: for the class of every registered game.
PARTS: tuple[tuple[str, str, str, str], ...] = (
    ("read: a client's frame in, handled", "yanniv.server.realtime.socket_protocol",
     "SocketProtocol",
     "data_received"),
    ("  its message checked, the action's task made", "yanniv.server.realtime.ws", "SocketReader",
     "feed"),
    ("engine: apply", "", "*game", "apply"),
    ("database: a batch written on the loop", "yanniv.server.store.room_store", "RoomStore",
     "append_actions"),
    ("broadcast: the new state to every socket", "yanniv.server.rooms.room", "Room", "broadcast"),
    ("  the match's journal (events kept)", "yanniv.server.rooms.room", "LiveMatch", "remember"),
    ("  one seat's `state` message", "yanniv.server.rooms.room", "Room", "state_text"),
    ("    its view (engine)", "", "*game", "view"),
    ("    the view's JSON", "yanniv.games.wire", "ViewMemo", "wire_text"),
    ("    the events' JSON", "", "*game", "events_text"),
    ("  frames queued or written", "yanniv.server.realtime.connections", "Connection", "send"),
    ("  frames queued or written (ack + state)", "yanniv.server.realtime.connections", "Connection",
     "send_both"),
    ("    a frame written (the send)", "yanniv.server.realtime.socket_protocol", "SocketProtocol",
     "write_text"),
    ("heartbeat", "yanniv.server.realtime.socket_protocol", "Heartbeat", "_tick"),
)
GC_LABEL = "cyclic garbage collector"
ACTIONS = "engine: apply"


def _timed(function: Callable[..., Any], label: str,
           totals: dict[str, list[float]]) -> Callable[..., Any]:
    clock = time.perf_counter
    slot = totals.setdefault(label, [0.0, 0])

    def timed(*args: Any, **kwargs: Any) -> Any:
        start = clock()
        try:
            return function(*args, **kwargs)
        finally:
            slot[0] += clock() - start
            slot[1] += 1

    return timed


def install(totals: dict[str, list[float]]) -> None:
    """Put a timer around every part (in the server's process, before it starts)."""
    import importlib
    import inspect

    from yanniv.games import GAMES

    for label, module, owner, attribute in PARTS:
        if owner == "*game":
            classes = {type(game) for game in GAMES.values()}
        else:
            classes = {getattr(importlib.import_module(module), owner)}
        for cls in classes:
            found = inspect.getattr_static(cls, attribute)  # a staticmethod stays one
            if isinstance(found, staticmethod):
                setattr(cls, attribute, staticmethod(_timed(found.__func__, label, totals)))
            else:
                setattr(cls, attribute, _timed(found, label, totals))
    slot = totals.setdefault(GC_LABEL, [0.0, 0])
    began = [0.0]

    def collector(phase: str, _info: dict[str, Any]) -> None:
        if phase == "start":
            began[0] = time.perf_counter()
        else:
            slot[0] += time.perf_counter() - began[0]
            slot[1] += 1

    gc.callbacks.append(collector)


#: Where the timed server appends its snapshots, in its working directory (the workdir).
SNAPSHOTS = "parts.jsonl"


def serve(host: str, port: int, database_url: str) -> None:
    """The server's side: `yanniv serve` with the timers; SIGUSR1 appends the totals to
    `SNAPSHOTS`."""
    totals: dict[str, list[float]] = {}
    install(totals)

    def snapshot(_signum: int, _frame: Any) -> None:
        with Path(SNAPSHOTS).open("a") as f:
            f.write(json.dumps({label: list(slot) for label, slot in totals.items()}) + "\n")

    signal.signal(signal.SIGUSR1, snapshot)
    from yanniv.app import serve as yanniv_serve

    yanniv_serve(host, port, database_url)


def measure(args: argparse.Namespace, workdir: Path) -> None:
    postgres = servers.Postgres(args.postgres_url) if args.database == "postgres" else None
    options = servers.GeneratorOptions(rooms=args.rooms, duration=args.duration,
                                       warmup=args.warmup, rate=args.rate, seed=args.seed,
                                       cpu=generator_cpu("auto"))
    launcher = (sys.executable, __file__, "--serve")
    with servers.running(f"yanniv-{args.database}", workdir, None, False, postgres,
                         launcher) as server:

        def mark(_event: str) -> None:
            os.kill(server.pid, signal.SIGUSR1)

        result = servers.run_generator(server, options, workdir, None, mark)
        time.sleep(0.5)  # the second snapshot is written by the server's signal handler
    lines = (workdir / SNAPSHOTS).read_text().splitlines()
    before, after = (json.loads(line) for line in lines[:2])
    report(before, after, result, args)


def report(before: dict[str, list[float]], after: dict[str, list[float]],
           result: dict[str, Any], args: argparse.Namespace) -> None:
    actions = after[ACTIONS][1] - before[ACTIONS][1]
    cpu_us = result["server"]["cpu_ms_per_action"] * 1000
    print(f"{args.rooms} rooms on {args.database}: {actions} actions in the window "
          f"({result['actions_per_s']} a second), the process {cpu_us:.0f} µs of CPU an action, "
          f"actor p99 {result['latency_ms']['actor']['p99']} ms")
    print(f"{'part':58s} {'µs/action':>10s} {'calls/action':>13s} {'of the CPU':>11s}")
    labels = [label for label, *_ in PARTS]
    labels.append(GC_LABEL)
    for label in dict.fromkeys(labels):
        seconds = after[label][0] - before[label][0]
        calls = after[label][1] - before[label][1]
        per_action = seconds / max(actions, 1) * 1e6
        print(f"{label:58s} {per_action:10.1f} {calls / max(actions, 1):13.2f} "
              f"{per_action / cpu_us:10.0%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=500)
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--rate", type=float, default=1.0, help="actions per room per second")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres-url", default=DEFAULT_POSTGRES)
    parser.add_argument("--keep", action="store_true", help="keep the workdir (logs)")
    # The timed server's side, started by `measure` with `yanniv serve`'s own arguments.
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--host", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--database-url", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.host, args.port, args.database_url)
        return
    raise_open_files()
    print(f"start: {uptime()}")
    folder = tempfile.mkdtemp(prefix="yanniv-parts-")
    try:
        measure(args, Path(folder))
    finally:
        if args.keep:
            print(f"logs in {folder}")
        else:
            import shutil

            shutil.rmtree(folder, ignore_errors=True)
    print(f"end: {uptime()}")


if __name__ == "__main__":
    main()
