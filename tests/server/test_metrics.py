"""`GET /metrics` (docs/cluster.md, metrics): what a scrape says after actions played through
real sockets, read with Prometheus' own parser (`prometheus_client.parser`, not ours); who may
scrape; the lease moves of two processes; the balancer never passes `/metrics` on."""

from __future__ import annotations

import gc
import os
import random
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from tests.live_ws import free_port
from yanniv.app import server_config
from yanniv.server.cluster.balancer import nginx_conf
from yanniv.server.ops.metrics import Metrics
from yanniv.server.settings import Settings

LOOPBACK = ("127.0.0.1", 40000)
FAST_CLUSTER = {"cluster": True, "lease_seconds": 1.0, "lease_renew_seconds": 0.2}

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(client: TestClient) -> Samples:
    answer = client.get("/metrics")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain")
    return parse(answer.text)


def parse(exposition: str) -> Samples:
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(exposition)
            for s in family.samples}


def value(samples: Samples, name: str, **labels: str) -> float:
    """A sample's value; 0 for one not yet exposed (a label value never seen)."""
    return samples.get((name, frozenset(labels.items())), 0.0)


def total(samples: Samples, name: str, **labels: str) -> float:
    """The sum over the samples of `name` whose labels include `labels`."""
    wanted = set(labels.items())
    return sum(v for (n, found), v in samples.items() if n == name and wanted <= found)


class NoYanniv:
    """Picks any legal action but calling YANNIV, so no manche (and no match) ends here."""

    @staticmethod
    def choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
        return rng.choice([a for a in legal if a["type"] != "CallYanniv"] or legal)


def test_a_scrape_counts_the_actions_rooms_and_sockets(
        app_factory: Callable[..., FastAPI], table_cls: Any) -> None:
    played = 17
    rng = random.Random(20)
    with TestClient(app_factory(), client=LOOPBACK) as client, table_cls(client, 3) as table:
        table.choose = NoYanniv.choose  # type: ignore[method-assign]
        table.connect()
        client.post("/api/rooms", json={"pseudo": "Attend"})  # a second room, waiting
        before = scrape(client)
        for _ in range(played):
            assert table.step(rng)
        state = table.sync()
        actor = table.players[state["view"]["pending"]["seat"]]
        own = actor.last_state
        refused = actor.act(own["view"]["legal_actions"][0], own["version"] - 1)
        assert refused["code"] == "stale_version"
        with client.websocket_connect(f"/ws/{table.code}") as spectator:
            spectator.receive_json()
            after = scrape(client)
        gone = scrape(client)

    def delta(name: str, **labels: str) -> float:
        return total(after, name, **labels) - total(before, name, **labels)

    assert delta("yanniv_actions_total", game="yanniv", by="seat") == played
    assert delta("yanniv_actions_total") == played  # no timer, no bot played
    assert delta("yanniv_action_seconds_count") == played
    assert value(after, "yanniv_action_seconds_bucket", le="+Inf") == played
    assert delta("yanniv_action_refusals_total", code="stale_version") == 1
    assert delta("yanniv_action_refusals_total") == 1
    # Every action went through the group commit, whose batches are database calls.
    assert delta("yanniv_action_writes_total") == played
    batches = delta("yanniv_action_write_batches_total")
    assert 1 <= batches <= played
    assert delta("yanniv_db_call_seconds_count", op="RoomStore.append_actions") == batches
    assert value(after, "yanniv_rooms", game="yanniv", status="playing") == 1
    assert value(after, "yanniv_rooms", game="yanniv", status="waiting") == 1
    assert value(after, "yanniv_sockets", kind="seat") == 3
    assert value(after, "yanniv_sockets", kind="spectator") == 1
    assert value(gone, "yanniv_sockets", kind="spectator") == 0
    assert value(after, "yanniv_rooms_created_total", game="yanniv") == 2
    assert value(after, "yanniv_matches_total", game="yanniv", event="started") == 1
    assert value(after, "yanniv_matches_total", game="yanniv", event="finished") == 0


