"""The load harness's plumbing, end to end at a tiny scale: `bench/loadtest/ramp.py` starts a
real `yanniv serve` on SQLite and both bare peers, the Node generator plays against each, and
the figures come back parsed. Not a performance test: it checks that actions were really
played and answered (0 errors, every view delivered), not how fast.

Skips without node or the npm package `ws` (`npm ci`), except under `YANNIV_REQUIRE_SERVICES=1`.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

from tests.conftest import skip_or_fail

ROOT = Path(__file__).resolve().parents[2]
RAMP = ROOT / "bench" / "loadtest" / "ramp.py"
KINDS = ("yanniv-sqlite", "node-peer", "python-peer")


def test_the_ramp_plays_every_server_and_reports_figures(tmp_path: Path) -> None:
    if not shutil.which("node"):
        skip_or_fail("node is not installed (the load generator is a Node program)")
    if not (ROOT / "node_modules" / "ws").is_dir():
        skip_or_fail("the npm package ws is missing: run `npm ci`")
    figures = tmp_path / "ramp.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, str(RAMP), "--rooms", "2", "--duration", "4", "--warmup", "1",
         "--rate", "2", "--servers", ",".join(KINDS), "--json", str(figures),
         "--workdir", str(tmp_path / "work")],
        capture_output=True, text=True, timeout=300, env=env, cwd=ROOT, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    data = json.loads(figures.read_text())
    assert "load average" in data["uptime_start"] and "load average" in data["uptime_end"]
    assert 0 < data["loop_seconds_start"] < 60 and 0 < data["loop_seconds_end"] < 60
    steps = {step["kind"]: step for step in data["steps"]}
    assert set(steps) == set(KINDS)
    for kind, step in steps.items():
        res = step["result"]
        assert res["rooms_playing"] == 2 and res["sockets"] == 8, kind
        # 2 rooms at 2 actions/s for 4 s: about 16 actions, each answered to all 4 seats.
        assert res["actions_sent"] >= 8, (kind, res)
        assert res["errors"] == 0 and res["disconnects"] == 0 and res["lost"] == 0, (kind, res)
        latency = res["latency_ms"]
        assert latency["actor"]["n"] == res["actions_sent"] == res["actions_acked"], kind
        assert latency["others"]["n"] == 3 * latency["actor"]["n"], kind
        assert 0 < latency["actor"]["p50"] <= latency["actor"]["max"], kind
        assert res["server"]["rss_idle_kb"] > 0 and res["server"]["kb_per_socket"] is not None
        assert set(res["ratio"]) == {"node-peer", "python-peer"}
        # Frames that ask nothing of their seat are read off their head, for every server: at
        # most the others' three in four, and never at the cost of a latency (counted above).
        assert 0 < res["frames"]["quiet"] <= 0.75 * res["frames"]["per_action"] * res[
            "actions_acked"] + 4, (kind, res["frames"])
        # Each second of the window: the actions sent then, and the generator's own stalls.
        timeline = res["timeline"]
        assert sum(second["n"] for second in timeline) == latency["actor"]["n"], kind
        assert all(second["generator_late_max"] >= 0 and second["generator_gc_ms"] >= 0
                   for second in timeline), kind
        # Its garbage is collected on the one CPU it is pinned to, on one thread: V8's
        # parallel collector's helpers, sharing that CPU, left it 30-79 ms late.
        assert res["generator"]["exec_argv"] == ["--single-threaded-gc"], res["generator"]
    # The peers sent frames of the sizes the Yanniv step recorded.
    real = steps["yanniv-sqlite"]["result"]["frames"]
    assert real["actor_state_bytes"] > 500 and real["ack_bytes"] > 20
    for peer in ("node-peer", "python-peer"):
        frames = steps[peer]["result"]["frames"]
        for key in ("ack_bytes", "actor_state_bytes", "other_state_bytes"):
            assert abs(frames[key] - real[key]) <= 0.25 * real[key], (peer, key, frames, real)
    # The printed table has one row per step, after the start line and before the end line.
    lines = run.stdout.splitlines()
    assert lines[0].startswith("start:")
    header = next(i for i, line in enumerate(lines) if line.startswith("rooms "))
    bars = next(i for i, line in enumerate(lines) if line.startswith("bars ("))
    end = next(i for i, line in enumerate(lines) if line.startswith("end:"))
    rows = [line.split() for line in lines[header + 1:bars]]
    assert [row[:2] for row in rows] == [["2", kind] for kind in KINDS]
    # Then one verdict per Yanniv step (the peers are only the machine's yardstick).
    assert [line.split()[:2] for line in lines[bars + 1:end]] == [["2", "yanniv-sqlite"]]


def test_the_cpu_split_reads_each_thread_of_a_process() -> None:
    """`cpu_split.threads`, checked against what this process knows of itself: the user time
    it spends shows in its own thread's counters, and every thread Python knows of is there."""
    sys.path.insert(0, str(ROOT / "bench" / "loadtest"))
    try:
        import cpu_split
    finally:
        sys.path.remove(str(ROOT / "bench" / "loadtest"))
    before = cpu_split.threads(os.getpid())
    spent = os.times().user
    total = 0
    while os.times().user - spent < 0.2:  # 0.2 s of user time, in this (the main) thread
        total += sum(range(1000))
    after = cpu_split.threads(os.getpid())
    main = str(os.getpid())  # the main thread's id is the process's
    assert main in after and len(after) >= threading.active_count()
    gained = after[main][1] - before[main][1]
    assert 0.15 <= gained <= 2.0, (before[main], after[main])
    assert all(counters[3] >= 0 and counters[4] >= 0 for counters in after.values())


