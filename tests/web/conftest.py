"""Browser-test fixtures: the real app under uvicorn (temp SQLite file) and headless Chromium.

The server runs in a thread of the test process so that tests can rig the match seed through
`app.state.rooms.seed_factory`. Chromium is Debian's (`chromium_path` from tests/conftest.py).
"""

from __future__ import annotations

import importlib.util
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.threaded_uvicorn import start_threaded, stop_threaded

_ROOT_CONFTEST = Path(__file__).resolve().parents[1] / "conftest.py"
_spec = importlib.util.spec_from_file_location("_yanniv_root_conftest", _ROOT_CONFTEST)
assert _spec and _spec.loader
_root = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_root)
CHROMIUM_ARGS: list[str] = _root.CHROMIUM_ARGS

from web_driver import DESKTOP  # noqa: E402  (tests/web is on sys.path, as for any test dir)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    def __init__(self, app: Any, port: int) -> None:
        import uvicorn

        self.app = app
        self.url = f"http://127.0.0.1:{port}"
        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                ws_max_size=64 * 1024, lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        self.thread = start_threaded(self.server)

    def stop(self) -> None:
        assert self.thread is not None
        stop_threaded(self.server, self.thread)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    from yanniv.app import create_app
    from yanniv.server.settings import Settings

    db = tmp_path_factory.mktemp("web") / "yanniv.sqlite3"
    settings = Settings(database_url=f"sqlite:///{db}", flood_rate=10_000.0, flood_burst=10_000,
                        code_lookup_limit=100_000)
    server = LiveServer(create_app(settings), _free_port())
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser(chromium_path: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


class Pages:
    """Browser contexts opened by a test; JavaScript errors are collected and checked."""

    def __init__(self, browser: Any, base: str) -> None:
        self.browser = browser
        self.base = base
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def new(self, viewport: dict[str, int] = DESKTOP) -> Any:
        ctx = self.browser.new_context(viewport=viewport, locale="fr-FR")
        ctx.set_default_timeout(15_000)
        self.contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        return page

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()


@pytest.fixture
def pages(browser: Any, live_server: LiveServer) -> Iterator[Pages]:
    p = Pages(browser, live_server.url)
    yield p
    p.close()
    assert not p.errors, f"JavaScript errors: {p.errors}"


@pytest.fixture(scope="session")
def axe_ready() -> None:
    """axe-core is installed by `npm ci` (tests/web/axe.py); CI must have it."""
    import axe

    if not axe.available():
        _root.skip_or_fail(f"axe-core is not installed ({axe.AXE_JS}): run `npm ci`")
