"""Processes of a cluster for the load and fault harnesses (`failover.py`, `balanced.py`):
`yanniv serve` processes with `YANNIV_CLUSTER=1` on one database, and nginx in front of them
with the configuration `yanniv balancer-conf` prints. Every process is a child whose PID is
kept; it is stopped by that PID only (`servers.stop_pid`).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from servers import ROOT, Server, child_env, free_port, stop_pid, wait_ready

sys.path.insert(0, str(ROOT))
from yanniv.server.cluster.balancer import nginx_conf

#: The clients all come from 127.0.0.1, and B answers `room_not_found` until it took a room
#: over: the per-address limits are raised as for the server tests.
LIMITS = {"YANNIV_WRONG_CODE_LIMIT": "100000", "YANNIV_CODE_LOOKUP_LIMIT": "100000",
          "YANNIV_FLOOD_RATE": "100000", "YANNIV_FLOOD_BURST": "100000"}


def start(url: str, workdir: Path, lease: float, renew: float, port: int | None = None,
          extra: dict[str, str] | None = None) -> Server:
    """One cluster process on `port` (a free one by default), with `extra` settings."""
    port = port or free_port()
    log = workdir / f"serve-{port}.log"
    env = {**child_env(), **LIMITS, "YANNIV_CLUSTER": "1",
           "YANNIV_LEASE_SECONDS": str(lease), "YANNIV_LEASE_RENEW_SECONDS": str(renew),
           **(extra or {})}
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "yanniv.cli", "serve", "--host", "127.0.0.1",
             "--port", str(port), "--database-url", url],
            stdout=out, stderr=subprocess.STDOUT, env=env, cwd=workdir)
    server = Server("yanniv", port, proc, log)
    try:
        wait_ready(server)
    except BaseException:
        stop_pid(proc)
        raise
    return server


def start_advertised(url: str, workdir: Path, count: int, lease: float, renew: float,
                     advertise: bool = True, more: dict[str, str] | None = None) -> list[Server]:
    """`count` processes, each advertising its address (routing; not with `advertise`
    off) and trusting nginx's `X-Forwarded-For` (127.0.0.1), computer players quick, with
    the settings `more`."""
    servers: list[Server] = []
    try:
        for _ in range(count):
            port = free_port()
            extra = {"YANNIV_TRUSTED_PROXIES": "127.0.0.1", "YANNIV_BOT_DELAY_SCALE": "0.02",
                     **(more or {})}
            if advertise:
                extra["YANNIV_ADVERTISE_URL"] = f"http://127.0.0.1:{port}"
            servers.append(start(url, workdir, lease, renew, port=port, extra=extra))
    except BaseException:
        for server in servers:
            stop_pid(server.proc)
        raise
    return servers


def start_nginx(workdir: Path, upstreams: list[str]) -> tuple[subprocess.Popen[bytes], str]:
    """nginx in the foreground (its PID is ours to stop), config and files under `workdir`."""
    prefix = Path(tempfile.mkdtemp(prefix="nginx-", dir=workdir))
    port = free_port()
    conf = prefix / "nginx.conf"
    conf.write_text(nginx_conf(f"127.0.0.1:{port}", upstreams, prefix))
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    proc = subprocess.Popen([nginx, "-c", str(conf), "-p", str(prefix), "-g", "daemon off;"],
                            stdout=subprocess.DEVNULL, stderr=(prefix / "stderr.log").open("wb"))
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"nginx exited {proc.returncode}; see {prefix}/stderr.log")
        try:
            with urllib.request.urlopen(f"{base}/api/games", timeout=2) as answer:
                if answer.status == 200:
                    return proc, base
        except OSError:
            time.sleep(0.2)
    stop_pid(proc)
    raise RuntimeError("nginx did not answer")


def owners(url: str) -> dict[str, tuple[str, str]]:
    """Room code → (its lease holder, the address it advertised), from the database."""
    import psycopg

    with psycopg.connect(url.replace("+psycopg", "")) as conn:
        rows = conn.execute("SELECT room_code, owner, owner_url FROM room_leases").fetchall()
    return {code: (owner, address) for code, owner, address in rows}
