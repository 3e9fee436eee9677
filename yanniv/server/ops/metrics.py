"""Prometheus metrics of one serving process (`GET /metrics`, docs/cluster.md "Metrics").

Each app has its own `CollectorRegistry`, never the library's global one: tests run several
apps in one process, and two processes never share a registry anyway. What can be read from
memory when Prometheus scrapes (rooms, sockets, the group commit's counts) is read then, by a
collector, and costs nothing between scrapes. What happens once per action (the actions
applied, their latency) is counted in plain numbers on the event loop and turned into metric
families at scrape time (`_LoopCounts`); rarer events cost one `inc()` or `observe()` on a
label child resolved once (`_Children`), never a `labels()` call on the hot path.
"""

from __future__ import annotations

import asyncio
import bisect
import collections
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from prometheus_client import (
    CollectorRegistry,
    Counter,
    GCCollector,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString

if TYPE_CHECKING:
    from yanniv.server.rooms.room import Room
    from yanniv.server.store.group_commit import ActionWriter

#: Seconds, from half a millisecond (an action on an idle process) to seconds (a stalled
#: database): the action latency bar is p99 ≤ 50 ms (issue 20), so buckets are dense there.
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
                   2.5, 10.0)
#: Who played an action (`Play.commit_action`): a person's socket, the deadline, a bot.
SOURCES = ("seat", "timer", "bot")
#: How a room's lease changed hands (`leases.py`): taken by this process (at start or from a
#: process whose lease ran out), lost to another one, released at a graceful stop.
LEASE_MOVES = ("taken", "lost", "released")
#: How often the event loop's lateness is probed (`Metrics.probe_loop`).
LOOP_PROBE_SECONDS = 0.25


def op_name(fn: Callable[..., Any]) -> str:
    """A database call's name for the `op` label: the function's qualified name without
    `<locals>` (`RoomStore.append_actions`, `Play.commit_action.write`): bounded by the
    code, not by the data."""
    name = getattr(fn, "__qualname__", None) or type(fn).__name__
    return name.replace(".<locals>", "")


class _Children:
    """Label children resolved once per label value: `labels()` takes a lock and builds a
    key on every call, a dict lookup does not."""

    def __init__(self, metric: Any) -> None:
        self.metric = metric
        self._by_key: dict[Any, Any] = {}

    def get(self, key: Any, *labels: str) -> Any:
        child = self._by_key.get(key)
        if child is None:
            child = self._by_key[key] = self.metric.labels(*labels)
        return child


class _LoopCounts(Collector):
    """The per-action counts, kept as plain numbers and turned into metric families at scrape
    time. Counted on the event loop only (no lock): a `prometheus_client` child takes a lock
    per `inc()` and per bucket of an `observe()`, several per action in all."""

    def __init__(self) -> None:
        #: Actions applied, by (game, who played).
        self.actions: collections.Counter[tuple[str, str]] = collections.Counter()
        #: The action latency's observations per bucket (the last: above every bound), sum.
        self.latency = [0] * (len(LATENCY_BUCKETS) + 1)
        self.latency_sum = 0.0

    def acted(self, seconds: float) -> None:
        self.latency[bisect.bisect_left(LATENCY_BUCKETS, seconds)] += 1
        self.latency_sum += seconds

    def describe(self) -> Iterator[Metric]:
        return iter(self._families())

    def collect(self) -> Iterator[Metric]:
        actions, latency = self._families()
        for (game, by), count in sorted(self.actions.items()):
            actions.add_metric([game, by], count)
        cumulative = 0
        buckets = []
        for bound, count in zip((*LATENCY_BUCKETS, float("inf")), self.latency, strict=True):
            cumulative += count
            buckets.append((floatToGoString(bound), cumulative))
        latency.add_metric([], buckets, self.latency_sum)
        yield from (actions, latency)

    @staticmethod
    def _families() -> tuple[CounterMetricFamily, HistogramMetricFamily]:
        return (
            CounterMetricFamily("yanniv_actions", "Actions applied (committed, then "
                                "broadcast), by game and by who played them; actions/s is "
                                "its rate.", labels=["game", "by"]),
            HistogramMetricFamily("yanniv_action_seconds", "A seat's action, from its "
                                  "validated message to its acknowledgement and broadcast (so "
                                  "after its commit)."),
        )


class _LiveCollector(Collector):
    """Gauges read from the rooms in memory at scrape time (run on the event loop: the
    `/metrics` route is `async`, so the rooms do not change while they are counted)."""

    def __init__(self, rooms: dict[str, Room], writer: ActionWriter) -> None:
        self.rooms = rooms
        self.writer = writer

    def describe(self) -> Iterator[Metric]:
        return iter(self._families())

    def collect(self) -> Iterator[Metric]:
        rooms, sockets, batches, writes = self._families()
        by_game: collections.Counter[tuple[str, str]] = collections.Counter()
        seats = spectators = 0
        for room in list(self.rooms.values()):
            by_game[(room.game.id, room.status)] += 1
            for conn in room.connections:
                if conn.seat is None:
                    spectators += 1
                else:
                    seats += 1
        for (game, status), count in sorted(by_game.items()):
            rooms.add_metric([game, status], count)
        sockets.add_metric(["seat"], seats)
        sockets.add_metric(["spectator"], spectators)
        batches.add_metric([], self.writer.batches)
        writes.add_metric([], self.writer.actions)
        yield from (rooms, sockets, batches, writes)

    @staticmethod
    def _families() -> tuple[GaugeMetricFamily, GaugeMetricFamily, CounterMetricFamily,
                             CounterMetricFamily]:
        return (
            GaugeMetricFamily("yanniv_rooms", "Rooms this process holds the lease of and "
                              "serves from memory, by game and status.",
                              labels=["game", "status"]),
            GaugeMetricFamily("yanniv_sockets", "Open WebSockets of this process's rooms: a "
                              "seat's or a spectator's.", labels=["kind"]),
            CounterMetricFamily("yanniv_action_write_batches", "Transactions of the action "
                                "log's group commit (writer.py)."),
            CounterMetricFamily("yanniv_action_writes", "Actions written by the group "
                                "commit; divided by its batches: the mean batch size."),
        )


