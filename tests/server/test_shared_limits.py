"""Rate limits across the processes of a cluster (docs/cluster.md): with
`YANNIV_LIMITS_STORAGE=redis://…` two processes count one client's wrong room codes together,
so the limit does not multiply by the number of processes; with `memory://` each counts its
own (the control: the same calls pass).

The client's address is a fresh one per test, so counts left in Redis by other runs (kept
for the window) do not matter.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from fastapi import FastAPI
from fastapi.testclient import TestClient

LIMITED = {"cluster": True, "wrong_code_limit": 3, "wrong_code_window": 300.0}


def _address() -> tuple[str, int]:
    """An address of TEST-NET-3 (198.51.100.0/24) or the benchmarking range, random."""
    return f"198.18.{random.randrange(256)}.{random.randrange(1, 255)}", 40000


def _unknown(client: TestClient) -> int:
    return client.get("/api/rooms/ZZZZZZ").status_code


def _two_processes(app_factory: Callable[..., FastAPI],
                   storage: str) -> tuple[TestClient, TestClient]:
    client = _address()
    return (TestClient(app_factory(limits_storage=storage, **LIMITED), client=client),
            TestClient(app_factory(limits_storage=storage, **LIMITED), client=client))


def test_a_wrong_code_limit_counts_across_processes(app_factory: Callable[..., FastAPI],
                                                    redis_url: str) -> None:
    a, b = _two_processes(app_factory, redis_url)
    with a, b:
        assert [_unknown(a), _unknown(a), _unknown(b)] == [404, 404, 404]
        assert _unknown(b) == 429  # the fourth, though B saw only one before
        assert _unknown(a) == 429
        answer = b.get("/api/rooms/ZZZZZZ")
        assert answer.json()["code"] == "rate_limited" and int(answer.headers["retry-after"]) > 0


def test_in_memory_each_process_counts_its_own(app_factory: Callable[..., FastAPI]) -> None:
    a, b = _two_processes(app_factory, "memory://")
    with a, b:
        assert [_unknown(a), _unknown(a), _unknown(b)] == [404, 404, 404]
        assert _unknown(b) == 404
        assert _unknown(a) == 404
        assert _unknown(a) == 429
