"""Delivery: text responses travel compressed; every script, style and dictionary a page
references has a content-hashed URL kept for a year (a changed file gets a new one), the plain
paths stay revalidated; a second load of the table asks the network for no static file, and a
cold first load of the table, seated, stays under 150 KB on the wire."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from fastapi.testclient import TestClient
from web_driver import PHONE

from yanniv.lang import COOKIE

BUDGET = 150 * 1024


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """The whole app as `yanniv serve` composes it (middlewares included)."""
    from yanniv.app import create_app
    from yanniv.server.settings import Settings

    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'delivery.sqlite3'}"))
    with TestClient(app) as test_client:
        yield test_client


def test_plain_static_paths_are_compressed_and_revalidated(client: TestClient) -> None:
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


#: A content-hashed URL: the name, 12 hex digits, the extension.
HASHED = re.compile(r"^/(static|i18n)/.+\.(?P<digest>[0-9a-f]{12})\.(js|css|json)$")
YEAR = "max-age=31536000"


class References(HTMLParser):
    """What a page makes the browser fetch: scripts, stylesheets, preloads and icons (not
    the inline ones), and the URLs its import map sends modules to."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.import_map: dict[str, str] = {}
        self.preloaded_modules: list[str] = []
        self._in_map = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "script" and a.get("type") == "importmap":
            self._in_map = True
        url = a.get("src") if tag in ("script", "img") else a.get("href") if tag == "link" else None
        if url and not url.startswith("data:"):
            self.urls.append(url)
            if a.get("rel") == "modulepreload":
                self.preloaded_modules.append(url)

    def handle_data(self, data: str) -> None:
        if self._in_map:
            self.import_map.update(json.loads(data)["imports"])

    def handle_endtag(self, tag: str) -> None:
        self._in_map = False


def references(html: str) -> References:
    found = References()
    found.feed(html)
    return found


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_static_url_of_a_page_is_hashed_compressed_and_immutable(
        client: TestClient, lang: str) -> None:
    client.cookies.set(COOKIE, lang)
    seen: set[str] = set()
    for page in ("/", "/r/ABCDEF", "/regles", "/classement"):
        found = references(client.get(page).text)
        urls = [*found.urls, *found.import_map.values()]
        assert any(u.endswith(".css") for u in urls), page
        if page == "/r/ABCDEF":  # the table: its modules and the dictionary
            assert len(found.preloaded_modules) >= 10 and any("/i18n/" in u for u in urls)
            assert set(found.preloaded_modules) <= set(found.import_map.values())
        for url in urls:
            match = HASHED.match(url)
            assert match, f"{page}: {url} is not content-hashed"
            if url in seen:
                continue
            seen.add(url)
            for encoding in ("gzip", "br"):
                answer = client.get(url, headers={"Accept-Encoding": encoding})
                assert answer.status_code == 200, url
                assert answer.headers.get("content-encoding") == encoding, url
                cache = answer.headers["cache-control"]
                assert "public" in cache and YEAR in cache and "immutable" in cache, url
                # The hash names these very bytes (the test hashes them itself).
                assert hashlib.sha256(answer.content).hexdigest()[:12] == match["digest"], url
        for plain, hashed in found.import_map.items():
            assert client.get(plain).content == client.get(hashed).content, plain


def test_templates_name_static_files_only_through_their_hash() -> None:
    """Pages the header test does not open (a profile, a match) are covered here: no template
    writes a static path itself; `static_url()` and `entry_module` give the hashed ones."""
    templates = Path(__file__).resolve().parents[2] / "web" / "templates"
    for template in templates.glob("*.html"):
        text = template.read_text(encoding="utf-8")
        assert not re.search(r"""["'(]/(static|i18n)/""", text), template.name


def test_the_dictionary_is_a_cached_file_not_inlined(client: TestClient) -> None:
    fr = json.loads((Path(__file__).resolve().parents[2] / "web/i18n/fr.json").read_text("utf-8"))
    page = client.get("/r/ABCDEF").text
    assert fr["table.your_hand"] not in page.split("<main", 1)[0]  # nothing inlined in <head>
    assert "i18n-data" in page and 'type="application/json"' not in page
    [url] = [u for u in references(page).urls if u.startswith("/i18n/")]
    assert client.get(url).json() == fr
    assert client.get("/i18n/fr.json").headers["cache-control"] == "no-cache"
    assert client.get("/i18n/fr.000000000000.json").status_code == 404


