"""The cost of being distributed (issue 20): the same load through nginx to 1 process and to N.

    python bench/loadtest/distributed.py [--rooms 1000] [--processes 1,2] [--duration 30]

For each count of processes: a fresh PostgreSQL database, that many `yanniv serve` in a cluster
(`YANNIV_CLUSTER=1`, leases, each advertising its address; the shared limits in Redis), nginx in
front with the configuration `yanniv balancer-conf` prints, and the load generator of the
throughput ramp (`generator.mjs`: R rooms of 4 seats, ~1 action per room per second) talking to
nginx only. Over the measured window, the CPU (utime + stime from /proc) of every process
that does the serving is added up: the app processes, nginx's master and workers, the Redis
server (the machine's: its CPU during the window is counted whole, whoever else used it) and
the PostgreSQL backends of that database. The table gives CPU per action of each part and of
all together, the latencies (send → new view, at the actor and at the others), errors, and the
ratio of each count's total CPU per action to the single process's (the bar: ≤ 1.2×).
A list that repeats counts (`--processes 1,2,1,2,1,2`) measures them interleaved: each row is
compared with the latest single-process row before it, and the median of those ratios is
printed, since one pair's ratio moves from run to run by about the bar's margin.

The generator runs niced and pinned to the last CPU, as in `ramp.py`. On a 2-core machine the
figure is that ratio, not capacity. A measurement, not a test; everything started here is a
child process stopped by its PID.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cluster import start_advertised, start_nginx
from ramp import DEFAULT_POSTGRES, fmt, generator_cpu, lat, raise_open_files, uptime
from servers import GeneratorOptions, Postgres, cpu_seconds, run_generator, stop_pid

REDIS_URL = os.environ.get("YANNIV_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def children(pid: int) -> list[int]:
    """The direct children of `pid` (nginx's workers), from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                stat = (entry / "stat").read_text()
                if int(stat[stat.rindex(")") + 2:].split()[1]) == pid:
                    found.append(int(entry.name))
    return found


def redis_pids() -> list[int]:
    out = subprocess.run(["pgrep", "-x", "redis-server"], capture_output=True, text=True,
                         check=False).stdout
    return [int(p) for p in out.split()]


def sample(parts: dict[str, list[int]], postgres: Postgres, database: str) -> dict[str, float]:
    """CPU seconds so far of each part's processes."""
    got: dict[str, float] = {}
    for name, pids in parts.items():
        total = 0.0
        for pid in pids:
            with contextlib.suppress(OSError, ValueError):
                total += cpu_seconds(pid)
        got[name] = total
    backends = postgres.backend_cpu(database)
    got["postgres"] = sum(backends.values())
    got["_backends"] = backends  # type: ignore[assignment]
    return got


def one_count(index: int, count: int, args: argparse.Namespace, workdir: Path,
              postgres: Postgres) -> dict[str, Any]:
    name, url = postgres.create()
    folder = workdir / f"run{index}-n{count}"
    folder.mkdir()
    servers = []
    nginx = None
    try:
        servers = start_advertised(url, folder, count, args.lease, args.lease / 3)
        nginx, base = start_nginx(folder, [f"127.0.0.1:{s.port}" for s in servers])
        for server in servers:  # the shared limits: Redis (set before the start, see below)
            assert server.proc.poll() is None
        parts = {"app": [s.pid for s in servers], "nginx": [nginx.pid, *children(nginx.pid)],
                 "redis": redis_pids()}
        marks: dict[str, dict[str, Any]] = {}

        def on_event(event: str) -> None:
            marks[event] = sample(parts, postgres, name)
            marks[event]["_each"] = [process_figures(s) for s in servers]  # type: ignore[assignment]

        front = type(servers[0])("nginx", int(base.rsplit(":", 1)[1]), servers[0].proc,
                                 servers[0].log)
        options = GeneratorOptions(rooms=args.rooms, duration=args.duration,
                                   warmup=args.warmup, rate=args.rate, seed=args.seed,
                                   nice=args.nice, cpu=generator_cpu(args.generator_cpu))
        result = run_generator(front, options, folder, None, on_event)
    finally:
        if nginx is not None:
            stop_pid(nginx)
        for server in servers:
            stop_pid(server.proc)
        with contextlib.suppress(Exception):
            postgres.drop(name)
    start, end = marks["window-start"], marks["window-end"]
    acked = result["actions_acked"] or 1
    cpu = {}
    for part in ("app", "nginx", "redis"):
        cpu[part] = end[part] - start[part]
    begun = start["_backends"]
    cpu["postgres"] = sum(v - begun.get(pid, 0.0) for pid, v in end["_backends"].items())
    per_action = {part: value / acked * 1000 for part, value in cpu.items()}
    per_action["total"] = sum(per_action.values())
    each = [{key: after[key] - before.get(key, 0.0) if key != "rooms" else after[key]
             for key in after}
            for before, after in zip(start["_each"], end["_each"], strict=True)]
    return {"processes": count, "result": result, "cpu_s": cpu, "ms_per_action": per_action,
            "cores": sum(cpu.values()) / result["window_s"], "each": each}


def process_figures(server: Any) -> dict[str, float]:
    """One app process's CPU seconds so far and, from its /metrics, its rooms and the group
    commit's batches and actions so far (to see how the load and the batches split)."""
    figures = {"cpu_s": 0.0, "rooms": 0.0, "batches": 0.0, "writes": 0.0}
    with contextlib.suppress(OSError, ValueError):
        figures["cpu_s"] = cpu_seconds(server.pid)
    names = {"yanniv_rooms": "rooms", "yanniv_action_write_batches_total": "batches",
             "yanniv_action_writes_total": "writes"}
    with contextlib.suppress(Exception), \
            urllib.request.urlopen(f"{server.base}/metrics", timeout=5) as answer:
        for line in answer.read().decode().splitlines():
            name, _, value = line.rpartition(" ")
            key = names.get(name.split("{", 1)[0])
            if key is not None and not line.startswith("#"):
                figures[key] += float(value)
    return figures


COLUMNS = [("procs", 6), ("act/s of", 15), ("actor ms p50/90/99/max", 26),
           ("others ms p50/90/99/max", 26), ("err", 5), ("disc", 5),
           ("ms/act app/nginx/redis/pg", 27), ("total", 7), ("x1", 6), ("x1 no pg", 9),
           ("cores", 6)]


def without_postgres(per: dict[str, float]) -> float:
    """What the bar counts: the app processes, the balancer and Redis."""
    return per["app"] + per["nginx"] + per["redis"]


def ratios(rows: list[dict[str, Any]]) -> list[tuple[float, float] | None]:
    """Each row's total CPU per action over the latest single-process row's at or before it:
    (with PostgreSQL, without it); None before the first single-process row."""
    found: list[tuple[float, float] | None] = []
    base: dict[str, float] | None = None
    for row in rows:
        per = row["ms_per_action"]
        if row["processes"] == 1:
            base = per
        found.append(None if base is None else (per["total"] / base["total"],
                                                without_postgres(per) / without_postgres(base)))
    return found


def table(rows: list[dict[str, Any]]) -> str:
    lines = ["  ".join(name.ljust(width) for name, width in COLUMNS)]
    found_ratios = ratios(rows)
    for row, ratio in zip(rows, found_ratios, strict=True):
        res, per = row["result"], row["ms_per_action"]
        cells = [str(row["processes"]),
                 f"{fmt(res['actions_per_s'])} of {fmt(res['rooms_playing'] * res['rate'], 0)}",
                 lat(res["latency_ms"]["actor"]), lat(res["latency_ms"]["others"]),
                 fmt(res["errors"], 0), fmt(res["disconnects"], 0),
                 "/".join(fmt(per[p], 3) for p in ("app", "nginx", "redis", "postgres")),
                 fmt(per["total"], 3),
                 fmt(ratio[0], 2) if ratio else "-", fmt(ratio[1], 2) if ratio else "-",
                 fmt(row["cores"], 2)]
        lines.append("  ".join(c.ljust(w) for c, (_n, w) in zip(cells, COLUMNS, strict=True)))
    for row in rows:
        parts = [f"{e['rooms']:.0f} rooms, {e['cpu_s']:.1f} s CPU, "
                 f"{e['writes'] / e['batches'] if e['batches'] else 0:.2f} actions a batch"
                 for e in row.get("each", [])]
        lines.append(f"  {row['processes']} process(es): " + "; ".join(parts))
    by_count: dict[int, list[float]] = {}
    for row, ratio in zip(rows, found_ratios, strict=True):
        if ratio is not None and row["processes"] != 1:
            by_count.setdefault(row["processes"], []).append(ratio[1])
    for count, found in sorted(by_count.items()):
        lines.append(f"{count} processes over 1, without PostgreSQL: median "
                     f"{statistics.median(found):.2f} of {len(found)} "
                     f"({', '.join(f'{r:.2f}' for r in found)})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=1000)
    parser.add_argument("--processes", default="1,2", help="comma-separated process counts")
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--rate", type=float, default=1.0)
    parser.add_argument("--lease", type=float, default=5.0, help="lease seconds")
    parser.add_argument("--postgres-url", default=DEFAULT_POSTGRES)
    parser.add_argument("--generator-cpu", default="auto")
    parser.add_argument("--nice", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    if not shutil.which("node") or not (shutil.which("nginx") or Path("/usr/sbin/nginx").exists()):
        print("needs node and nginx", file=sys.stderr)
        return 2
    raise_open_files()
    # Every process of the cluster counts its shared limits in Redis, as in production.
    os.environ["YANNIV_LIMITS_STORAGE"] = REDIS_URL
    postgres = Postgres(args.postgres_url)
    print(f"start: {uptime()}", flush=True)
    rows = []
    with tempfile.TemporaryDirectory(prefix="yanniv-dist-") as tmp:
        for index, count in enumerate(int(c) for c in args.processes.split(",")):
            row = one_count(index, count, args, Path(tmp), postgres)
            rows.append(row)
            res = row["result"]
            print(f"  {count} process(es): {res['actions_per_s']} actions/s, p99 actor "
                  f"{res['latency_ms']['actor']['p99']} ms, total "
                  f"{row['ms_per_action']['total']:.3f} ms CPU/action", flush=True)
    print(table(rows))
    print(f"end: {uptime()}")
    print("ms/act: CPU per acknowledged action over the window, by part (redis: the whole "
          "server's); x1: total over the single process's total; x1 no pg: the same without "
          "PostgreSQL (the bar of issue 20: app processes, balancer and Redis).")
    if args.json:
        Path(args.json).write_text(json.dumps({"rows": rows}, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
