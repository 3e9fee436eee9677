"""Run `yanniv simulate` in two checkouts side by side, alternating, and print both medians.

A figure from one run alone means little on a shared machine: the two checkouts take turns,
so both see the same load, and the load (`uptime`) is printed before and after.

    python bench/bench_simulate.py --other ../old --rounds 5 -- --seats 4 --matches 1000 --seed 1

`--instructions M` also counts the instructions of M matches in each checkout under
valgrind's cachegrind (the run's count minus a 10-match run's, so start-up cancels out):
a figure that does not move with the machine's load, unlike CPU seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def _uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()


def _run(checkout: Path, args: list[str]) -> dict:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    out = subprocess.run(
        [sys.executable, "-m", "yanniv.cli", "simulate", *args],
        cwd=checkout, env=env, capture_output=True, text=True, check=True,
    ).stdout
    return json.loads(out)


def _instructions(checkout: Path, args: list[str], matches: int) -> int:
    """Instructions executed by `simulate` with `args` and `--matches matches`."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    out = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         sys.executable, "-m", "yanniv.cli", "simulate", *args, "--matches", str(matches)],
        cwd=checkout, env=env, capture_output=True, text=True, check=True,
    ).stderr
    match = re.search(r"I\s+refs:\s+([\d,]+)", out)
    assert match, out
    return int(match.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other", required=True, type=Path, help="the checkout to compare with")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--instructions", type=int, default=0, metavar="M",
                        help="also count instructions of M matches under cachegrind")
    parser.add_argument("simulate_args", nargs="*",
                        help="arguments for `yanniv simulate`, after --")
    ns = parser.parse_args()
    checkouts = {"this": HERE, "other": ns.other.resolve()}
    cpu: dict[str, list[float]] = {name: [] for name in checkouts}
    actions: dict[str, float] = {}
    print("before:", _uptime())
    for _ in range(ns.rounds):
        for name, path in checkouts.items():
            result = _run(path, ns.simulate_args)
            cpu[name].append(result["cpu_seconds"])
            actions[name] = result["mean_actions_per_match"]
    print("after: ", _uptime())
    for name, path in checkouts.items():
        runs = ", ".join(f"{value:.2f}" for value in cpu[name])
        print(f"{name:5} {path}: median {statistics.median(cpu[name]):.2f} s CPU "
              f"(runs: {runs}); {actions[name]} actions per match")
    ratio = statistics.median(cpu["this"]) / statistics.median(cpu["other"])
    print(f"this / other: {ratio:.3f}")
    if ns.instructions:
        rest = _without_matches(ns.simulate_args)
        counts = {
            name: _instructions(path, rest, ns.instructions + 10) - _instructions(path, rest, 10)
            for name, path in checkouts.items()
        }
        for name, count in counts.items():
            print(f"{name:5}: {count / ns.instructions / 1e6:.2f} M instructions per match "
                  f"({ns.instructions} matches under cachegrind)")
        print(f"this / other (instructions): {counts['this'] / counts['other']:.3f}")


def _without_matches(args: list[str]) -> list[str]:
    """`args` without its `--matches N` (the instruction count sets its own)."""
    out: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg == "--matches":
            skip = True
        elif not arg.startswith("--matches="):
            out.append(arg)
    return out


if __name__ == "__main__":
    main()
