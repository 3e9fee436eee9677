"""Kill -9 the process that serves the rooms: another process of the cluster takes them over.

    python bench/loadtest/failover.py [--trials 10] [--rooms 4] [--within 10] [--balanced 3]

Each trial starts two `yanniv serve` processes in a cluster (`YANNIV_CLUSTER=1`) on one fresh
PostgreSQL database. The rooms are created on A (so A holds their leases), four socket clients
each (`crash.SeatClient`, written from docs/PROTOCOL.md) play as fast as A answers, and at a
random moment A is killed with SIGKILL. Then, for every room:

- how long until B serves it (its summary answers on B), from the kill: A's lease has to run
  out (`YANNIV_LEASE_SECONDS`) and B to claim it at a renewal and replay the log;
- every action acknowledged before the kill is in the stored log at the version its `ack`
  carried (read from the database);
- the action each seat had in flight, resent to B with its id, is acknowledged at most once;
- the match then plays on B to its end.

With `--balanced N` the trial runs through nginx instead (docs/cluster.md, routing): N
processes advertising their addresses, the rooms created through nginx (so spread over the
processes), the process holding the most rooms killed, and every request after the kill —
the watch, the resends, the sockets of the rest of the match — sent to nginx, which must bring
each room's clients to its new owner by itself. Without it the clients are pointed at B by
hand. The processes it starts (nginx included) are stopped by their PID. Prints one line per
trial and the worst recovery time; exits 1 if anything was lost or doubled, a room did not
come back within `--within` seconds, or a match did not finish.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cluster import owners, start, start_advertised, start_nginx
from crash import POSTGRES, SeatClient, stored_log
from servers import Postgres, Server, stop_pid


async def open_rooms(base: str, rooms: int, rng: random.Random) -> list[SeatClient]:
    """`rooms` started rooms of one manche (so a match ends within the trial), four seats."""
    clients: list[SeatClient] = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for n in range(rooms):
            created = (await http.post("/api/rooms", json={"pseudo": f"Panne{n}a"})).json()
            code, host = created["code"], created["token"]
            tokens = [host]
            for letter in "bcd":
                joined = await http.post(f"/api/rooms/{code}/join",
                                         json={"pseudo": f"Panne{n}{letter}"})
                tokens.append(joined.json()["token"])
            seat = {"X-Seat-Token": host}
            patched = await http.patch(f"/api/rooms/{code}/settings", json={"manches": 1},
                                       headers=seat)
            assert patched.status_code == 200, patched.text
            started = await http.post(f"/api/rooms/{code}/start", headers=seat)
            assert started.status_code == 200, started.text
            clients += [SeatClient(code, t, s, random.Random(rng.random()))
                        for s, t in enumerate(tokens)]
    return clients


async def back_on(base: str, clients: list[SeatClient], killed_at: float,
                  within: float) -> dict[str, float]:
    """Room code → seconds from the kill until `base` serves it (absent: not in time)."""
    tokens = {c.code: c.token for c in clients}
    back: dict[str, float] = {}
    async with httpx.AsyncClient(base_url=base, timeout=5) as http:
        while len(back) < len(tokens) and time.monotonic() - killed_at < within:
            for code, token in tokens.items():
                if code not in back:
                    answer = await http.get(f"/api/rooms/{code}",
                                            headers={"X-Seat-Token": token})
                    if answer.status_code == 200:
                        back[code] = time.monotonic() - killed_at
            await asyncio.sleep(0.05)
    return back


async def finish(base: str, clients: list[SeatClient], timeout: float) -> set[str]:
    """Play every room on `base` to its end; the codes of the rooms that finished."""
    stop = asyncio.Event()
    tasks = [asyncio.create_task(c.play(base, stop)) for c in clients]
    finished: set[str] = set()
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient(base_url=base, timeout=5) as http:
        while time.monotonic() < deadline and len(finished) < len({c.code for c in clients}):
            for client in clients:
                if client.seat == 0 and client.code not in finished:
                    summary = await http.get(f"/api/rooms/{client.code}",
                                             headers={"X-Seat-Token": client.token})
                    if summary.status_code == 200 and summary.json()["status"] == "finished":
                        finished.add(client.code)
            await asyncio.sleep(0.1)
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return finished


async def trial(url: str, workdir: Path, rooms: int, rng: random.Random, lease: float,
                renew: float, within: float, balanced: int = 0) -> dict[str, Any]:
    """One kill. Without `balanced`: rooms created on A, clients on A then pointed at B by
    hand. With `balanced` processes: everything goes through nginx (rooms spread over the
    processes by their creation), the process holding the most rooms is killed, and the
    clients reconnect through nginx, which must bring them to the new owner by itself."""
    servers: list[Server] = []
    nginx = None
    try:
        if balanced:
            servers = start_advertised(url, workdir, balanced, lease, renew)
            nginx, base = start_nginx(workdir, [f"127.0.0.1:{s.port}" for s in servers])
        else:
            servers = [start(url, workdir, lease, renew), start(url, workdir, lease, renew)]
            base = servers[0].base
        clients = await open_rooms(base, rooms, rng)
        if balanced:
            held = [address for _, address in owners(url).values()]
            a = max(servers, key=lambda s: held.count(s.base))
            reach = base
        else:
            a, reach = servers[0], servers[1].base
        stop = asyncio.Event()
        tasks = [asyncio.create_task(c.play(base, stop)) for c in clients]
        await asyncio.sleep(rng.uniform(0.5, 3.0))
        os.kill(a.pid, signal.SIGKILL)  # the process we started, by its PID
        killed_at = time.monotonic()
        watching = asyncio.create_task(back_on(reach, clients, killed_at, within))
        a.proc.wait()
        stop.set()
        await asyncio.wait(tasks, timeout=10)
        acked = sum(len(c.acked) for c in clients)
        before = await asyncio.to_thread(stored_log, url)  # B is watched meanwhile
        lost = [(c.code, i) for c in clients for i, v in c.acked.items()
                if before.get(c.code, {}).get(i) != v]
        back = await watching
        resending = [c for c in clients if c.code in back]
        answers = await asyncio.gather(*(c.resend(reach) for c in resending))
        for client in clients:
            client.in_flight = None  # answered by the resend (or its room is not back)
        finished = await finish(reach, [c for c in clients if c.code in back], 120.0)
    finally:
        if nginx is not None:
            stop_pid(nginx)
        for server in servers:
            stop_pid(server.proc)
    after = stored_log(url)
    # An acknowledged action stored under another version afterwards; a resent one that had
    # been written before the kill acknowledged or stored under a second version.
    twice = [(c.code, i) for c in clients for i, v in c.acked.items()
             if after.get(c.code, {}).get(i) != v]
    for client, answer in zip(resending, answers, strict=True):
        if answer is None:
            continue
        action_id, message = answer
        stored = before.get(client.code, {}).get(action_id)
        if stored is not None and (after[client.code].get(action_id) != stored or (
                message["type"] == "ack" and message["version"] != stored)):
            twice.append((client.code, action_id))
    return {"acked": acked, "lost": lost, "twice": twice,
            "back": back, "missing": sorted({c.code for c in clients} - set(back)),
            "unfinished": sorted(set(back) - finished)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=10)
    parser.add_argument("--rooms", type=int, default=4)
    parser.add_argument("--postgres-url", default=POSTGRES)
    parser.add_argument("--lease", type=float, default=5.0, help="YANNIV_LEASE_SECONDS")
    parser.add_argument("--renew", type=float, default=1.5, help="YANNIV_LEASE_RENEW_SECONDS")
    parser.add_argument("--within", type=float, default=10.0,
                        help="seconds a room may take to come back after the kill")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--balanced", type=int, default=0, metavar="N",
                        help="N processes behind nginx, everything through it (0: A and B)")
    ns = parser.parse_args(argv)
    rng = random.Random(ns.seed)
    workdir = Path(tempfile.mkdtemp(prefix="yanniv-failover-"))
    print("start:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    failures, worst, acked = 0, 0.0, 0
    postgres = Postgres(ns.postgres_url)
    try:
        for n in range(ns.trials):
            name, url = postgres.create()
            try:
                result = asyncio.run(trial(url, workdir, ns.rooms, rng, ns.lease, ns.renew,
                                           ns.within, ns.balanced))
            finally:
                postgres.drop(name)
            bad = (result["lost"] or result["twice"] or result["missing"]
                   or result["unfinished"])
            failures += bool(bad)
            acked += result["acked"]
            slowest = max(result["back"].values(), default=0.0)
            worst = max(worst, slowest)
            print(f"trial {n + 1}: {result['acked']} acked before the kill, lost "
                  f"{len(result['lost'])}, twice {len(result['twice'])}; "
                  f"{len(result['back'])}/{ns.rooms} rooms back, slowest {slowest:.2f} s; "
                  f"{ns.rooms - len(result['unfinished']) - len(result['missing'])} finished"
                  + (f"  FAILED {result}" if bad else ""), flush=True)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print("end:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    print(f"{ns.trials} trials: {acked} acknowledged actions before the kills; worst recovery "
          f"{worst:.2f} s (lease {ns.lease:g} s, renewal every {ns.renew:g} s"
          + (f", {ns.balanced} processes behind nginx" if ns.balanced else "") + "); "
          f"{failures} trials failed")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
