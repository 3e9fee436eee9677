"""Three `yanniv serve` processes in a cluster behind nginx, for real:
`bench/loadtest/balanced.py` creates 20 rooms and plays them to their end through the
balancer only (each room's requests and sockets must reach its owner), and compares the
public list of every process, asked and pushed; without advertised addresses the same run
must fail."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BALANCED = ROOT / "bench" / "loadtest" / "balanced.py"


def _balanced(postgres_admin_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, str(BALANCED), "--postgres-url", postgres_admin_url,
                           *args], capture_output=True, text=True, timeout=400, env=env,
                          cwd=ROOT, check=False)


@pytest.mark.postgres
def test_rooms_spread_over_three_processes_play_to_the_end(postgres_admin_url: str,
                                                            nginx_path: str,
                                                            redis_url: str) -> None:
    """Lobby changes on Redis too: every process's and the balancer's lobby listeners are
    pushed the public rooms within 3 s (the periodic read set to a minute); and the wrong-code
    limit, counted in Redis, holds across the three processes."""
    run = _balanced(postgres_admin_url, "--processes", "3", "--rooms", "20", "--seed", "20",
                    "--redis", redis_url)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "20/20 matches finished" in run.stdout and "0 problems" in run.stdout


@pytest.mark.postgres
def test_without_addresses_rooms_elsewhere_cannot_be_reached(postgres_admin_url: str,
                                                             nginx_path: str) -> None:
    """The check can fail: a room created on a process other than its code's hash target
    (all but about one in three) cannot be joined or played through the balancer."""
    run = _balanced(postgres_admin_url, "--processes", "3", "--rooms", "10", "--seed", "21",
                    "--no-advertise")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "10/10 matches finished" not in run.stdout and "answered 404" in run.stdout


@pytest.mark.postgres
def test_a_wrong_code_limit_counted_by_each_process_alone_is_caught(postgres_admin_url: str,
                                                                    nginx_path: str,
                                                                    redis_url: str) -> None:
    """The wrong-code check can fail: with each process counting its own (`memory://`), the
    unknown codes that nginx spreads over the three get more than the limit of 404s."""
    run = _balanced(postgres_admin_url, "--processes", "3", "--rooms", "3", "--seed", "22",
                    "--redis", redis_url, "--local-limits")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "3/3 matches finished" in run.stdout and "unknown codes from 127." in run.stdout
