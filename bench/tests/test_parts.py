"""`bench/loadtest/parts.py` end to end at a tiny scale: a real `yanniv serve` with its
timers, the Node generator, and a table with every part. Not a performance test: it checks
that every timer is installed and counts what it names (one `apply` per action, one broadcast
per action, one `state` per seat), and that nested parts fit in the parts that hold them.

Skips without node or the npm package `ws` (`npm ci`), except under `YANNIV_REQUIRE_SERVICES=1`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import skip_or_fail

ROOT = Path(__file__).resolve().parents[2]
PARTS = ROOT / "bench" / "loadtest" / "parts.py"


def test_every_part_is_timed_and_counted_per_action() -> None:
    if not shutil.which("node") or not (ROOT / "node_modules" / "ws").is_dir():
        skip_or_fail("node and `npm ci` are needed (the load generator is a Node program)")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, str(PARTS), "--rooms", "2", "--rate", "2", "--duration", "4",
         "--warmup", "1"],
        capture_output=True, text=True, timeout=300, env=env, cwd=ROOT, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    summary = next(line for line in lines if line.startswith("2 rooms on sqlite:"))
    assert int(summary.split(":")[1].split()[0]) >= 8, summary  # actions in the window
    header = next(i for i, line in enumerate(lines) if line.startswith("part "))
    rows = {}
    for line in lines[header + 1:]:
        if line.startswith("end:"):
            break
        label, micros, calls, share = line.strip().rsplit(maxsplit=3)
        rows[label] = (float(micros), float(calls), share)
    assert len(rows) == 15, rows
    assert rows["engine: apply"][1] == 1.0
    assert 1.0 <= rows["broadcast: the new state to every socket"][1] <= 1.2
    # Four seats, each its own `state` (a broadcast between matches adds none of an action).
    assert 3.6 <= rows["one seat's `state` message"][1] <= 4.8, rows
    assert rows["its view (engine)"][1] == rows["one seat's `state` message"][1]
    # Nested parts, in time: each within the part printed above it.
    broadcast = rows["broadcast: the new state to every socket"][0]
    state = rows["one seat's `state` message"][0]
    inner = sum(rows[label][0] for label in ("its view (engine)", "the view's JSON",
                                             "the events' JSON"))
    assert 0 < inner <= state <= broadcast, rows
    assert rows["a frame written (the send)"][0] > 0, rows
    assert rows["read: a client's frame in, handled"][0] > 0, rows
