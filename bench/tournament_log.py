"""A long tournament that can be read while it runs, and resumed after it stops.

    python bench/tournament_log.py run --log runs/final.jsonl --seats 4 --matches 2000 \
        --policies difficile,moyen,moyen,moyen --seed 777001 --workers 2
    python bench/tournament_log.py report --log runs/final.jsonl

`run` plays the same matches as `yanniv tournament` (`tournament.play_match`, match `i`
seeded `"{seed}/{i}"`, seats rotated by `i`) and appends each finished match to a JSON-lines
log; a match already in the log is not played again. `report` prints `yanniv tournament`'s
table over the matches `0..k-1` the log holds without a gap (a run cut short on a busy
machine is then reported on a prefix fixed in advance, not biased towards the matches that
finish first), with `k` and the last line's time.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any

from yanniv.tools.tournament import MatchStats, format_report, play_match, summarise


def _play(job: tuple[Any, ...]) -> tuple[int, MatchStats]:
    names, index, seed, manches = job
    return index, play_match(names, index, seed, manches)


def _read(log: Path) -> tuple[dict[str, Any] | None, dict[int, MatchStats]]:
    header: dict[str, Any] | None = None
    done: dict[int, MatchStats] = {}
    if not log.exists():
        return header, done
    for line in log.read_text().splitlines():
        row = json.loads(line)
        if "header" in row:
            header = row["header"]
        else:
            done[row["index"]] = MatchStats(**row["stats"])
    return header, done


def run(args: argparse.Namespace) -> int:
    log = Path(args.log)
    names = args.policies.split(",")
    header = {"seats": args.seats, "policies": names, "seed": args.seed,
              "manches": args.manches}
    old, done = _read(log)
    if old is not None and old != header:
        raise SystemExit(f"{log} holds another tournament: {old}")
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("a") as out:
        if old is None:
            out.write(json.dumps({"header": header}) + "\n")
        jobs = [(tuple(names), i, args.seed, args.manches)
                for i in range(args.matches) if i not in done]
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(args.workers) as pool:
            for index, stats in pool.imap(_play, jobs, chunksize=1):
                row = {"index": index, "at": time.strftime("%H:%M:%S"),
                       "stats": dataclasses.asdict(stats)}
                out.write(json.dumps(row) + "\n")
                out.flush()
    return 0


def report(args: argparse.Namespace) -> int:
    header, done = _read(Path(args.log))
    if header is None:
        raise SystemExit(f"{args.log}: no tournament")
    k = 0
    while k in done:
        k += 1
    results = [done[i] for i in range(k)]
    summary = summarise(header["policies"], results, header["seed"], header["manches"], 0.0)
    last = max(done, default=-1)
    sys.stdout.write(f"matches 0..{k - 1} without a gap ({len(done)} logged, last {last})\n")
    sys.stdout.write(format_report(summary) + "\n")
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    go = sub.add_parser("run")
    go.add_argument("--log", required=True)
    go.add_argument("--seats", type=int, default=4)
    go.add_argument("--matches", type=int, default=2000)
    go.add_argument("--policies", required=True)
    go.add_argument("--seed", type=int, required=True)
    go.add_argument("--manches", type=int, default=6)
    go.add_argument("--workers", type=int, default=2)
    show = sub.add_parser("report")
    show.add_argument("--log", required=True)
    args = parser.parse_args(argv)
    return run(args) if args.command == "run" else report(args)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
