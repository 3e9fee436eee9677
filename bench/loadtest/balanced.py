"""Several `yanniv serve` processes behind nginx: every room reaches its owner (issue 20).

    python bench/loadtest/balanced.py [--processes 3] [--rooms 20] [--no-advertise]
                                        [--redis redis://127.0.0.1:6379]

Starts `--processes` processes in a cluster (`YANNIV_CLUSTER=1`) on one fresh PostgreSQL
database, each advertising its address (`YANNIV_ADVERTISE_URL`), and nginx in front with the
configuration `yanniv balancer-conf` prints (generated into a temporary directory, listening
on a free 127.0.0.1 port). Through the balancer only, for each room: create it (lands on any
process), join a second person, seat two computer players, one manche, start; then two
socket clients per room (`crash.SeatClient`) play every match to its end. Checks:

- the rooms are spread over several processes (read from `room_leases`);
- asked directly, a process that does not serve a room answers `307` naming its owner;
- four public rooms opened through the balancer, their hosts connected, are listed by every
  process asked directly (`/api/rooms/public`, read from the database in a cluster), and
  pushed to home-page listeners (`/ws/lobby`) on every process and through the balancer; with
  `--redis URL` (lobby changes on Redis pub/sub, the periodic read set to a minute) each
  listener must have them within 3 s of the last host connecting: only the push can do that;
- every match finished (its summary, through the balancer, says `finished`);
- at the end the public list is the same from every process (empty: the hosts left);
- with `--redis`, the wrong-code limit (set to `WRONG_CODE_LIMIT`, counted in Redis) counts
  across processes: from one fresh client address, three times the limit of unknown codes
  through the balancer, which sends each to the process its code hashes to, get exactly the
  limit of `404`s, then `429` (a process counting alone would let up to three times as many
  through; `--local-limits` makes them do so, and the run must fail).

`--no-advertise` starts the processes without an address: a request reaching the wrong
process then cannot be sent on, and the run must fail (the check can fail). Every process
started here is stopped by its PID. Prints one summary line; exits 1 on any failure.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import secrets
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cluster import owners, start_advertised, start_nginx
from crash import POSTGRES, SeatClient
from failover import finish
from servers import Postgres, Server, stop_pid


async def open_room(http: httpx.AsyncClient, n: int, rng: random.Random) -> list[SeatClient]:
    """One started room of one manche: two people (the clients) and two computer players."""
    created = await http.post("/api/rooms", json={"pseudo": f"Hote{n}"})
    created.raise_for_status()
    code, host = created.json()["code"], created.json()["token"]
    joined = await http.post(f"/api/rooms/{code}/join", json={"pseudo": f"Invite{n}"})
    joined.raise_for_status()
    seat = {"X-Seat-Token": host}
    for _ in range(2):
        (await http.post(f"/api/rooms/{code}/bots", json={"level": "facile"},
                         headers=seat)).raise_for_status()
    (await http.patch(f"/api/rooms/{code}/settings", json={"manches": 1},
                      headers=seat)).raise_for_status()
    (await http.post(f"/api/rooms/{code}/start", headers=seat)).raise_for_status()
    return [SeatClient(code, host, 0, random.Random(rng.random())),
            SeatClient(code, joined.json()["token"], 1, random.Random(rng.random()))]


async def listed_everywhere(servers: list[Server], base: str, rooms: int,
                            within: float) -> str | None:
    """Open `rooms` public rooms through the balancer, their hosts connected: every process,
    asked directly, must list exactly them (within a few renewals), and every lobby listener
    (one on each process, two through the balancer) must have been pushed them within
    `within` seconds of the last host connecting. None, or the problem."""
    codes: list[str] = []
    ws_base = base.replace("http", "ws", 1)
    async with contextlib.AsyncExitStack() as stack, \
            httpx.AsyncClient(base_url=base, timeout=30) as http:
        listeners = [await stack.enter_async_context(connect(f"{url}/ws/lobby")) for url in
                     [s.base.replace("http", "ws", 1) for s in servers] + [ws_base] * 2]
        for n in range(rooms):
            created = (await http.post("/api/rooms", json={"pseudo": f"Public{n}",
                                                            "public": True})).json()
            codes.append(created["code"])
            ws = await stack.enter_async_context(connect(
                f"{ws_base}/ws/{created['code']}?token={created['token']}"))
            await ws.recv()
        connected = time.monotonic()
        late = [n for n, ok in enumerate(await asyncio.gather(
            *(_pushed(ws, sorted(codes), connected + within) for ws in listeners))) if not ok]
        if late:
            return f"lobby listeners {late} were not pushed {sorted(codes)} within {within} s"
        lists: list[list[str]] = []
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            lists = await public_lists(servers)
            if all(listed == sorted(codes) for listed in lists):
                return None
            await asyncio.sleep(0.2)
    return f"public lists {lists}, expected {sorted(codes)} from each"


async def _pushed(ws: Any, codes: list[str], deadline: float) -> bool:
    """Whether `ws` received a `rooms` message listing exactly `codes` before `deadline`."""
    while True:
        try:
            raw = await asyncio.wait_for(ws.recv(), max(0.01, deadline - time.monotonic()))
        except TimeoutError:
            return False
        message = json.loads(raw)
        if message["type"] == "rooms" and sorted(r["code"] for r in message["rooms"]) == codes:
            return True


#: Unknown room codes one client address may try within the window (`--redis` runs only).
WRONG_CODE_LIMIT = 6
#: Room codes, as docs/PROTOCOL.md gives them: 6 characters of this alphabet.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


async def wrong_codes_counted_together(base: str, known: set[str]) -> str | None:
    """A problem, or None if unknown codes sent through the balancer from one fresh address
    got exactly `WRONG_CODE_LIMIT` answers of 404 and then only 429. The address is a random
    one of 127.0.0.0/8 (nginx names it to the processes; Redis keeps counts for the window, so
    a fixed address would start a second run already limited)."""
    a, b, c = (secrets.randbelow(254) + 1 for _ in range(3))
    address = f"127.{a}.{b}.{c}"
    codes: list[str] = []
    while len(codes) < 3 * WRONG_CODE_LIMIT:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
        if code not in known and code not in codes:
            codes.append(code)
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=base, timeout=10, transport=transport) as http:
        statuses = [(await http.get(f"/api/rooms/{code}")).status_code for code in codes]
    wanted = [404] * WRONG_CODE_LIMIT + [429] * (len(codes) - WRONG_CODE_LIMIT)
    return None if statuses == wanted else f"unknown codes from {address}: {statuses}"


async def public_lists(servers: list[Server]) -> list[list[str]]:
    """The public room codes each process lists, asked directly."""
    lists = []
    for server in servers:
        async with httpx.AsyncClient(base_url=server.base, timeout=10) as http:
            answer = await http.get("/api/rooms/public")
            answer.raise_for_status()
            lists.append(sorted(room["code"] for room in answer.json()))
    return lists


async def scenario(url: str, servers: list[Server], base: str, rooms: int,
                   rng: random.Random, within: float, shared_limits: bool) -> dict[str, Any]:
    problems: list[str] = []
    clients: list[SeatClient] = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for n in range(rooms):
            try:
                clients += await open_room(http, n, rng)
            except httpx.HTTPStatusError as exc:
                problems.append(f"room {n}: {exc.request.method} {exc.request.url.path} "
                                f"answered {exc.response.status_code}")
    held = owners(url)
    holders = [owner for owner, _ in held.values()]
    spread = {owner: holders.count(owner) for owner in set(holders)}
    if len(spread) < 2:
        problems.append(f"rooms not spread: {spread}")
    # A process that does not hold a room names its owner.
    for code, (_, address) in list(held.items())[:5]:
        other = next(s for s in servers if s.base != address)
        async with httpx.AsyncClient(base_url=other.base, timeout=10) as direct:
            answer = await direct.get(f"/api/rooms/{code}")
        if answer.status_code != 307 or not answer.headers.get("location", "").startswith(
                f"{address}/api/rooms/{code}"):
            problems.append(f"{other.base} about {code}: {answer.status_code} "
                            f"{answer.headers.get('location')}")
    listed = await listed_everywhere(servers, base, 4, within)
    if listed is not None:
        problems.append(listed)
    codes = {c.code for c in clients}
    finished = await finish(base, clients, 240.0) if clients else set()
    if finished != codes or len(codes) < rooms:
        problems.append(f"{len(finished)}/{rooms} matches finished")
    lists = await public_lists(servers)
    if any(listed != lists[0] for listed in lists):
        problems.append(f"public lists differ: {lists}")
    if shared_limits:
        wrong = await wrong_codes_counted_together(base, set(held))
        if wrong is not None:
            problems.append(wrong)
    return {"spread": spread, "finished": len(finished), "problems": problems}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--postgres-url", default=POSTGRES)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-advertise", action="store_true",
                        help="processes without YANNIV_ADVERTISE_URL: the run must fail")
    parser.add_argument("--local-limits", action="store_true",
                        help="with --redis, limits counted by each process alone (memory://): "
                             "the wrong-code check must then fail")
    parser.add_argument("--redis", default="",
                        help="a Redis URL: lobby changes announced on it, listeners must be "
                             "pushed them within 3 s (else within the 3 s periodic read + 8 s), "
                             "and the wrong-code limit counted on it across processes")
    ns = parser.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="yanniv-balanced-"))
    postgres = Postgres(ns.postgres_url)
    name, url = postgres.create()
    servers: list[Server] = []
    nginx = None
    started = time.monotonic()
    try:
        more = ({"YANNIV_REDIS_URL": ns.redis, "YANNIV_LOBBY_REFRESH_SECONDS": "60",
                 "YANNIV_LIMITS_STORAGE": "memory://" if ns.local_limits else ns.redis,
                 "YANNIV_WRONG_CODE_LIMIT": str(WRONG_CODE_LIMIT)} if ns.redis else {})
        servers = start_advertised(url, workdir, ns.processes, 5.0, 1.5, not ns.no_advertise,
                                   more)
        nginx, base = start_nginx(workdir, [f"127.0.0.1:{s.port}" for s in servers])
        result = asyncio.run(scenario(url, servers, base, ns.rooms, random.Random(ns.seed),
                                      3.0 if ns.redis else 11.0, bool(ns.redis)))
    finally:
        if nginx is not None:
            stop_pid(nginx)
        for server in servers:
            stop_pid(server.proc)
        postgres.drop(name)
        shutil.rmtree(workdir, ignore_errors=True)
    problems = result["problems"]
    print(f"{ns.processes} processes behind nginx, {ns.rooms} rooms: owners "
          f"{sorted(result['spread'].values(), reverse=True)}, {result['finished']}/{ns.rooms} "
          f"matches finished in {time.monotonic() - started:.1f} s; "
          f"{len(problems)} problems" + "".join(f"\n  {p}" for p in problems))
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