def _row(kind: str, turn: int, ms: float, p99: float = 20.0) -> dict[str, object]:
    return {"kind": kind, "rooms": 250, "turn": turn,
            "result": {"server": {"cpu_ms_per_action": ms},
                       "latency_ms": {"actor": {"p99": p99}}}}


def test_repeated_turns_pair_each_server_with_the_peers_of_its_own_turn() -> None:
    """`ramp.py --repeat`: a ratio uses the peer of the same turn, never the first turn's, and
    the summary gives the median and range over turns and counts the turns within the bar
    (figures worked out by hand)."""
    sys.path.insert(0, str(ROOT / "bench" / "loadtest"))
    try:
        import ramp
    finally:
        sys.path.remove(str(ROOT / "bench" / "loadtest"))
    # Per turn: Yanniv's ms per action and actor p99, then the Node and Python peers' ms.
    turns = [(0.30, 23.0, 0.10, 0.15), (0.36, 25.0, 0.12, 0.12), (0.40, 21.0, 0.10, 0.20)]
    rows = []
    for turn, (ms, p99, node, python) in enumerate(turns):
        rows += [_row("yanniv-sqlite", turn, ms, p99), _row("node-peer", turn, node),
                 _row("python-peer", turn, python)]
    ramp.add_ratios(rows)
    sqlite = [row["result"]["ratio"] for row in rows if row["kind"] == "yanniv-sqlite"]
    assert sqlite == [{"node-peer": 3.0, "python-peer": 2.0},
                      {"node-peer": 3.0, "python-peer": 3.0},
                      {"node-peer": 4.0, "python-peer": 2.0}]
    lines = ramp.summary(rows).splitlines()
    line = next(line for line in lines if "yanniv-sqlite" in line).split()
    assert line[:3] == ["250", "yanniv-sqlite", "3/3"]
    assert line[3:5] == ["0.360", "(0.300-0.400)"]  # ms per action
    assert line[5:7] == ["3.00", "(3.00-4.00)"]  # x node
    assert line[7:9] == ["2.00", "(2.00-3.00)"]  # x python peer
    assert line[9:11] == ["23.0", "(21.0-25.0)"]  # actor p99
    assert line[11:] == ["2", "of", "3"]  # turns within 3x node
    table = ramp.table([{**row, "result": None, "error": "x"} for row in rows[:4]])
    assert "yanniv-sqlite #2" in table and "node-peer #1" in table


