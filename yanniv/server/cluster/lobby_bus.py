"""What the processes of a cluster share besides the database (docs/cluster.md): the lobby's
changes, announced on Redis pub/sub, and the per-address socket counts (`shared_caps`).

`SharedState` is built by the composition root for every process. Alone (the default) it is
the in-memory lobby feed and counts, nothing else. In a cluster:

- a change of our rooms' listing is written to `room_leases.listed` at once (the list's source
  for every process; the lease renewal writes the same flags later anyway), then published on
  `yanniv:lobby`; every process (this one included) then reads the list again and pushes it
  to its own home-page listeners. The message carries only the sender's id: the list is read
  from the database, never passed through Redis, so a lost or doubled message costs a late or
  an extra read, nothing wrong. While Redis is away, the feed's periodic read still brings
  every change within `lobby_refresh_seconds`;
- with a Redis URL, socket caps per address are summed over the live processes.

The Redis URL is `YANNIV_REDIS_URL`, or else `YANNIV_LIMITS_STORAGE` when it names Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, Table, bindparam, update

from yanniv.server.cluster.shared_caps import AddressCounts, RedisAddressCounts
from yanniv.server.ops.background import cancel_and_wait, raise_if_cancelled
from yanniv.server.realtime.lobby_feed import LobbyFeed
from yanniv.server.store.models import RoomLeaseRow

if TYPE_CHECKING:
    from yanniv.server.rooms.registry import Rooms
    from yanniv.server.settings import Settings

log = logging.getLogger(__name__)
CHANNEL = "yanniv:lobby"
_LEASES: Table = RoomLeaseRow.__table__  # type: ignore[assignment]
#: Seconds before subscribing again after Redis dropped the subscription.
RESUBSCRIBE = 1.0
#: Seconds a Redis command may take before it counts as failed.
REDIS_TIMEOUT = 1.0
#: Seconds a subscription or a client may take to close. redis-py's close can wait forever for
#: its socket's end (redis/redis-py#3941: `disconnect` awaits `wait_closed`), which once held
#: an app's shutdown for the 900 s of a test's timeout; the socket is closed by then anyway.
CLOSE_SECONDS = 2.0


async def close_within(closing: Awaitable[Any], seconds: float | None = None) -> None:
    """Await a Redis object's close for at most `seconds` (`CLOSE_SECONDS`); its failure or
    its lateness is not the caller's: a stop goes on."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(closing, CLOSE_SECONDS if seconds is None else seconds)


def shared_redis_url(settings: Settings) -> str:
    """The Redis of the cluster ('' for none): its own setting, or the limits' storage."""
    if settings.redis_url:
        return settings.redis_url
    storage = settings.limits_storage.removeprefix("async+")
    return storage if storage.startswith(("redis://", "rediss://", "unix://")) else ""


def write_listed(engine: Engine, owner: str, changed: dict[str, bool]) -> None:
    """Our rooms' `listed` flags as they are now (rows whose lease we no longer hold stay)."""
    statement = (update(_LEASES)
                 .where(_LEASES.c.room_code == bindparam("code"), _LEASES.c.owner == owner)
                 .values(listed=bindparam("now_listed")))
    with engine.begin() as conn:
        conn.execute(statement, [{"code": code, "now_listed": listed}
                                 for code, listed in changed.items()])


class LobbyBus:
    """Announces this process's lobby changes on Redis; hears the others'."""

    def __init__(self, redis: Any, subscriber: Any, owner: str, heard: Callable[[], None]) -> None:
        self.redis = redis
        self.subscriber = subscriber
        self.owner = owner.encode()
        self.heard = heard
        self._task: asyncio.Task[None] | None = None
        self._warned = 0.0
        #: Announcements heard from other processes (tests and measurements).
        self.received = 0

    async def publish(self) -> None:
        try:
            await self.redis.publish(CHANNEL, self.owner)
        except Exception as exc:  # the others' periodic read brings the change
            self._warn("publishing", exc)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._listen())

    async def stop(self) -> None:
        task, self._task = self._task, None
        await cancel_and_wait(task)

    async def _listen(self) -> None:
        while True:
            pubsub = self.subscriber.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(CHANNEL)
                self.heard()  # (again) subscribed: whatever was missed is read now
                async for message in pubsub.listen():
                    if message.get("type") == "message" and message["data"] != self.owner:
                        self.received += 1
                        self.heard()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                raise_if_cancelled(exc)
                self._warn("the subscription", exc)
            finally:  # not `async with`: its close is bounded here (`close_within`)
                await close_within(pubsub.aclose())
            await asyncio.sleep(RESUBSCRIBE)

    def _warn(self, what: str, exc: Exception) -> None:
        now = time.monotonic()
        if now - self._warned >= 60.0:
            self._warned = now
            log.warning("Redis: %s of lobby changes failed (%s); lists follow by periodic "
                        "reads meanwhile", what, exc)


class SharedState:
    """The lobby feed and the socket counts of one process, shared in a cluster."""

    def __init__(self, settings: Settings, rooms: Rooms) -> None:
        self.settings = settings
        self.rooms = rooms
        self.feed = LobbyFeed(rooms, settings.lobby_push_interval, settings.lobby_refresh_seconds)
        rooms.lobby.watcher = self.feed.touched
        self.redis: Any = None
        self.subscriber: Any = None
        self.bus: LobbyBus | None = None
        self.counts: AddressCounts = AddressCounts()
        url = shared_redis_url(settings) if settings.cluster else ""
        if url:
            import redis.asyncio

            # Commands time out (a socket's opening waits for one): a Redis that stops
            # answering costs a second, then the process counts alone. The subscription
            # waits for messages as long as there are none: its own client, no read timeout.
            self.redis = redis.asyncio.Redis.from_url(
                url, socket_timeout=REDIS_TIMEOUT, socket_connect_timeout=REDIS_TIMEOUT)
            self.subscriber = redis.asyncio.Redis.from_url(
                url, socket_connect_timeout=REDIS_TIMEOUT, socket_keepalive=True)
            owner = rooms.leases.owner
            self.counts = RedisAddressCounts(self.redis, owner, settings.lease_renew_seconds,
                                             settings.lease_seconds)
            self.bus = LobbyBus(self.redis, self.subscriber, owner, self.feed.heard)
        if settings.cluster:
            self.feed.announce = self._announce

    async def _announce(self, changed: dict[str, bool]) -> None:
        if changed:
            await self.rooms.db.run(write_listed, self.rooms.db.engine, self.rooms.leases.owner,
                                    changed)
        if self.bus is not None:
            await self.bus.publish()

    async def start(self) -> None:
        self.counts.start()
        if self.bus is not None:
            self.bus.start()
        self.feed.start()

    async def stop(self) -> None:
        await self.feed.stop()
        if self.bus is not None:
            await self.bus.stop()
        await self.counts.stop()
        for client in (self.redis, self.subscriber):
            if client is not None:
                await close_within(client.aclose())