def test_a_finished_match_and_its_last_action_are_counted(
        app_factory: Callable[..., FastAPI], table_cls: Any) -> None:
    with TestClient(app_factory(), client=LOOPBACK) as client, \
            table_cls(client, 2, settings={"manches": 1}) as table:
        table.connect()
        before = scrape(client)
        steps = 0
        rng = random.Random(3)
        while table.step(rng):
            steps += 1
        after = scrape(client)
    assert (total(after, "yanniv_actions_total") - total(before, "yanniv_actions_total")
            == steps)
    assert value(after, "yanniv_matches_total", game="yanniv", event="finished") == 1
    assert value(after, "yanniv_rooms", game="yanniv", status="finished") == 1
    # The last action is written with the match's record, outside the group commit.
    assert value(after, "yanniv_db_call_seconds_count", op="Play.commit_action.write") == 1
    assert (total(after, "yanniv_action_writes_total")
            - total(before, "yanniv_action_writes_total")) == steps - 1


@pytest.mark.parametrize(("peer", "overrides", "headers", "status"), [
    (LOOPBACK, {}, {}, 200),
    (("10.1.2.3", 5000), {}, {}, 200),  # a Prometheus server on the private network
    (("203.0.113.7", 5000), {}, {}, 404),  # the Internet
    (("testclient", 5000), {}, {}, 404),  # not an address at all
    (LOOPBACK, {"metrics": False}, {}, 404),
    (LOOPBACK, {"metrics_allow": "10.0.0.0/8"}, {}, 404),
    # Through a trusted proxy, the client it names is the one checked.
    (LOOPBACK, {"trusted_proxies": "127.0.0.1"}, {"X-Forwarded-For": "203.0.113.7"}, 404),
    (LOOPBACK, {"trusted_proxies": "127.0.0.1"}, {"X-Forwarded-For": "192.168.1.9"}, 200),
])
def test_who_may_scrape(app_factory: Callable[..., FastAPI], peer: tuple[str, int],
                        overrides: dict[str, Any], headers: dict[str, str],
                        status: int) -> None:
    with TestClient(app_factory(**overrides), client=peer) as client:
        answer = client.get("/metrics", headers=headers)
    assert answer.status_code == status
    if status == 404:
        assert answer.json()["code"] == "not_found"
    else:
        assert "# TYPE yanniv_actions_total counter" in answer.text


def test_a_wrong_allow_list_stops_the_server() -> None:
    with pytest.raises(ValueError):
        Settings(metrics_allow="10.0.0.0/8,not-a-network")


@pytest.fixture(params=["sqlite_url", "postgres_url"])
def url(request: pytest.FixtureRequest) -> str:
    return str(request.getfixturevalue(request.param))


def test_lease_moves_between_two_processes(app_factory: Callable[..., FastAPI],
                                           url: str) -> None:
    """A creates a room and stops renewing; B takes it over when its lease ran out; A's
    next write finds it lost; B's graceful stop releases it."""
    app_a, app_b = app_factory(url, **FAST_CLUSTER), app_factory(url, **FAST_CLUSTER)
    with TestClient(app_a, client=LOOPBACK) as a:
        with TestClient(app_b, client=LOOPBACK) as b:
            code = a.post("/api/rooms", json={"pseudo": "Léa"}).json()["code"]
            a.portal.call(app_a.state.rooms.keeper.stop)
            deadline = time.monotonic() + 10
            while app_b.state.rooms.get(code) is None:
                assert time.monotonic() < deadline, "B took the room over"
                time.sleep(0.05)
            assert value(scrape(b), "yanniv_lease_moves_total", move="taken") == 1
            assert value(scrape(b), "yanniv_rooms", game="yanniv", status="waiting") == 1
            joined = a.post(f"/api/rooms/{code}/join", json={"pseudo": "Max"})
            assert joined.json()["code"] == "room_moved"
            on_a = scrape(a)
            assert value(on_a, "yanniv_lease_moves_total", move="lost") == 1
            assert value(on_a, "yanniv_lease_moves_total", move="taken") == 0
            assert total(on_a, "yanniv_rooms") == 0
        # B stopped gracefully (nothing serves its route now): its registry counts it.
        stopped = parse(app_b.state.rooms.metrics.exposition().decode())
        assert value(stopped, "yanniv_lease_moves_total", move="released") == 1


