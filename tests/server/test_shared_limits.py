"""Rate limits across the processes of a cluster (docs/cluster.md): with
`YANNIV_LIMITS_STORAGE=redis://…` two processes count one client's wrong room codes, and one
pseudo's failed logins, together, so the limits do not multiply by the number of processes;
with `memory://` each counts its own (the control: the same calls pass).

The client's address and the pseudo are fresh per test, so counts left in Redis by other
runs (kept for the window) do not matter.
"""

from __future__ import annotations

import random
import uuid
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


def _failed_logins(a: TestClient, b: TestClient) -> list[int]:
    """Ten failed logins of one fresh pseudo, five on each process, then one more on each."""
    pseudo = f"Essai{uuid.uuid4().hex[:8]}"
    body = {"pseudo": pseudo, "password": "pas le bon"}
    statuses = [c.post("/api/profiles/login", json=body).status_code for c in [a, b] * 5]
    assert statuses == [401] * 10
    return [c.post("/api/profiles/login", json=body).status_code for c in (b, a)]


def test_failed_logins_count_across_processes(app_factory: Callable[..., FastAPI],
                                              redis_url: str) -> None:
    a, b = _two_processes(app_factory, redis_url)
    with a, b:
        assert _failed_logins(a, b) == [429, 429]


def test_failed_logins_in_memory_count_per_process(app_factory: Callable[..., FastAPI]) -> None:
    a, b = _two_processes(app_factory, "memory://")
    with a, b:
        assert _failed_logins(a, b) == [401, 401]  # five each: under the limit of ten
