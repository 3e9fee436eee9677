"""The processes a load step needs: a server under test (Yanniv on SQLite or PostgreSQL, or a
bare peer) on a free 127.0.0.1 port, and the generator, niced and pinned.

Everything started here is a child process whose PID is kept; it is stopped by that PID only
(SIGTERM, then SIGKILL after a grace period). A PostgreSQL step gets a fresh database, dropped
afterwards; its backends' CPU is read from /proc, since the server's own /proc figures do not
include the database's work.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
GENERATOR = HERE / "generator.mjs"
#: V8 flags for the generator, which is pinned to one CPU and niced. With V8's default
#: (parallel) collector, its own 5 ms timer fired 30-79 ms late in 1-5 seconds of each 20 s
#: window at 2,000 rooms (the timeline's `generator_late_max`), and every server's latencies
#: carried it; collected on one thread, 10-32 ms late at most, in 0-1 seconds of a window
#: (OPERATIONS, « The generator's collections, on one thread »).
GENERATOR_V8_FLAGS = ("--single-threaded-gc",)
NODE_PEER = HERE / "peer.mjs"
PYTHON_PEER = HERE / "peer.py"
CLK_TCK = os.sysconf("SC_CLK_TCK")
KINDS = ("yanniv-sqlite", "yanniv-postgres", "node-peer", "python-peer")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process (all its threads), in seconds."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def child_env() -> dict[str, str]:
    """The environment of a Python child: this checkout's `yanniv` first on the path."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    env["PYTHONUNBUFFERED"] = "1"
    return env