def test_the_balancer_does_not_pass_metrics_on(
        tmp_path: Path, nginx_path: str, sqlite_url: str, run_uvicorn: Any) -> None:
    app_port, nginx_port = free_port(), free_port()
    config = server_config(Settings(database_url=sqlite_url), "127.0.0.1", app_port,
                           log_level="warning", tune_gc=False)
    conf = tmp_path / "nginx.conf"
    conf.write_text(nginx_conf(f"127.0.0.1:{nginx_port}", [f"127.0.0.1:{app_port}"], tmp_path))
    with run_uvicorn(config):
        nginx = subprocess.Popen([nginx_path, "-c", str(conf), "-p", str(tmp_path),
                                  "-g", "daemon off;"], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{nginx_port}"
            assert _status(f"{base}/healthz", wait=True) == 200  # nginx passes the rest on
            assert _status(f"http://127.0.0.1:{app_port}/metrics") == 200  # asked directly
            for path in ("/metrics", "/metrics?x=1", "/%6Detrics", "//metrics"):
                assert _status(base + path) == 404, path
        finally:
            nginx.terminate()
            nginx.wait(10)


def _status(url: str, wait: bool = False) -> int:
    deadline = time.monotonic() + 10
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                return int(answer.status)
        except urllib.error.HTTPError as error:
            return int(error.code)
        except OSError:
            if not wait or time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_a_stalled_event_loop_shows_in_the_loop_lag(app_factory: Callable[..., FastAPI]) -> None:
    """The loop is blocked 0.4 s (a callback that sleeps, as a stall would): the lag
    histogram counts one more probe later than 0.25 s than before the stall."""
    with TestClient(app_factory(), client=LOOPBACK) as client:
        time.sleep(0.6)  # a few probes of an idle loop
        before = scrape(client)
        assert value(before, "yanniv_event_loop_lag_seconds_count") >= 1
        late_before = (value(before, "yanniv_event_loop_lag_seconds_count")
                       - value(before, "yanniv_event_loop_lag_seconds_bucket", le="0.25"))

        async def stall() -> None:
            time.sleep(0.4)  # blocks the loop, on purpose

        client.portal.call(stall)
        time.sleep(0.6)
        after = scrape(client)
        late_after = (value(after, "yanniv_event_loop_lag_seconds_count")
                      - value(after, "yanniv_event_loop_lag_seconds_bucket", le="0.25"))
        assert late_after >= late_before + 1
        assert value(after, "yanniv_event_loop_lag_seconds_sum") >= 0.1


def test_the_process_cpu_memory_and_collections_are_exposed(
        app_factory: Callable[..., FastAPI]) -> None:
    """What an operator watches first (docs/OPERATIONS.md): the process's CPU, read against
    the interpreter's own clock of it (not /proc, which the collector reads), its resident
    memory against /proc/self/statm, and a full collection counted."""
    with TestClient(app_factory(), client=LOOPBACK) as client:
        cpu_before = time.process_time()
        first = scrape(client)
        cpu_between = time.process_time()
        deadline = time.process_time() + 0.3
        while time.process_time() < deadline:  # burn 0.3 s of CPU between two scrapes
            pass
        gc.collect()
        second = scrape(client)
        cpu_after = time.process_time()
        resident = int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf(
            "SC_PAGE_SIZE")
    # /proc counts in clock ticks (10 ms): a tick or two either way.
    slack = 0.05
    assert cpu_before - slack <= value(first, "process_cpu_seconds_total") <= cpu_between + slack
    burnt = value(second, "process_cpu_seconds_total") - value(first, "process_cpu_seconds_total")
    assert 0.3 - slack <= burnt <= cpu_after - cpu_before + slack
    rss = value(second, "process_resident_memory_bytes")
    assert 0.5 * resident <= rss <= 2 * resident
    assert value(second, "process_open_fds") >= 3
    assert (value(second, "python_gc_collections_total", generation="2")
            >= value(first, "python_gc_collections_total", generation="2") + 1)


def test_action_latency_buckets_count_each_observation_at_or_below_their_bound() -> None:
    """The action histogram, kept as plain counts on the loop, read back through Prometheus'
    parser: each bucket counts the observations at or below its bound (`le`)."""
    metrics = Metrics()
    for seconds in (0.0003, 0.0005, 0.003, 0.05, 20.0):
        metrics.acted(seconds)
    samples = parse(metrics.exposition().decode())

    def bucket(le: str) -> float:
        return samples[("yanniv_action_seconds_bucket", frozenset({("le", le)}))]

    assert bucket("0.0005") == 2  # 0.0005 itself is within its bucket
    assert bucket("0.001") == 2
    assert bucket("0.005") == 3
    assert bucket("0.05") == 4
    assert bucket("10.0") == 4
    assert bucket("+Inf") == 5
    assert samples[("yanniv_action_seconds_count", frozenset())] == 5
    assert samples[("yanniv_action_seconds_sum", frozenset())] == pytest.approx(20.0538)
