"""Where a server's CPU goes at one load: user and system time, context switches, by thread.

    python bench/loadtest/cpu_split.py --rooms 250 --servers yanniv-sqlite,node-peer,python-peer

Each server kind in turn is started on a free 127.0.0.1 port and the generator plays the
load against it (`servers.py`, as `ramp.py` does); each thread's counters are read from
/proc at the start and at the end of the measured window. `ramp.py` gives the same CPU in
total; this splits it: a cost paid in the kernel (system calls, wake-ups) shows in `sys` and
in the switches, one paid in the interpreter in `user`. The bare peers replay the message
sizes that the first Yanniv server of the run recorded, so list a Yanniv server first.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import servers
from ramp import DEFAULT_POSTGRES, generator_cpu, raise_open_files, uptime

TICK = os.sysconf("SC_CLK_TCK")
Counters = tuple[str, float, float, int, int]


def threads(pid: int) -> dict[str, Counters]:
    """Each thread's name, user and system seconds, voluntary and involuntary switches."""
    found: dict[str, Counters] = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        base = f"/proc/{pid}/task/{tid}"
        try:
            stat = Path(f"{base}/stat").read_text().rsplit(")", 1)[1].split()
            status = dict(line.split(":\t", 1) for line in
                          Path(f"{base}/status").read_text().splitlines() if ":\t" in line)
            name = Path(f"{base}/comm").read_text().strip()
        except (FileNotFoundError, ProcessLookupError):
            continue  # the thread ended meanwhile
        found[tid] = (name, int(stat[11]) / TICK, int(stat[12]) / TICK,
                      int(status["voluntary_ctxt_switches"]),
                      int(status["nonvoluntary_ctxt_switches"]))
    return found


def measure(kind: str, workdir: Path, options: servers.GeneratorOptions,
            postgres: servers.Postgres | None) -> None:
    sizes = workdir / "sizes.json"
    yanniv = kind.startswith("yanniv")
    marks: dict[str, tuple[float, dict[str, Counters]]] = {}
    with servers.running(kind, workdir, None if yanniv else sizes, False,
                         postgres if kind == "yanniv-postgres" else None) as server:
        def mark(event: str) -> None:
            marks[event] = (time.monotonic(), threads(server.pid))

        result = servers.run_generator(server, options, workdir, sizes if yanniv else None, mark)
    (start, before), (end, after) = marks["window-start"], marks["window-end"]
    seconds = end - start
    print(f"{kind}: {seconds:.1f} s, {result['actions_per_s']} actions/s")
    totals = [0.0, 0.0, 0.0, 0.0]
    for tid, (name, user, system, switches, forced) in after.items():
        _, user0, system0, switches0, forced0 = before.get(tid, (name, 0.0, 0.0, 0, 0))
        parts = (user - user0, system - system0, switches - switches0, forced - forced0)
        totals = [t + p for t, p in zip(totals, parts, strict=True)]
        if parts[0] + parts[1] > 0.01 or parts[2] > 10 * seconds:
            _line(name, parts, seconds)
    _line("all threads", tuple(totals), seconds, f"  ({len(after)} threads)")


def _line(name: str, parts: tuple[float, ...], seconds: float, tail: str = "") -> None:
    user, system, switches, forced = (p / seconds for p in parts)
    print(f"  {name:16s} user {1000 * user:6.1f}  sys {1000 * system:5.1f} ms/s   "
          f"switches {switches:7.1f}/s  forced {forced:5.1f}/s{tail}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=250)
    parser.add_argument("--servers", default="yanniv-sqlite,node-peer,python-peer")
    parser.add_argument("--rate", type=float, default=1.0)
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres-url", default=DEFAULT_POSTGRES)
    args = parser.parse_args()
    raise_open_files()
    print(f"start: {uptime()}")
    options = servers.GeneratorOptions(rooms=args.rooms, duration=args.duration,
                                       warmup=args.warmup, rate=args.rate, seed=args.seed,
                                       cpu=generator_cpu("auto"))
    postgres = servers.Postgres(args.postgres_url)
    with tempfile.TemporaryDirectory(prefix="yanniv-cpu-") as folder:
        for kind in args.servers.split(","):
            measure(kind, Path(folder), options, postgres)
    print(f"end: {uptime()}")


if __name__ == "__main__":
    main()