@dataclass
class Server:
    """A server process under test and what must be undone when it stops."""

    kind: str
    port: int
    proc: subprocess.Popen[bytes]
    log: Path
    database: str | None = None
    cleanups: list[Callable[[], None]] = field(default_factory=list)

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def wait_ready(server: Server, timeout: float = 90.0) -> None:
    """Until GET /api/games answers 200 (Yanniv and both peers answer it)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            raise RuntimeError(f"{server.kind} exited {server.proc.returncode}; see {server.log}")
        with contextlib.suppress(OSError), \
                urllib.request.urlopen(f"{server.base}/api/games", timeout=2) as answer:
            if answer.status == 200:
                return
        time.sleep(0.2)
    raise RuntimeError(f"{server.kind} not ready after {timeout:.0f} s; see {server.log}")


class Postgres:
    """Fresh databases on the PostgreSQL server (`admin_url` names one it may connect to)."""

    def __init__(self, admin_url: str) -> None:
        self.admin_url = admin_url  # SQLAlchemy form: postgresql+psycopg://user@host:port/db
        self.conninfo = admin_url.replace("+psycopg", "")

    def _admin(self) -> Any:
        import psycopg

        return psycopg.connect(self.conninfo, autocommit=True)

    def create(self) -> tuple[str, str]:
        name = f"yanniv_load_{uuid.uuid4().hex[:12]}"
        with self._admin() as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return name, self.admin_url.rsplit("/", 1)[0] + "/" + name

    def drop(self, name: str) -> None:
        with self._admin() as conn:
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                         "WHERE datname = %s AND pid <> pg_backend_pid()", (name,))
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')

    def backend_cpu(self, name: str) -> dict[int, float]:
        """CPU seconds so far of every backend connected to database `name`."""
        with self._admin() as conn:
            pids = [row[0] for row in conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s", (name,))]
        found = {}
        for pid in pids:
            with contextlib.suppress(OSError, ValueError):
                found[pid] = cpu_seconds(pid)
        return found


#: How a Yanniv kind is launched, before `--host … --port … --database-url …`.
YANNIV_SERVE = (sys.executable, "-m", "yanniv.cli", "serve")


def start_server(kind: str, workdir: Path, sizes: Path | None, deflate: bool,
                 postgres: Postgres | None, serve: tuple[str, ...] = YANNIV_SERVE) -> Server:
    """Start `kind` on a free port, in `workdir`; a Yanniv kind through `serve` (another
    launcher taking `yanniv serve`'s arguments: `parts.py`'s timed server)."""
    port = free_port()
    log = workdir / f"{kind}-{port}.log"
    cleanups: list[Callable[[], None]] = []
    database = None
    if kind.startswith("yanniv"):
        if kind == "yanniv-postgres":
            if postgres is None:
                raise RuntimeError("yanniv-postgres needs --postgres-url")
            database, url = postgres.create()
            cleanups.append(lambda: postgres.drop(database))
        else:
            folder = workdir / f"sqlite-{port}"
            folder.mkdir()
            url = f"sqlite:///{folder / 'yanniv.sqlite3'}"
            cleanups.append(lambda: shutil.rmtree(folder, ignore_errors=True))
        command = [*serve, "--host", "127.0.0.1", "--port", str(port), "--database-url", url]
    elif kind == "node-peer":
        command = ["node", str(NODE_PEER), "--port", str(port), "--sizes", str(sizes)]
        command += ["--deflate"] if deflate else []
    elif kind == "python-peer":
        command = [sys.executable, str(PYTHON_PEER), "--port", str(port), "--sizes", str(sizes)]
    else:
        raise ValueError(f"unknown server kind {kind!r}; one of {', '.join(KINDS)}")
    with log.open("wb") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=child_env(),
                                cwd=workdir)
    server = Server(kind, port, proc, log, database, cleanups)
    try:
        wait_ready(server)
    except BaseException:
        stop_server(server)
        raise
    return server


def stop_pid(proc: subprocess.Popen[bytes], grace: float = 15.0) -> None:
    """Stop one child we started, by its PID: SIGTERM, then SIGKILL after `grace` seconds."""
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGTERM)
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()


def stop_server(server: Server) -> None:
    try:
        stop_pid(server.proc)
    finally:
        for cleanup in server.cleanups:
            with contextlib.suppress(Exception):
                cleanup()


@dataclass
class GeneratorOptions:
    rooms: int
    duration: float
    warmup: float
    rate: float = 1.0
    manches: int | None = None
    deflate: bool = False
    match_end: bool = False
    match_end_timeout: float = 900.0
    #: Actions per room per second while matches are played to their end (None: `rate`;
    #: 0: as fast as the views come back, which measures a saturated server's high water).
    match_end_rate: float | None = None
    seed: int = 1
    nice: int = 10
    cpu: str | None = None
    #: Each seat also sends a page's own `ping` message after 2.5 s without sending.
    client_pings: bool = False


def generator_command(server: Server, options: GeneratorOptions,
                      sizes_out: Path | None) -> list[str]:
    command = ["nice", "-n", str(options.nice)] if options.nice else []
    if options.cpu is not None and shutil.which("taskset"):
        command += ["taskset", "-c", options.cpu]
    command += ["node", *GENERATOR_V8_FLAGS, str(GENERATOR), "--base", server.base,
                "--rooms", str(options.rooms), "--duration", str(options.duration),
                "--warmup", str(options.warmup),
                "--rate", str(options.rate), "--server-pid", str(server.pid),
                "--clk-tck", str(CLK_TCK), "--seed", str(options.seed),
                "--match-end-timeout", str(options.match_end_timeout)]
    if options.manches:
        command += ["--manches", str(options.manches)]
    if options.deflate:
        command.append("--deflate")
    if options.client_pings:
        command.append("--client-pings")
    if options.match_end:
        command.append("--match-end")
        if options.match_end_rate is not None:
            command += ["--match-end-rate", str(options.match_end_rate)]
    if sizes_out:
        command += ["--sizes-out", str(sizes_out)]
    return command


def run_generator(server: Server, options: GeneratorOptions, workdir: Path,
                  sizes_out: Path | None,
                  on_event: Callable[[str], None] = lambda _e: None) -> dict[str, Any]:
    """Run the generator against `server`; `on_event` hears "window-start" and "window-end"
    as they happen. Returns the generator's result, or raises with its last words."""
    log = workdir / f"generator-{server.kind}-{options.rooms}.log"
    limit = 300 + options.rooms * 0.2 + options.warmup + options.duration
    limit += options.match_end_timeout if options.match_end else 0
    result: dict[str, Any] | None = None
    with log.open("wb") as errors:
        proc = subprocess.Popen(generator_command(server, options, sizes_out),
                                stdout=subprocess.PIPE, stderr=errors, cwd=ROOT)
        watchdog = threading.Timer(limit, stop_pid, (proc, 5))
        watchdog.start()
        try:
            assert proc.stdout is not None
            for raw in proc.stdout:
                line = json.loads(raw)
                event = line.get("event")
                if event in ("window-start", "window-end"):
                    on_event(event)
                elif event == "result":
                    result = line
                elif event == "fatal":
                    raise RuntimeError(f"generator failed: {line['message']}")
            proc.wait()
        finally:
            watchdog.cancel()
            stop_pid(proc, grace=5)
    if result is None:
        raise RuntimeError(f"generator exited {proc.returncode} without a result "
                           f"(stopped after {limit:.0f} s?); see {log}")
    return result


@contextlib.contextmanager
def running(kind: str, workdir: Path, sizes: Path | None, deflate: bool,
            postgres: Postgres | None,
            serve: tuple[str, ...] = YANNIV_SERVE) -> Iterator[Server]:
    server = start_server(kind, workdir, sizes, deflate, postgres, serve)
    try:
        yield server
    finally:
        stop_server(server)
