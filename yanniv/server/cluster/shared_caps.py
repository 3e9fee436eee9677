"""Live sockets per client address, counted across the processes of a cluster (docs/cluster.md).

A socket cap counted by each process alone multiplies by the number of processes behind the
balancer. In a cluster with Redis, each process keeps its own counts in a Redis hash
`yanniv:caps:<process id>` (one field per kind and address) and says it is alive in a sorted
set (`yanniv:caps:live`, score: when its heartbeat runs out, Redis's clock); a socket is
admitted when the sum of its address's counts over the live processes is under the cap, checked
and taken in one script (atomic in Redis, so two processes cannot both take the last place).
A process that dies stops its heartbeat: its counts leave the sum once it runs out, and its
hash expires with it, so a dead process's sockets are given back without anyone cleaning up.

Each process's own counts are also kept in memory: they are the truth its hash mirrors (written
again whole by the heartbeat if Redis lost it, e.g. restarted), and the fallback when Redis does
not answer (the cap is then counted per process, as without a cluster: a socket is never
refused because Redis is away). Alone, `AddressCounts` is that memory and nothing else.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from typing import Any

from yanniv.server.ops.background import cancel_and_wait, raise_if_cancelled

log = logging.getLogger(__name__)
#: Redis keys (one Redis server: the scripts name keys they compute, not Redis Cluster-safe).
PREFIX = "yanniv:caps:"
LIVE = PREFIX + "live"
#: Seconds between two warnings about Redis not answering.
WARN_EVERY = 60.0

#: KEYS: live set, my hash. ARGV: field, limit, my id, hash prefix, heartbeat ttl (ms).
#: Returns 1 (taken) or 0 (refused).
_TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local total = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
for _, p in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], now, '+inf')) do
  if p ~= ARGV[3] then
    total = total + tonumber(redis.call('HGET', ARGV[4] .. p, ARGV[1]) or '0')
  end
end
if total >= tonumber(ARGV[2]) then return 0 end
redis.call('HINCRBY', KEYS[2], ARGV[1], 1)
redis.call('PEXPIRE', KEYS[2], ARGV[5])
return 1
"""
#: KEYS: my hash. ARGV: field.
_GIVE = """
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return 0
"""
#: KEYS: live set, my hash. ARGV: my id, ttl (ms). Returns whether my hash still exists.
_BEAT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return redis.call('PEXPIRE', KEYS[2], ARGV[2])
"""


def _field(kind: str, address: str) -> str:
    return f"{kind}|{address}"


class AddressCounts:
    """Sockets of each kind (`ws`, `lobby`) per address, in this process's memory."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()

    async def take(self, kind: str, address: str, limit: int) -> bool:
        """Take a place if `address` holds fewer than `limit` sockets of `kind`. Here a
        coroutine that never suspends: the check and the count happen before anything else
        runs, so concurrent sockets cannot all pass at once."""
        return self.take_now(_field(kind, address), limit)

    def take_now(self, field: str, limit: int) -> bool:
        if self.counts[field] >= limit:
            return False
        self.counts[field] += 1
        return True

    def give(self, kind: str, address: str) -> None:
        """Give a place back (counts reaching zero are dropped, so memory returns too)."""
        field = _field(kind, address)
        self.counts[field] -= 1
        if self.counts[field] <= 0:
            del self.counts[field]

    def start(self) -> None:
        """Nothing runs in the background alone."""

    async def stop(self) -> None:
        """Nothing to let go alone."""


class RedisAddressCounts(AddressCounts):
    """The counts of every live process of a cluster, summed in Redis (see the module)."""

    def __init__(self, redis: Any, owner: str, heartbeat: float, ttl: float) -> None:
        super().__init__()
        self.redis = redis
        self.owner = owner
        self.mine = PREFIX + owner
        self.heartbeat = heartbeat
        self.ttl_ms = int(ttl * 1000)
        self._take = redis.register_script(_TAKE)
        self._give = redis.register_script(_GIVE)
        self._beat = redis.register_script(_BEAT)
        self._task: asyncio.Task[None] | None = None
        self._gives: set[asyncio.Task[None]] = set()
        self._warned = 0.0

    async def take(self, kind: str, address: str, limit: int) -> bool:
        field = _field(kind, address)
        self.counts[field] += 1  # counted here first: a heartbeat meanwhile mirrors it
        try:
            taken = await self._take(keys=[LIVE, self.mine],
                                     args=[field, limit, self.owner, PREFIX, self.ttl_ms])
        except Exception as exc:  # Redis away: this process's own count decides
            self._warn("socket cap", exc)
            taken = self.counts[field] <= limit
        if not taken:
            self.give_local(field)
        return bool(taken)

    def give_local(self, field: str) -> None:
        self.counts[field] -= 1
        if self.counts[field] <= 0:
            del self.counts[field]

    def give(self, kind: str, address: str) -> None:
        """Given back here at once, in Redis by a task (a socket's close does not wait)."""
        field = _field(kind, address)
        self.give_local(field)
        task = asyncio.get_running_loop().create_task(self._give_shared(field))
        self._gives.add(task)
        task.add_done_callback(self._gives.discard)

    async def _give_shared(self, field: str) -> None:
        try:
            await self._give(keys=[self.mine], args=[field])
        except Exception as exc:  # the heartbeat writes the hash again once Redis is back
            self._warn("socket cap", exc)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def beat(self) -> None:
        """Say this process is alive; write its counts again if Redis lost them."""
        if not await self._beat(keys=[LIVE, self.mine], args=[self.owner, self.ttl_ms]):
            counts = {field: n for field, n in self.counts.items() if n > 0}
            if counts:
                async with self.redis.pipeline(transaction=True) as pipe:
                    pipe.delete(self.mine).hset(self.mine, mapping=counts)
                    pipe.pexpire(self.mine, self.ttl_ms)
                    await pipe.execute()

    async def _run(self) -> None:
        while True:
            try:
                await self.beat()
            except Exception as exc:
                raise_if_cancelled(exc)
                self._warn("heartbeat", exc)
            await asyncio.sleep(self.heartbeat)

    async def stop(self) -> None:
        """A graceful stop: this process's places are given back at once."""
        task, self._task = self._task, None
        await cancel_and_wait(task)
        for give in list(self._gives):
            with contextlib.suppress(Exception):
                await give
        try:
            await self.redis.zrem(LIVE, self.owner)
            await self.redis.delete(self.mine)
        except Exception as exc:  # they run out by themselves
            self._warn("release", exc)

    def _warn(self, what: str, exc: Exception) -> None:
        now = time.monotonic()
        if now - self._warned >= WARN_EVERY:
            self._warned = now
            log.warning("Redis: %s failed (%s); socket caps counted by this process alone",
                        what, exc)
