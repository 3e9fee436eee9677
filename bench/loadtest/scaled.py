"""docker-compose.yml's scaling, without Docker: nginx follows the replicas behind one name.

    python bench/loadtest/scaled.py --nginx /path/to/nginx   (nginx >= 1.27.3)

What `docker compose up --scale app=N` relies on, played on one machine: replicas of
`yanniv serve` on distinct loopback addresses (127.0.0.2, .3, …, one port for all, as
containers have one IP each), `YANNIV_CLUSTER=1` and `YANNIV_ADVERTISE_URL=auto` on one fresh
PostgreSQL database; a stand-in for Docker's embedded DNS (a small UDP server answering the
name `app` with the replicas' current addresses, TTL 1 s); nginx with the configuration
`yanniv balancer-conf --resolver` generates (the compose variant's, with this DNS's address
and free ports). nginx is never reloaded. Phases:

1. two replicas: rooms created through nginx land on both;
2. a third replica appears in the DNS: how long until rooms land on it;
3. the first replica stops (SIGTERM, its rooms handed over) and leaves the DNS: how long
   until every room answers through nginx again, and what nginx answered meanwhile;
4. a replica "restarts" with a new address (127.0.0.5): rooms land on it.

`--static` lists the first two replicas' addresses instead (what nginx < 1.27.3 allows):
phases 2 and 4 must then fail (the check can fail). Prints one line per phase; exits 1 on any
failure. Every process is stopped by its PID.
"""

from __future__ import annotations

import argparse
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cluster import LIMITS, owners
from crash import POSTGRES
from servers import ROOT, Postgres, Server, child_env, free_port, stop_pid, wait_ready

sys.path.insert(0, str(ROOT))
from yanniv.server.cluster.balancer import RESOLVE_VALID, nginx_conf


class StandInDns:
    """Answers A queries for `name` with `addresses` (changed while it runs), TTL 1 s;
    any other name: NXDOMAIN. What Docker's 127.0.0.11 does for a scaled service."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.addresses: list[str] = []
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.port = int(self.sock.getsockname()[1])
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                query, peer = self.sock.recvfrom(512)
            except OSError:
                return
            self.sock.sendto(self._answer(query), peer)

    def _answer(self, query: bytes) -> bytes:
        labels, at = [], 12
        while query[at]:
            labels.append(query[at + 1:at + 1 + query[at]].decode().lower())
            at += 1 + query[at]
        qtype = struct.unpack("!H", query[at + 1:at + 3])[0]
        question = query[12:at + 5]
        known = ".".join(labels) == self.name
        records = list(self.addresses) if known and qtype == 1 else []
        flags = 0x8180 if known else 0x8183
        header = query[:2] + struct.pack("!HHHHH", flags, 1, len(records), 0, 0)
        answers = b"".join(struct.pack("!HHHIH", 0xC00C, 1, 1, 1, 4) + socket.inet_aton(ip)
                           for ip in records)
        return header + question + answers

    def close(self) -> None:
        self.sock.close()


@dataclass
class Replica(Server):
    host: str = "127.0.0.1"

    @property
    def base(self) -> str:
        return f"http://{self.host}:{self.port}"


def start_replica(host: str, port: int, url: str, workdir: Path) -> Replica:
    """`yanniv serve` as docker-compose.yml's `app` runs it, on `host`."""
    log = workdir / f"serve-{host}.log"
    env = {**child_env(), **LIMITS, "YANNIV_CLUSTER": "1", "YANNIV_ADVERTISE_URL": "auto",
           "YANNIV_TRUSTED_PROXIES": "127.0.0.1", "DATABASE_URL": url}
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "yanniv.cli", "serve", "--host", host,
                                 "--port", str(port)],
                                stdout=out, stderr=subprocess.STDOUT, env=env, cwd=workdir)
    replica = Replica("yanniv", port, proc, log, host=host)
    try:
        wait_ready(replica)
    except BaseException:
        stop_pid(proc)
        raise
    return replica


def start_nginx(nginx: str, workdir: Path, dns: StandInDns, app_port: int,
                static: bool) -> tuple[subprocess.Popen[bytes], str]:
    prefix = Path(tempfile.mkdtemp(prefix="nginx-", dir=workdir))
    port = free_port()
    conf = prefix / "nginx.conf"
    if static:
        conf.write_text(nginx_conf(f"127.0.0.1:{port}",
                                   [f"{host}:{app_port}" for host in dns.addresses], prefix))
    else:
        conf.write_text(nginx_conf(f"127.0.0.1:{port}", [f"app:{app_port}"], prefix,
                                   resolver=f"127.0.0.1:{dns.port}"))
    proc = subprocess.Popen([nginx, "-c", str(conf), "-p", str(prefix), "-g", "daemon off;"],
                            stdout=subprocess.DEVNULL, stderr=(prefix / "stderr.log").open("wb"))
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"nginx exited {proc.returncode}; see {prefix}/stderr.log")
        try:
            if httpx.get(f"{base}/api/games", timeout=2).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    stop_pid(proc)
    raise RuntimeError("nginx did not answer")


