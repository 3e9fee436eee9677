"""`yanniv balancer-conf` (docs/cluster.md, routing): nginx accepts the configuration it
prints, which hashes on the room code and holds the internal forward location the processes'
`X-Accel-Redirect` names."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from yanniv.server.balancer import nginx_conf

ROOT = Path(__file__).resolve().parents[2]


def test_the_printed_configuration_is_valid_nginx(tmp_path: Path, nginx_path: str) -> None:
    printed = subprocess.run(
        [sys.executable, "-m", "yanniv.cli", "balancer-conf", "--listen", "127.0.0.1:18080",
         "--upstream", "127.0.0.1:18001", "--upstream", "127.0.0.1:18002",
         "--prefix", str(tmp_path), "--workers", "2"],
        capture_output=True, text=True, check=True, cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    conf = tmp_path / "nginx.conf"
    conf.write_text(printed.stdout)
    checked = subprocess.run([nginx_path, "-t", "-c", str(conf), "-p", str(tmp_path)],
                             capture_output=True, text=True, check=False)
    assert checked.returncode == 0, checked.stderr
    assert "hash $room_code consistent;" in printed.stdout
    assert "/ws/lobby $request_id;" in printed.stdout  # home pages spread, not on one process
    assert "server 127.0.0.1:18002 max_fails=1 fail_timeout=2s;" in printed.stdout
    assert "location ~ ^/_yanniv_owner/([A-Z]+)/([^/]+)(/.*)$" in printed.stdout
    assert "worker_processes 2;" in printed.stdout


def test_a_balancer_needs_an_upstream(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        nginx_conf("127.0.0.1:80", [], tmp_path)
