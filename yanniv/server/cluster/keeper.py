"""The lease keeper: a background task that renews this process's room leases every few seconds,
drops the rooms whose lease another process took, and, in a cluster, takes over the rooms
whose lease ran out (their process died or stopped).

One renewal is one statement for all the rooms held, never a statement per action: the hot
path only carries the fence (`leases.held_by`). Losing a lease here or at a write ends the
same way, the room dropped from memory (`lost`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterable

from yanniv.db.session import Database
from yanniv.server.cluster.leases import Leases
from yanniv.server.ops.background import cancel_and_wait, raise_if_cancelled

log = logging.getLogger(__name__)


class LeaseKeeper:
    """Renews `held()` (code → epoch) every `interval` seconds, marking `listed()` as listed
    (None: none); `lost(code, epoch)` for each lease no longer ours; then `claim()` (None
    outside a cluster) takes over expired ones."""

    def __init__(self, db: Database, leases: Leases, interval: float, ttl: float,
                 held: Callable[[], dict[str, int]], lost: Callable[[str, int], None],
                 claim: Callable[[], Awaitable[int]] | None,
                 listed: Callable[[], Iterable[str]] | None = None,
                 renew_here: Callable[[dict[str, int], list[str]], set[str] | None] | None = None,
                 ) -> None:
        self.db = db
        self.leases = leases
        self.interval = interval
        self.ttl = ttl
        self.held = held
        self.lost = lost
        self.claim = claim
        #: The held rooms this process lists as public (cluster: written with each renewal).
        self.listed = listed
        #: Renews on the event loop where it can (`RoomStore.renew_leases_here`; None: it
        #: could not, the database thread renews).
        self.renew_here = renew_here
        self._task: asyncio.Task[None] | None = None
        #: `time.monotonic()` of the last renewal that reached the database.
        self.renewed_at = 0.0

    def start(self) -> None:
        """Run from now on (the leases were just taken: they count as renewed)."""
        self.renewed_at = time.monotonic()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        task, self._task = self._task, None
        await cancel_and_wait(task)

    def ready(self) -> bool:
        """Running, and the leases renewed recently enough to still be ours."""
        return (self._task is not None and not self._task.done()
                and time.monotonic() - self.renewed_at < self.ttl)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.tick()
            except Exception as exc:  # the database is away: again next time (writes are fenced)
                raise_if_cancelled(exc)
                log.warning("renewing the room leases failed: %s", exc)

    async def tick(self) -> None:
        """One renewal, then one claim of expired leases (in a cluster)."""
        held = self.held()
        started = time.monotonic()  # the new expiries count from no later than this
        if held:
            listed = list(self.listed()) if self.listed is not None else []
            here = self.renew_here(held, listed) if self.renew_here is not None else None
            kept = here if here is not None else await self.db.run(self.leases.renew, held,
                                                                    listed)
        else:  # nothing to renew: still prove the leases could be (readiness)
            await self.db.run(self.leases.ping)
            kept = set()
        self.renewed_at = started
        for code, epoch in held.items():
            if code not in kept:
                self.lost(code, epoch)
        if self.claim is not None:
            taken = await self.claim()
            if taken:
                log.info("took over %d rooms whose lease ran out", taken)
