"""Two small limiters: wrong room codes per client IP, and message rate per socket."""

from __future__ import annotations

import time
from collections import deque


class FailureLimiter:
    """Counts failures per key in a sliding window; a key with too many is blocked until they age.

    Memory stays bounded: keys whose failures have all aged out are dropped as the table grows.
    """

    def __init__(self, limit: int, window: float, max_keys: int = 100_000) -> None:
        self.limit = limit
        self.window = window
        self.max_keys = max_keys
        self._failures: dict[str, deque[float]] = {}

    def _recent(self, key: str, now: float) -> deque[float] | None:
        times = self._failures.get(key)
        if times is None:
            return None
        while times and times[0] <= now - self.window:
            times.popleft()
        if not times:
            del self._failures[key]
            return None
        return times

    def blocked(self, key: str) -> bool:
        times = self._recent(key, time.monotonic())
        return times is not None and len(times) >= self.limit

    def fail(self, key: str) -> None:
        now = time.monotonic()
        times = self._recent(key, now)
        if times is None:
            if len(self._failures) >= self.max_keys:
                self._prune(now)
            times = self._failures[key] = deque()
        times.append(now)

    def _prune(self, now: float) -> None:
        for key in list(self._failures):
            self._recent(key, now)


class TokenBucket:
    """`rate` tokens per second up to `burst`; each message takes one."""

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