def test_a_changed_file_gets_a_new_url_and_its_old_url_is_gone(tmp_path: Path) -> None:
    from fastapi import FastAPI

    from yanniv.webapp.pages import mount_static

    (tmp_path / "js").mkdir()
    module = tmp_path / "js" / "a.js"
    module.write_text("export const a = 1;\n")
    app = FastAPI()
    mount_static(app, tmp_path)
    with TestClient(app) as test_client:
        assets = app.state.static_assets
        first = assets.url("js/a.js")
        assert HASHED.match(first) and test_client.get(first).text == "export const a = 1;\n"
        module.write_text("export const a = 22;\n")
        second = assets.url("js/a.js")
        assert second != first and HASHED.match(second)
        fresh = test_client.get(second)
        assert fresh.text == "export const a = 22;\n"
        assert "immutable" in fresh.headers["cache-control"]
        assert test_client.get(first).status_code == 404  # never the new bytes under the old name
        plain = test_client.get("/static/js/a.js")
        assert plain.text == "export const a = 22;\n"
        assert plain.headers["cache-control"] == "no-cache"


def test_the_preloaded_graph_is_read_from_the_modules_imports(tmp_path: Path) -> None:
    from yanniv.webapp.assets import StaticAssets

    files = {
        "js/main.js": "import { a } from './a.js';\nimport {\n  b,\n} from \"./sub/b.js\";\n"
                      "// import { z } from './z.js';\nconst text = 'from here';\n",
        "js/a.js": "export const a = 1;\n",
        "js/sub/b.js": "import '../c.js';\nexport { a as b } from '../a.js';\n",
        "js/c.js": "",
        "js/z.js": "",
        "js/broken.js": "import { y } from './missing.js';\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assets = StaticAssets(tmp_path)
    assert assets.graph("js/main.js") == ["js/main.js", "js/a.js", "js/sub/b.js", "js/c.js"]
    with pytest.raises(ValueError, match=r"missing\.js"):
        assets.graph("js/broken.js")


def _started_table(live_server: Any) -> tuple[str, str]:
    """A room playing against one bot: its code and the host's seat token."""
    created = httpx.post(f"{live_server.url}/api/rooms", json={"pseudo": "Octets"}).json()
    code, token = created["code"], created["token"]
    host = {"X-Seat-Token": token}
    assert httpx.post(f"{live_server.url}/api/rooms/{code}/bots", json={"level": "facile"},
                      headers=host).status_code == 200
    assert httpx.post(f"{live_server.url}/api/rooms/{code}/start", headers=host).status_code == 200
    return code, token


def _seated_page(pages: Any, code: str, token: str) -> Any:
    page = pages.new(PHONE)  # a fresh context: empty cache
    seat = json.dumps({"seat": 0, "token": token})
    page.context.add_init_script(
        f"localStorage.setItem('yanniv.seat.{code}', {json.dumps(seat)});")
    return page


def test_a_second_table_load_fetches_no_static_file_from_the_network(
        pages: Any, live_server: Any) -> None:
    code, token = _started_table(live_server)
    page = _seated_page(pages, code, token)
    # Chromium's own account of each request: sent, answered from its cache, or by the server.
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    sent: dict[str, str] = {}
    from_cache: set[str] = set()
    cdp.on("Network.requestWillBeSent",
           lambda e: sent.setdefault(e["requestId"], e["request"]["url"]))
    cdp.on("Network.requestServedFromCache", lambda e: from_cache.add(e["requestId"]))
    cdp.on("Network.responseReceived",
           lambda e: e["response"].get("fromDiskCache") and from_cache.add(e["requestId"]))

    def load() -> tuple[list[str], list[str]]:
        sent.clear()
        from_cache.clear()
        page.goto(f"{live_server.url}/r/{code}")
        page.wait_for_selector("#hand [data-code]")
        page.wait_for_load_state("networkidle")
        static = {rid: urlsplit(url).path for rid, url in sent.items()
                  if urlsplit(url).path.startswith(("/static/", "/i18n/"))}
        network = [path for rid, path in static.items() if rid not in from_cache]
        return sorted(static.values()), sorted(network)

    first, first_network = load()
    assert first == first_network and len(first) >= 10, first  # cold: all of it from the server
    assert all(HASHED.match(path) for path in first), first  # the import map reached every module
    preloaded = page.eval_on_selector_all('link[rel="modulepreload"]', "ls => ls.map(l => l.href)")
    modules = sorted(p for p in first if p.endswith(".js"))
    assert sorted(urlsplit(u).path for u in preloaded) == modules  # preloaded = what was loaded
    again, again_network = load()
    assert again == first, again  # the same URLs (nothing changed)
    assert again_network == [], again_network


def test_cold_table_load_is_under_150_kb_on_the_wire(pages: Any, live_server: Any) -> None:
    code, token = _started_table(live_server)
    page = _seated_page(pages, code, token)
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
    # Every file the page references was counted (the page, its styles, modules, dictionary).
    wanted = page.eval_on_selector_all('link[rel="modulepreload"], link[rel="stylesheet"], '
                                       "#i18n-data", "ls => ls.map(l => l.href)")
    counted = {url for url, _ in sizes}
    assert len(wanted) >= 10 and set(wanted) <= counted, set(wanted) - counted
    assert total <= BUDGET, sorted(sizes, key=lambda s: -s[1])[:5]