def create_until(http: httpx.Client, url: str, address: str, timeout: float,
                 batch: int = 4) -> tuple[float | None, list[str]]:
    """Create rooms through nginx until one is owned by `address`: (seconds, codes made)."""
    started, codes = time.monotonic(), []
    while time.monotonic() - started < timeout:
        for _ in range(batch):
            answer = http.post("/api/rooms", json={"pseudo": f"Hote{len(codes)}"})
            answer.raise_for_status()
            codes.append(answer.json()["code"])
        held = owners(url)
        if any(held[code][1] == address for code in codes):
            return time.monotonic() - started, codes
        time.sleep(0.25)
    return None, codes


def all_answer(http: httpx.Client, codes: list[str], timeout: float) -> tuple[float | None,
                                                                              Counter[int]]:
    """Ask nginx about every room until all answer 200: (seconds, statuses seen meanwhile)."""
    started, seen = time.monotonic(), Counter[int]()
    while time.monotonic() - started < timeout:
        statuses = [http.get(f"/api/rooms/{code}").status_code for code in codes]
        seen.update(statuses)
        if all(status == 200 for status in statuses):
            return time.monotonic() - started, seen
        time.sleep(0.1)
    return None, seen


def scenario(nginx: str, url: str, workdir: Path, static: bool) -> list[str]:
    problems: list[str] = []
    port = free_port()
    dns = StandInDns("app")
    replicas: dict[str, Replica] = {}
    proxy = None
    try:
        for host in ("127.0.0.2", "127.0.0.3"):
            replicas[host] = start_replica(host, port, url, workdir)
        dns.addresses = list(replicas)
        proxy, base = start_nginx(nginx, workdir, dns, port, static)
        with httpx.Client(base_url=base, timeout=10) as http:
            codes = [http.post("/api/rooms", json={"pseudo": f"Hote{n}"}).json()["code"]
                     for n in range(12)]
            spread = Counter(owners(url)[code][1] for code in codes)
            print(f"1. two replicas: 12 rooms created through nginx, owners {dict(spread)}")
            if len(spread) < 2:
                problems.append(f"phase 1: rooms on one replica only: {dict(spread)}")

            replicas["127.0.0.4"] = start_replica("127.0.0.4", port, url, workdir)
            dns.addresses = list(replicas)
            took, made = create_until(http, url, replicas["127.0.0.4"].base, 30.0)
            codes += made
            print(f"2. third replica in the DNS: first room on it after "
                  f"{'never' if took is None else f'{took:.1f} s'} ({len(made)} rooms made; "
                  f"nginx re-resolves every {RESOLVE_VALID})")
            if took is None:
                problems.append("phase 2: nginx never sent anything to the new replica")

            gone = replicas.pop("127.0.0.2")
            dns.addresses = list(replicas)
            stop_pid(gone.proc)
            took, seen = all_answer(http, codes, 30.0)
            print(f"3. first replica stopped and out of the DNS: all {len(codes)} rooms answer "
                  f"through nginx after {'never' if took is None else f'{took:.1f} s'}; "
                  f"answers meanwhile {dict(sorted(seen.items()))}")
            if took is None:
                problems.append(f"phase 3: rooms still not answering: {dict(seen)}")

            replicas["127.0.0.5"] = start_replica("127.0.0.5", port, url, workdir)
            dns.addresses = list(replicas)
            took, made = create_until(http, url, replicas["127.0.0.5"].base, 30.0)
            codes += made
            took_all, _ = all_answer(http, codes, 30.0)
            print(f"4. a replica back at a new address: first room on it after "
                  f"{'never' if took is None else f'{took:.1f} s'}; all {len(codes)} rooms "
                  f"answer: {took_all is not None}")
            if took is None or took_all is None:
                problems.append("phase 4: the new address was not followed")
        if proxy.poll() is not None:
            problems.append("nginx exited")
    finally:
        if proxy is not None:
            stop_pid(proxy)
        for replica in replicas.values():
            stop_pid(replica.proc)
        dns.close()
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nginx", default=shutil.which("nginx") or "/usr/sbin/nginx",
                        help="an nginx >= 1.27.3 (upstream servers with `resolve`)")
    parser.add_argument("--postgres-url", default=POSTGRES)
    parser.add_argument("--static", action="store_true",
                        help="the first replicas' addresses, not the name: the run must fail")
    ns = parser.parse_args(argv)
    said = subprocess.run([ns.nginx, "-v"], capture_output=True, text=True).stderr
    version = tuple(int(n) for n in said.split("/")[-1].strip().split(".")[:3])
    if version < (1, 27, 3) and not ns.static:
        print(f"{said.strip()}: upstream servers take `resolve` from nginx 1.27.3 on")
        return 2
    workdir = Path(tempfile.mkdtemp(prefix="yanniv-scaled-"))
    postgres = Postgres(ns.postgres_url)
    name, url = postgres.create()
    try:
        problems = scenario(ns.nginx, url, workdir, ns.static)
    finally:
        postgres.drop(name)
    if problems:
        print(f"logs kept in {workdir}")
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"{len(problems)} problems" + "".join(f"\n  {p}" for p in problems))
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
