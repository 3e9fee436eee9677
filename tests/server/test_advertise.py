"""`YANNIV_ADVERTISE_URL=auto` (docker-compose.yml's replicas): `yanniv serve` advertises the
address it listens on, or the one its host name resolves to, and stores it with its leases."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from yanniv.server.cluster.advertise import advertise_url

ROOT = Path(__file__).resolve().parents[2]


def test_an_explicit_address_is_kept() -> None:
    assert advertise_url("http://10.0.0.5:8000", "0.0.0.0", 9000) == "http://10.0.0.5:8000"
    assert advertise_url("", "0.0.0.0", 9000) == ""


def test_auto_names_the_concrete_listening_address() -> None:
    assert advertise_url("auto", "10.1.2.3", 8123) == "http://10.1.2.3:8123"
    assert advertise_url(" AUTO ", "::1", 8000) == "http://[::1]:8000"
    assert advertise_url("auto", "localhost", 8000) == "http://127.0.0.1:8000"


def test_auto_on_every_interface_names_the_host_names_address(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket, "gethostname", lambda: "localhost")
    assert advertise_url("auto", "0.0.0.0", 8000) == "http://127.0.0.1:8000"
    monkeypatch.setattr(socket, "gethostname", lambda: "no-such-host.invalid")
    with pytest.raises(OSError):
        advertise_url("auto", "0.0.0.0", 8000)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_serve_stores_the_worked_out_address_with_its_leases(tmp_path: Path) -> None:
    port = _free_port()
    database = tmp_path / "cluster.sqlite3"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "YANNIV_CLUSTER": "1",
           "YANNIV_ADVERTISE_URL": "auto", "DATABASE_URL": f"sqlite:///{database}"}
    log = (tmp_path / "serve.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "yanniv.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{base}/readyz", timeout=2):
                    break
            except OSError:
                assert server.poll() is None, (tmp_path / "serve.log").read_text()
                assert time.monotonic() < deadline, "yanniv serve never got ready"
                time.sleep(0.2)
        request = urllib.request.Request(f"{base}/api/rooms", method="POST",
                                         data=json.dumps({"pseudo": "Léa"}).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as answer:
            code = json.load(answer)["code"]
        with sqlite3.connect(database) as conn:
            stored = conn.execute("SELECT owner_url FROM room_leases WHERE room_code = ?",
                                  (code,)).fetchone()
        assert stored == (f"http://127.0.0.1:{port}",)
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