def _step(kind: str, ms: float, p99: float, top: float, kb: float = 20.0,
          acked: int = 100) -> dict[str, object]:
    latency = {"n": acked, "p50": 1.0, "p90": 2.0, "p99": p99, "max": top}
    return {"kind": kind, "rooms": 2000, "turn": 0, "result": {
        "actions_sent": 100, "actions_acked": acked, "lost": 0, "timeouts": 0,
        "errors": 0, "disconnects": 0, "latency_ms": {"actor": latency, "others": latency},
        "server": {"cpu_ms_per_action": ms, "kb_per_socket": kb}}}


def test_the_verdicts_name_each_missed_bar_and_whether_the_peers_missed_it_too() -> None:
    """`ramp.verdicts`: a Yanniv step holds the issue's bars or names those it misses (worked
    out by hand), and where it misses one, says what the bare peers of the same R and turn
    missed of the transport's bars (latency, answers): a machine that cannot carry the load
    for them says nothing about Yanniv."""
    sys.path.insert(0, str(ROOT / "bench" / "loadtest"))
    try:
        import ramp
    finally:
        sys.path.remove(str(ROOT / "bench" / "loadtest"))
    rows = [_step("yanniv-sqlite", 0.29, 49.0, 199.0, kb=29.9),
            _step("yanniv-postgres", 0.31, 62.3, 113.5, kb=31.0, acked=99),
            _step("node-peer", 0.10, 115.8, 377.9, kb=50.0),
            _step("python-peer", 0.20, 12.0, 40.0, kb=50.0)]
    ramp.add_ratios(rows)
    lines = ramp.verdicts(rows).splitlines()
    assert lines[0].startswith("bars (")
    assert lines[1].split() == ["2000", "yanniv-sqlite", "holds"]
    assert lines[2] == (
        "2000    yanniv-postgres      misses: 1 of 100 actions unanswered; "
        "actor p99 62.3 > 50 ms; others p99 62.3 > 50 ms; 3.10x node > 3x; "
        "31.0 KB a socket > 30 | the peers too: node-peer: actor p99 115.8 > 50 ms, "
        "actor max 377.9 > 200 ms, others p99 115.8 > 50 ms, others max 377.9 > 200 ms; "
        "python-peer: holds")
    assert len(lines) == 3  # no verdict for a peer


def test_page_pings_are_sent_to_quiet_seats_and_all_answered(tmp_path: Path) -> None:
    """`--client-pings`: a seat that sent nothing for 2.5 s sends a page's `ping`, as
    web/static/js/socket.js does; every one gets its `pong` from the server and from the
    peers, and the pongs stay out of an action's frames."""
    if not shutil.which("node") or not (ROOT / "node_modules" / "ws").is_dir():
        skip_or_fail("node and `npm ci` are needed (the load generator is a Node program)")
    figures = tmp_path / "ramp.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    kinds = ("yanniv-sqlite", "node-peer")
    run = subprocess.run(
        [sys.executable, str(RAMP), "--rooms", "1", "--duration", "8", "--warmup", "1",
         "--rate", "0.5", "--servers", ",".join(kinds), "--client-pings", "--json",
         str(figures), "--workdir", str(tmp_path / "work")],
        capture_output=True, text=True, timeout=300, env=env, cwd=ROOT, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    for step in json.loads(figures.read_text())["steps"]:
        res = step["result"]
        pings = res["client_pings"]
        # 4 seats, one action every 2 s among them, for 8 s: each is quiet for 2.5 s or more.
        assert pings["sent"] >= 4, (step["kind"], pings)
        assert pings["pongs"] == pings["sent"], (step["kind"], pings)
        assert res["errors"] == 0 and res["disconnects"] == 0, (step["kind"], res)
        assert res["frames"]["per_action"] <= 5.0, (step["kind"], res["frames"])
