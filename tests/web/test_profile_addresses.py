"""Profile addresses of awkward pseudos over a real socket: httpx against uvicorn, then
Chromium following the leaderboard's links and setting a password from the profile page.

Browsers resolve a `..` or `.` path segment, `%2E%2E` included, before sending the request,
which is why those two pseudos travel as `?pseudo=` (checked here on Chromium itself).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from tests.profiles.scripted import yanniv_config
from yanniv.profiles.identity import hash_secret
from yanniv.profiles.record import record_finished_match
from yanniv.profiles.types import FinishedManche, FinishedMatch, FinishedPlayer

#: (pseudo, profile page); prefixed "~w" so no other web test uses these pseudos.
PROFILES: list[tuple[str, str]] = [
    ("~wAC/DC", "/profil/~wAC%2FDC"),
    ("..", "/profil?pseudo=.."),
    (".", "/profil?pseudo=."),
    ("~w100%25", "/profil/~w100%2525"),
    ("~wa/../b", "/profil/~wa%2F..%2Fb"),
    ("~w#1?", "/profil/~w%231%3F"),
    ("~w東京 é", "/profil/~w%E6%9D%B1%E4%BA%AC%20%C3%A9"),
]


def secret_of(index: int) -> str:
    return f"web-profile-owner-{index:03d}"


@pytest.fixture(scope="module")
def recorded(live_server: Any) -> list[tuple[str, str]]:
    """One finished match (against a bot) for each pseudo, in the live server's database."""
    when = datetime(2025, 1, 2, 3, 4, tzinfo=UTC)
    with live_server.app.state.db.sessions.begin() as s:
        for i, (pseudo, _page) in enumerate(PROFILES):
            players = (FinishedPlayer(0, pseudo, hash_secret(secret_of(i))),
                       FinishedPlayer(1, "Robot", None, True))
            manche = FinishedManche(1, False, 0, True, 0, (1, 9), (-5, 9), (0, 1))
            record_finished_match(s, FinishedMatch(
                room_code=f"WEBP{i}", seed=str(i), game="yanniv", rules_version="yanniv-2",
                config=yanniv_config(2, 1), started_at=when, finished_at=when,
                players=players, manches=(manche,), totals=(-5, 9), ranking=(0, 1),
            ))
    return PROFILES


def test_addresses_over_a_real_socket(live_server: Any, recorded: list[tuple[str, str]]) -> None:
    with httpx.Client(base_url=live_server.url) as client:
        for pseudo, page in recorded:
            assert client.get(page).status_code == 200, pseudo
            api = client.get(page.replace("/profil", "/api/profiles", 1))
            assert api.status_code == 200 and api.json()["pseudo"] == pseudo
        assert client.get("/api/profiles/~wAC%2FDC").json()["pseudo"] == "~wAC/DC"
        board = client.get("/api/leaderboard", params={"sort": "matches"}).json()["entries"]
        assert {(e["pseudo"], e["url"]) for e in board} >= set(recorded)


@pytest.mark.browser
def test_chromium_follows_every_link(pages: Any, recorded: list[tuple[str, str]]) -> None:
    page = pages.new()
    for pseudo, address in recorded:
        page.goto(pages.base + "/classement?sort=matches")
        page.locator("#leaderboard").get_by_role("link", name=pseudo, exact=True).click()
        page.wait_for_load_state()
        assert page.inner_text("h1") == f"Profil de {pseudo}"
        assert page.url == pages.base + address
    # Why `..` cannot be a path segment: Chromium goes up a folder, encoded or not (home).
    for dots in ("/profil/%2E%2E", "/profil/.%2e", "/profil/.."):
        page.goto(pages.base + dots)
        assert page.url == pages.base + "/"


@pytest.mark.browser
def test_owner_sets_a_password_from_the_page(pages: Any,
                                             recorded: list[tuple[str, str]]) -> None:
    for index, (pseudo, address) in enumerate(recorded[:3]):
        page = pages.new()
        page.context.add_cookies([{"name": "yanniv_owner", "value": secret_of(index),
                                   "url": pages.base}])
        page.goto(pages.base + address)
        page.fill("#new-password", "motdepasse-long")
        page.click("#password-form button")
        # Read in the same evaluation that sees it: the page reloads itself soon after.
        shown = page.wait_for_function(
            "() => document.querySelector('#password-result')?.textContent || null").json_value()
        assert shown == "Mot de passe enregistré.", pseudo
        with httpx.Client(base_url=pages.base) as client:
            api = client.get(address.replace("/profil", "/api/profiles", 1)).json()
        assert api["pseudo"] == pseudo and api["has_password"] is True
