"""`yanniv balancer-conf` (docs/cluster.md, routing): nginx accepts the configuration it
prints, which hashes on the room code and holds the internal forward location the processes'
`X-Accel-Redirect` names."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from yanniv.server.cluster.balancer import nginx_conf

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


def test_with_a_resolver_the_upstreams_are_followed_at_run_time(tmp_path: Path) -> None:
    printed = subprocess.run(
        [sys.executable, "-m", "yanniv.cli", "balancer-conf", "--upstream", "app:8000",
         "--resolver", "10.9.8.7:5353", "--error-log", "stderr", "--prefix", str(tmp_path)],
        capture_output=True, text=True, check=True, cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}).stdout
    assert "    resolver 10.9.8.7:5353 valid=5s ipv6=off;" in printed
    # nginx refuses `resolve` outside a shared-memory zone.
    upstream = printed[printed.index("upstream yanniv {"):printed.index("server {")]
    assert "zone yanniv " in upstream
    assert "server app:8000 resolve max_fails=1 fail_timeout=2s;" in upstream
    assert "error_log stderr warn;" in printed


def test_the_command_needs_an_upstream_or_the_compose_preset() -> None:
    done = subprocess.run([sys.executable, "-m", "yanniv.cli", "balancer-conf"],
                          capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 2 and "--upstream" in done.stderr
