"""Kill -9 under load: no acknowledged action is ever lost, and a resent one is applied once.

    python bench/loadtest/crash.py [--trials 20] [--rooms 8] [--database sqlite|postgres]

Each trial starts `yanniv serve` on a database that outlives it, fills `--rooms` rooms with
four socket clients each (written from docs/PROTOCOL.md: create, join, start, act on every
`state` that asks this seat, one action in flight per seat), lets them play as fast as the
server answers, and kills the server with SIGKILL at a random moment. It then starts a new
server on the same database and checks, for every room:

- every action that was acknowledged before the kill is in the stored log, at the version its
  `ack` carried (read back from the database: the server's word is not taken for it);
- the room comes back at a version no lower than the highest acknowledged one;
- the action each seat had in flight, resent with the same id and version (what the browser
  does after reconnecting, §5.5-5.6), is acknowledged at most once and is in the log at most
  once: if it was written before the kill it gets its old version back, otherwise it is
  played now or refused as stale.

The processes it starts are stopped by their PID. Prints one line per trial and a summary;
exits 1 if anything was lost or applied twice.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parent))
from servers import Postgres, Server, child_env, free_port, stop_pid, wait_ready

POSTGRES = os.environ.get("YANNIV_TEST_POSTGRES_URL",
                          "postgresql+psycopg://postgres@127.0.0.1:5432/test")


@dataclass
class SeatClient:
    code: str
    token: str
    seat: int
    rng: random.Random
    #: id → the version its ack carried.
    acked: dict[str, int] = field(default_factory=dict)
    #: The action in flight: (id, the message sent).
    in_flight: tuple[str, dict[str, Any]] | None = None

    async def play(self, base: str, stop: asyncio.Event) -> None:
        """Act on every state that asks this seat, until the socket dies or `stop`."""
        url = base.replace("http", "ws", 1) + f"/ws/{self.code}?token={self.token}"
        try:
            async with connect(url, max_size=None) as ws:
                while not stop.is_set():
                    message = json.loads(await ws.recv())
                    kind = message["type"]
                    if kind == "ack" and self.in_flight and message["id"] == self.in_flight[0]:
                        self.acked[message["id"]] = message["version"]
                        self.in_flight = None
                    elif kind == "error" and self.in_flight and \
                            message.get("id") == self.in_flight[0]:
                        self.in_flight = None  # refused: not applied (stale, mostly)
                    elif kind == "state" and self.in_flight is None:
                        view = message["view"]
                        pending = view.get("pending")
                        if pending and pending["seat"] == self.seat and view["legal_actions"]:
                            action_id = uuid.uuid4().hex
                            sent = {"type": "action", "id": action_id,
                                    "version": message["version"],
                                    "action": self.rng.choice(view["legal_actions"])}
                            self.in_flight = (action_id, sent)
                            await ws.send(json.dumps(sent))
        except (ConnectionClosed, OSError):
            return

    async def resend(self, base: str) -> tuple[str, dict[str, Any]] | None:
        """After the restart: resend the action in flight, return (id, the answer)."""
        if self.in_flight is None:
            return None
        action_id, sent = self.in_flight
        url = base.replace("http", "ws", 1) + f"/ws/{self.code}?token={self.token}"
        async with connect(url, max_size=None) as ws:
            await ws.send(json.dumps(sent))
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if message["type"] in ("ack", "error") and message.get("id") == action_id:
                    return action_id, message


def start(url: str, workdir: Path) -> Server:
    port = free_port()
    log = workdir / f"serve-{port}.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "yanniv.cli", "serve", "--host", "127.0.0.1",
             "--port", str(port), "--database-url", url],
            stdout=out, stderr=subprocess.STDOUT, env=child_env(), cwd=workdir)
    server = Server("yanniv", port, proc, log)
    try:
        wait_ready(server)
    except BaseException:
        stop_pid(proc)
        raise
    return server


async def open_rooms(base: str, rooms: int, rng: random.Random) -> list[SeatClient]:
    clients: list[SeatClient] = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for n in range(rooms):
            created = (await http.post("/api/rooms", json={"pseudo": f"Crash{n}a"})).json()
            code, host = created["code"], created["token"]
            tokens = [host]
            for letter in "bcd":
                joined = await http.post(f"/api/rooms/{code}/join",
                                         json={"pseudo": f"Crash{n}{letter}"})
                tokens.append(joined.json()["token"])
            clients += [SeatClient(code, t, seat, random.Random(rng.random()))
                        for seat, t in enumerate(tokens)]
            started = await http.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": host})
            assert started.status_code == 200, started.text
    return clients


def stored_log(url: str) -> dict[str, dict[str, int]]:
    """Room code → {client id: version} of every stored action of its latest match."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(text(
                "SELECT m.room_code, a.client_id, a.version FROM room_actions a "
                "JOIN room_matches m ON m.id = a.match_id "
                "WHERE a.client_id IS NOT NULL")).all()
    finally:
        engine.dispose()
    found: dict[str, dict[str, int]] = {}
    for code, client_id, version in rows:
        found.setdefault(code, {})[client_id] = version
    return found


