"""Limits that fall only on whoever exceeds them: wrong room codes per client address, socket
caps per address, room and seat, and the message rate of one socket.

The wrong-code count is on `limits` (a moving window) in a storage named by a URI, so that
the processes of a cluster share it (`redis://...`, docs/cluster.md); a room that exists is never
refused by it, so one typo loop behind a shared NAT cannot lock its neighbours out of their
matches. Socket caps count live sockets (of this process, or per address of every process of
a cluster: `shared_caps`) and are given back on every close.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass
from typing import TypeVar

from limits import RateLimitItemPerSecond
from limits.aio.strategies import MovingWindowRateLimiter
from limits.storage import storage_from_string

from yanniv.games import MOST_SEATS
from yanniv.server.cluster.shared_caps import AddressCounts
from yanniv.server.errors import GameError, game_error

K = TypeVar("K", bound=Hashable)


def address_key(host: str) -> str:
    """The unit a limit counts: an IPv4 address, or an IPv6 /64 (one subscriber's prefix:
    counting single IPv6 addresses would let one machine rotate through 2**64 of them)."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def async_storage_uri(uri: str) -> str:
    """`memory://`, `redis://...` → the asyncio flavour `limits` names `async+memory://`, ..."""
    return uri if uri.startswith("async+") else f"async+{uri}"


def storage_options(uri: str) -> dict[str, str]:
    """Redis through the official client (`redis`, asyncio), not `limits`' default `coredis`
    (whose version 6 no longer works with `limits` 5's pools)."""
    scheme = async_storage_uri(uri).split("://", 1)[0]
    return {"implementation": "redispy"} if scheme.startswith("async+redis") else {}


def _per_window(limit: int, window: float) -> RateLimitItemPerSecond:
    return RateLimitItemPerSecond(limit, max(1, math.ceil(window)))


class WrongCodeLimiter:
    """At most `limit` unknown room codes per client address within `window` seconds, and at
    most `lookup_limit` lookups of any code by an address that holds no seat of that room
    within `lookup_window`.

    The second budget closes what the first opens: since a known room is never refused for
    wrong codes, an address past the wrong-code limit still tells known codes (answered) from
    unknown ones (refused); the lookup budget keeps that probing as slow as a person.
    """

    def __init__(self, storage_uri: str, limit: int, window: float,
                 lookup_limit: int, lookup_window: float) -> None:
        self.storage = storage_from_string(async_storage_uri(storage_uri),
                                           **storage_options(storage_uri))
        self.strategy = MovingWindowRateLimiter(self.storage)
        self.item = _per_window(limit, window)
        self.lookup_item = _per_window(lookup_limit, lookup_window)

    async def _hit(self, item: RateLimitItemPerSecond, name: str, host: str) -> int | None:
        """Count one hit: None while allowed, else the seconds until the oldest counted hit
        ages out (refused hits are not counted, so they do not prolong the wait)."""
        key = address_key(host)
        if await self.strategy.hit(item, name, key):
            return None
        stats = await self.strategy.get_window_stats(item, name, key)
        return max(1, math.ceil(stats.reset_time - time.time()))

    async def miss(self, host: str) -> int | None:
        """Count one unknown code from `host` (see `_hit`)."""
        return await self._hit(self.item, "wrong-code", host)

    async def lookup(self, host: str) -> int | None:
        """Count one lookup by code from `host` without a seat of that room (see `_hit`)."""
        return await self._hit(self.lookup_item, "code-lookup", host)


async def refuse_lookup(limiter: WrongCodeLimiter, ip: str, known: bool) -> GameError | None:
    """Count a lookup by an address without a seat of the room: None to go on, else the
    refusal: too many lookups, or for an unknown code not found or rate limited (each with
    `Retry-After` seconds when limited)."""
    wait = await limiter.lookup(ip)
    if wait is None and known:
        return None
    code = "too_many_lookups"
    if wait is None:
        wait = await limiter.miss(ip)
        if wait is None:
            return game_error("room_not_found")
        code = "rate_limited"
    error = game_error(code)
    error.headers = {"Retry-After": str(wait)}
    return error


@dataclass(frozen=True, slots=True)
class SocketPlace:
    """What one admitted socket holds, given back by `SocketCaps.release`."""

    address: str
    room: str
    seat: int | None


class SocketCaps:
    """Live sockets per client address, per room's spectators and per seat.

    A room's spectators share `per_room - MOST_SEATS * per_seat` places, so a crowd of
    watchers never takes the place of a player coming back; every socket, seat or not,
    counts against its address. Rooms' and seats' places are this process's (routing makes a
    room's holder the only process with its sockets); addresses' are `counts`', summed over
    the processes of a cluster (`shared_caps`), this process's memory alone otherwise.
    """

    def __init__(self, per_address: int, per_room: int, per_seat: int,
                 counts: AddressCounts | None = None) -> None:
        self.per_address = per_address
        self.per_seat = per_seat
        self.spectators_per_room = per_room - MOST_SEATS * per_seat
        self.counts = counts or AddressCounts()
        self._spectators: Counter[str] = Counter()
        self._seats: Counter[tuple[str, int]] = Counter()

    async def admit(self, host: str, room: str, seat: int | None) -> SocketPlace | str:
        """Take a place for a socket, or say which cap refuses it (an error code). The room's
        and seat's places are taken before the first await, so concurrent sockets cannot all
        pass those caps at once (nor the address's alone: `AddressCounts` never suspends)."""
        address = address_key(host)
        if seat is None and self._spectators[room] >= self.spectators_per_room:
            return "too_many_spectators"
        if seat is not None and self._seats[room, seat] >= self.per_seat:
            return "too_many_seat_sockets"
        if seat is None:
            self._spectators[room] += 1
        else:
            self._seats[room, seat] += 1
        place = SocketPlace(address, room, seat)
        if not await self.counts.take("ws", address, self.per_address):
            self._release_room(place)
            return "too_many_sockets_ip"
        return place

    def release(self, place: SocketPlace) -> None:
        """Give the place back; counters that reach zero are dropped, so memory returns too."""
        self.counts.give("ws", place.address)
        self._release_room(place)

    def _release_room(self, place: SocketPlace) -> None:
        if place.seat is None:
            _decrement(self._spectators, place.room)
        else:
            _decrement(self._seats, (place.room, place.seat))


def _decrement(counter: Counter[K], key: K) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]


class TokenBucket:
    """`rate` tokens per second up to `burst`; each message takes one.

    Kept by hand on purpose: the budget is the socket's own state, created and freed with
    it, O(1) per message with no shared table, background sweep or key to forget, and never
    to be moved to a shared store (a network round trip per message).
    """

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True