class Metrics:
    """The metrics of one app, and the hooks the server calls."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self._counts = _LoopCounts()
        r.register(self._counts)
        # The process's CPU, memory and descriptors (`process_*`, from /proc) and the cyclic
        # collector's runs (`python_gc_*`), both read at scrape time: one process holds as
        # many players as its one core allows (docs/OPERATIONS.md), so its CPU is the figure
        # an operator watches first.
        ProcessCollector(registry=r)
        GCCollector(registry=r)
        self.refusals = Counter("yanniv_action_refusals", "A seat's actions answered with an "
                                "error, by error code (stale_version, not_your_turn…).",
                                ["code"], registry=r)
        self.db_seconds = Histogram(
            "yanniv_db_call_seconds", "Time of one blocking database call in a database "
            "thread, by function (op): RoomStore.append_actions is the group commit's "
            "transaction (RoomStore.append_actions_on_loop on PostgreSQL, timed on the event "
            "loop), Play.commit_action.write a match's last action.",
            ["op"], buckets=LATENCY_BUCKETS, registry=r)
        self.lease_moves = Counter("yanniv_lease_moves", "Room leases that changed hands at "
                                   "this process: taken, lost, released.", ["move"],
                                   registry=r)
        self.rooms_created = Counter("yanniv_rooms_created", "Rooms created here, by game.",
                                     ["game"], registry=r)
        self.matches = Counter("yanniv_matches", "Matches started and finished here, by "
                               "game.", ["game", "event"], registry=r)
        self.loop_lag = Histogram(
            "yanniv_event_loop_lag_seconds", "How late the event loop woke a timer set "
            f"{LOOP_PROBE_SECONDS} s ahead: what every socket of this process waited beyond "
            "its own work (a long callback, a collection, a batch of broadcasts, the machine "
            "itself).", buckets=LATENCY_BUCKETS, registry=r)
        self._refusals = _Children(self.refusals)
        self._db_children: dict[Any, Any] = {}
        for move in LEASE_MOVES:  # present at 0 from the start, so rate() sees the first
            self.lease_moves.labels(move)

    def watch(self, rooms: dict[str, Room], writer: ActionWriter) -> None:
        """Count `rooms` and `writer`'s batches at every scrape."""
        self.registry.register(_LiveCollector(rooms, writer))

    def exposition(self) -> bytes:
        """Everything, in Prometheus' text format."""
        return generate_latest(self.registry)

    async def probe_loop(self) -> None:
        """Forever: sleep `LOOP_PROBE_SECONDS`, observe how late the wake-up came. Near
        saturation a stall of the loop is paid many times over by the backlog behind it,
        so this is the first figure to watch when action latencies rise."""
        loop = asyncio.get_running_loop()
        observe = self.loop_lag.observe
        while True:
            asked = loop.time() + LOOP_PROBE_SECONDS
            await asyncio.sleep(LOOP_PROBE_SECONDS)
            observe(max(0.0, loop.time() - asked))

    # ------------------------------------------------------------ hooks

    def action(self, room: Room, client_id: str | None, by_timer: bool | None,
               over: bool) -> None:
        """An action was committed (`Play.commit_action`; its arguments tell who played),
        the match's last if `over`."""
        by = "seat" if client_id is not None else "bot" if by_timer is False else "timer"
        self._counts.actions[(room.game.id, by)] += 1
        if over:
            self.match(room, "finished")

    def acted(self, seconds: float) -> None:
        """A seat's action was acknowledged after `seconds` (on the event loop)."""
        self._counts.acted(seconds)

    def refused(self, code: str) -> None:
        self._refusals.get(code, code).inc()

    def db_call(self, fn: Callable[..., Any], seconds: float) -> None:
        """A database call took `seconds` (`Database.observe`, run in its thread)."""
        target = getattr(fn, "__func__", fn)  # a bound method: its function
        key = getattr(target, "__code__", None)  # closures of one def share their code
        child = self._db_children.get(key) if key is not None else None
        if child is None:
            child = self.db_seconds.labels(op_name(target))
            if key is not None:
                self._db_children[key] = child
        child.observe(seconds)

    def leases(self, move: str, count: int = 1) -> None:
        if count:
            self.lease_moves.labels(move).inc(count)

    def room_created(self, room: Room) -> None:
        self.rooms_created.labels(room.game.id).inc()

    def match(self, room: Room, event: str) -> None:
        """`event`: started or finished."""
        self.matches.labels(room.game.id, event).inc()