def forget_last_acked(url: str, clients: list[SeatClient]) -> None:
    """Self-test: delete the newest acknowledged action of one room from the log, as a server
    that acknowledged before writing would have lost it; the checks must then see it."""
    client = max((c for c in clients if c.acked), key=lambda c: max(c.acked.values()))
    action_id = max(client.acked, key=client.acked.__getitem__)
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(text("DELETE FROM room_actions WHERE client_id = :i"), {"i": action_id})
            # Its room then comes back one version lower, as it would have (a room's version
            # is the later of its row's and its log's latest row's: lower its row's too, in
            # case that action was the one that wrote it).
            conn.execute(text("UPDATE rooms SET version = version - 1 WHERE code = :c"),
                         {"c": client.code})
    finally:
        engine.dispose()
    # A seat whose action was in flight after it must not resend onto a changed room.
    for other in clients:
        if other.code == client.code:
            other.in_flight = None


async def trial(url: str, workdir: Path, rooms: int, rng: random.Random,
                self_test: bool = False) -> dict[str, Any]:
    server = start(url, workdir)
    try:
        clients = await open_rooms(server.base, rooms, rng)
        stop = asyncio.Event()
        tasks = [asyncio.create_task(c.play(server.base, stop)) for c in clients]
        await asyncio.sleep(rng.uniform(0.5, 3.0))
        os.kill(server.pid, signal.SIGKILL)  # the server we started, by its PID
        server.proc.wait()
        stop.set()
        await asyncio.wait(tasks, timeout=10)
    finally:
        stop_pid(server.proc)
    acked = sum(len(c.acked) for c in clients)
    in_flight = sum(c.in_flight is not None for c in clients)
    if self_test:
        forget_last_acked(url, clients)
    before = stored_log(url)
    lost = [(c.code, i) for c in clients for i, v in c.acked.items()
            if before.get(c.code, {}).get(i) != v]
    server = start(url, workdir)
    try:
        answers = await asyncio.gather(*(c.resend(server.base) for c in clients))
        versions = {}
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            for code in {c.code for c in clients}:
                answer = await http.get(f"/api/rooms/{code}")
                # A room the new server could not bring back counts as behind.
                versions[code] = answer.json()["version"] if answer.status_code == 200 else -1
    finally:
        stop_pid(server.proc)
    after = stored_log(url)
    twice, regressed = [], []
    stored_before_kill = 0
    for client, answer in zip(clients, answers, strict=True):
        if answer is None:
            continue
        action_id, message = answer
        was_stored = action_id in before.get(client.code, {})
        stored_before_kill += was_stored
        if message["type"] == "ack" and was_stored and \
                message["version"] != before[client.code][action_id]:
            twice.append((client.code, action_id))  # acknowledged under a second version
        if was_stored and after[client.code].get(action_id) != before[client.code][action_id]:
            twice.append((client.code, action_id))
    for client in clients:
        highest = max(client.acked.values(), default=0)
        if versions[client.code] < highest:
            regressed.append(client.code)
    return {"acked": acked, "in_flight": in_flight, "lost": lost, "twice": twice,
            "regressed": sorted(set(regressed)),
            "resent": sum(a is not None for a in answers),
            "resent_stored_before": stored_before_kill,
            "resent_acked": sum(a is not None and a[1]["type"] == "ack" for a in answers)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--rooms", type=int, default=8)
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--postgres-url", default=POSTGRES)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--self-test", action="store_true",
                        help="delete one acknowledged action before checking: must be caught")
    ns = parser.parse_args(argv)
    rng = random.Random(ns.seed)
    workdir = Path(tempfile.mkdtemp(prefix="yanniv-crash-"))
    print("start:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    failures = 0
    totals = {"acked": 0, "in_flight": 0, "resent": 0, "resent_acked": 0,
              "resent_stored_before": 0}
    try:
        for n in range(ns.trials):
            postgres = Postgres(ns.postgres_url) if ns.database == "postgres" else None
            if postgres is not None:
                name, url = postgres.create()
            else:
                url = f"sqlite:///{workdir / f'trial{n}.sqlite3'}"
            try:
                started = time.monotonic()
                result = asyncio.run(trial(url, workdir, ns.rooms, rng, ns.self_test))
            finally:
                if postgres is not None:
                    postgres.drop(name)
            bad = result["lost"] or result["twice"] or result["regressed"]
            failures += bool(bad)
            for key in totals:
                totals[key] += result[key]
            print(f"trial {n + 1}: {result['acked']} acked, {result['in_flight']} in flight at "
                  f"the kill, {result['resent_acked']}/{result['resent']} resent acked "
                  f"({result['resent_stored_before']} had been written); lost "
                  f"{len(result['lost'])}, twice {len(result['twice'])}, rooms behind "
                  f"{len(result['regressed'])} ({time.monotonic() - started:.1f} s)"
                  + ("  FAILED " + json.dumps(result) if bad else ""), flush=True)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print("end:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    print(f"{ns.trials} trials on {ns.database}: {totals['acked']} acknowledged actions, "
          f"{totals['in_flight']} in flight at the kills, {totals['resent_acked']} of "
          f"{totals['resent']} resent acknowledged ({totals['resent_stored_before']} had been "
          f"written before the kill); {failures} trials lost or doubled something")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
