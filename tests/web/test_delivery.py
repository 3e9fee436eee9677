"""Delivery: text responses travel compressed, static files are cacheable (kept and
revalidated), and a cold first load of the table, seated, stays under 150 KB on the wire."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from web_driver import PHONE

BUDGET = 150 * 1024


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """The whole app as `yanniv serve` composes it (middlewares included)."""
    from yanniv.app import create_app
    from yanniv.server.settings import Settings

    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'delivery.sqlite3'}"))
    with TestClient(app) as test_client:
        yield test_client


def test_static_files_are_compressed_and_revalidated(client: TestClient) -> None:
    for path in ("/static/js/room.js", "/static/css/app.css", "/static/js/card_art.js"):
        answer = client.get(path, headers={"Accept-Encoding": "gzip"})
        assert answer.status_code == 200, path
        assert answer.headers["content-encoding"] == "gzip", path
        assert answer.headers["cache-control"] == "no-cache", path
        etag = answer.headers["etag"]
        again = client.get(path, headers={"If-None-Match": etag, "Accept-Encoding": "gzip"})
        assert again.status_code == 304 and again.content == b"", path


def test_pages_and_json_answers_are_compressed(client: TestClient) -> None:
    for path in ("/", "/regles", "/r/ABCDEF"):
        answer = client.get(path, headers={"Accept-Encoding": "gzip"})
        assert answer.headers.get("content-encoding") == "gzip", path
    plain = client.get("/", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.text.startswith("<!")


def test_cold_table_load_is_under_150_kb_on_the_wire(pages: Any, live_server: Any) -> None:
    created = httpx.post(f"{live_server.url}/api/rooms", json={"pseudo": "Octets"}).json()
    code, token = created["code"], created["token"]
    host = {"X-Seat-Token": token}
    assert httpx.post(f"{live_server.url}/api/rooms/{code}/bots", json={"level": "facile"},
                      headers=host).status_code == 200
    assert httpx.post(f"{live_server.url}/api/rooms/{code}/start", headers=host).status_code == 200

    page = pages.new(PHONE)  # a fresh context: empty cache
    seat = json.dumps({"seat": 0, "token": token})
    page.context.add_init_script(
        f"localStorage.setItem('yanniv.seat.{code}', {json.dumps(seat)});")
    sizes: list[tuple[str, int]] = []

    def count(request: Any) -> None:
        received = request.sizes()  # as transferred: compressed body plus headers
        sizes.append((request.url, received["responseBodySize"] + received["responseHeadersSize"]))

    page.on("requestfinished", count)
    page.goto(f"{live_server.url}/r/{code}")
    page.wait_for_selector("#hand [data-code]")
    page.wait_for_load_state("networkidle")
    total = sum(size for _, size in sizes)
    print(f"first table load: {total} bytes in {len(sizes)} requests")
    assert len(sizes) >= 10, sizes  # the page, its styles and its modules were counted
    assert total <= BUDGET, sorted(sizes, key=lambda s: -s[1])[:5]
