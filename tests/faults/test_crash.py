"""Kill -9 under load, for real: `bench/loadtest/crash.py` starts `yanniv serve`, plays rooms
of four socket clients as fast as it answers, kills it at a random moment and restarts it on
the same database; no acknowledged action may be missing from the stored log, and a resent
in-flight action must not be applied twice. A self-test run deletes one acknowledged action
and must be caught. (The harness's 20-trial runs are in the closing notes; here a few.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CRASH = ROOT / "bench" / "loadtest" / "crash.py"


def _crash(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, str(CRASH), "--rooms", "4", *args],
                          capture_output=True, text=True, timeout=400, env=env, cwd=ROOT,
                          check=False)


def test_no_acknowledged_action_is_lost_on_sqlite() -> None:
    run = _crash("--trials", "2", "--seed", "11")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 trials on sqlite" in run.stdout and "0 trials lost or doubled" in run.stdout
    assert " 0 acknowledged actions" not in run.stdout  # it did play


@pytest.mark.postgres
def test_no_acknowledged_action_is_lost_on_postgres(postgres_admin_url: str) -> None:
    run = _crash("--trials", "2", "--seed", "12", "--database", "postgres",
                 "--postgres-url", postgres_admin_url)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 trials lost or doubled" in run.stdout


def test_the_crash_check_catches_a_lost_action() -> None:
    run = _crash("--trials", "1", "--seed", "13", "--self-test")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "lost 1," in run.stdout and "1 trials lost or doubled" in run.stdout
