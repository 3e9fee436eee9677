"""The pages around the second game, in real Chromium at phone and desktop size: the home
page creates a room of the chosen game (classic Yaniv lands in a Yaniv lobby with Yaniv's
settings), the host switches a waiting room's game (others read it), the rules page and the
leaderboard switch between games, each game under its own address. Screenshots go to
/tmp/yanivpages/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from web_driver import DESKTOP

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/yanivpages")
PHONE = {"width": 390, "height": 844}
SIZES = {"phone": PHONE, "desktop": DESKTOP}


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _room(live_server: Any, code: str) -> dict[str, Any]:
    return httpx.get(f"{live_server.url}/api/rooms/{code}").json()


@pytest.mark.parametrize("size", list(SIZES))
def test_a_yaniv_room_created_from_the_home_page(pages: Any, live_server: Any,
                                                size: str) -> None:
    page = pages.new(SIZES[size])
    page.goto(pages.base + "/")
    # The tagline counts the seats of every game (classic Yaniv seats 8), not YANNIV's 4.
    assert "de 2 à 8 joueurs" in page.inner_text(".hero")
    page.wait_for_selector("#create-btn:not([disabled])")
    assert page.input_value("#game") == "yanniv"
    assert page.locator("#bots-count option").count() == 3
    page.fill("#pseudo", "Amandine")
    page.select_option("#game", "yaniv")
    # The rules link and the computer players follow the game: 7 opponents, its two levels.
    assert page.get_attribute("#game-rules", "href") == "/regles/yaniv"
    assert "Règles\u00a0: Yaniv" in page.inner_text("#game-rules")
    assert page.locator("#bots-count option").count() == 7
    assert page.eval_on_selector_all("#bots-level option", "os => os.map(o => o.value)") == [
        "facile", "moyen"]
    _shot(page, f"home-yaniv-{size}")
    page.check('input[name=visibility][value=public]')
    page.click("#create-btn")
    page.wait_for_selector("#room-code")
    code = page.inner_text("#room-code")
    assert _room(live_server, code)["settings"]["game"] == "yaniv"
    # Yaniv's lobby: eight seats, its own settings, its threshold typed in a number field.
    assert page.locator("#seats li").count() == 8
    assert page.input_value("#set-game") == "yaniv"
    assert page.get_attribute("#set-threshold", "type") == "number"
    assert page.get_attribute("#set-threshold", "min") == "50"
    assert page.get_attribute("#set-threshold", "max") == "200"
    assert page.input_value("#set-threshold") == "200"
    assert page.is_visible("#set-two-decks") and page.is_visible("#set-elimination")
    assert page.locator("#set-manches").count() == 0
    assert page.get_attribute("#game-rules", "href") == "/regles/yaniv"
    page.fill("#set-threshold", "150")
    page.press("#set-threshold", "Enter")
    page.wait_for_function(
        "() => window.yannivStore.get().room?.settings?.threshold === 150")
    _shot(page, f"lobby-yaniv-{size}")
    # A value out of bounds is refused by the server, which says why; nothing changes.
    page.fill("#set-threshold", "20")
    page.press("#set-threshold", "Enter")
    page.wait_for_selector("#toast:not([hidden])")
    assert "50" in page.inner_text("#toast")
    assert _room(live_server, code)["settings"]["threshold"] == 150
    page.wait_for_function("() => document.querySelector('#set-threshold').value === '150'")
    # The public room is listed on the home page under its game.
    other = pages.new(SIZES[size])
    other.goto(pages.base + "/")
    row = other.locator(f'#public-rooms li[data-code="{code}"]')
    row.wait_for()
    assert "Yaniv ·" in row.inner_text()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_host_switches_the_game_and_a_guest_reads_it(pages: Any, live_server: Any,
                                                         size: str) -> None:
    host = pages.new(SIZES[size])
    host.goto(pages.base + "/")
    host.fill("#pseudo", "Bérénice")
    host.wait_for_selector("#create-btn:not([disabled])")
    host.click("#create-btn")
    host.wait_for_selector("#room-code")
    code = host.inner_text("#room-code")
    assert host.locator("#seats li").count() == 4 and host.is_visible("#set-manches")
    guest = pages.new(SIZES[size])
    guest.goto(pages.base + "/")
    guest.fill("#pseudo", "Côme")
    guest.fill("#join-code", code)
    guest.wait_for_selector("#join-btn:not([disabled])")
    guest.click("#join-btn")
    guest.wait_for_selector("#waiting-host")
    assert guest.is_disabled("#set-game")

    host.select_option("#set-game", "yaniv")
    host.wait_for_function("() => window.yannivStore.get().room?.settings?.game === 'yaniv'")
    host.wait_for_selector("#set-threshold")
    assert host.locator("#seats li").count() == 8 and host.locator("#set-manches").count() == 0
    # The guest's lobby follows: the game read-only, Yaniv's settings, its rules link.
    guest.wait_for_function("() => document.querySelector('#set-game').value === 'yaniv'")
    guest.wait_for_selector("#set-threshold[disabled]")
    assert guest.get_attribute("#game-rules", "href") == "/regles/yaniv"
    _shot(host, f"switch-host-{size}")
    _shot(guest, f"switch-guest-{size}")

    # Five seated: YANNIV (4 seats at most) is offered but off.
    for seated in (3, 4, 5):
        host.click("#seats li.free button[id^=add-bot]")
        host.wait_for_function("(n) => window.yannivStore.get().room.seats.length === n",
                               arg=seated)
    # Waited for, not read at once: the store changes before the page draws it.
    yanniv = "document.querySelector('#set-game option[value=yanniv]')"
    host.wait_for_function(f"() => {yanniv}.disabled", timeout=10_000)
    host.click('#seats li[data-seat="4"] button.danger')
    host.wait_for_function("() => window.yannivStore.get().room.seats.length === 4")
    host.wait_for_function(f"() => !{yanniv}.disabled", timeout=10_000)
    host.select_option("#set-game", "yanniv")
    host.wait_for_selector("#set-manches")
    assert _room(live_server, code)["settings"]["game"] == "yanniv"
    assert host.locator("#seats li").count() == 4


@pytest.mark.parametrize("size", list(SIZES))
def test_the_rules_page_switches_between_the_games(pages: Any, size: str) -> None:
    page = pages.new(SIZES[size])
    page.goto(pages.base + "/regles")
    assert page.get_attribute('.game-switch a[aria-current="page"]', "href") == "/regles"
    assert "YANNIV — Règles" in page.inner_text("h1")
    page.click('.game-switch a[href="/regles/yaniv"]')
    page.wait_for_url(pages.base + "/regles/yaniv")
    assert page.inner_text("h1") == "Yaniv — Règles"
    assert page.title() == "Yaniv — Règles du jeu"
    assert page.get_attribute('.game-switch a[aria-current="page"]', "href") == "/regles/yaniv"
    # Its example cards are drawn, without YANNIV's power star.
    page.wait_for_selector(".rules .card.mini[role=img]")
    assert page.locator("[data-card]").count() == 0
    assert page.locator('.rules .card.mini[aria-label="4 de cœur"]').count() >= 1
    assert page.locator(".rules .card.mini .power").count() == 0
    _shot(page, f"rules-yaniv-{size}")
    # English, then back to YANNIV.
    page.click(".lang-switch")
    page.wait_for_url(pages.base + "/regles/yaniv")
    assert page.inner_text("h1") == "Yaniv — Rules"
    page.click('.game-switch a[href="/regles"]')
    page.wait_for_url(pages.base + "/regles")
    assert "YANNIV — Rules" in page.inner_text("h1")
    assert page.locator(".rules .card.mini").count() >= 16
    assert page.locator(".rules .card.mini .power").count() > 0  # YANNIV's power cards


def _record_yaniv_match(live_server: Any) -> None:
    """A finished classic Yaniv match (once per server): Yanivette beat a computer."""
    if getattr(live_server, "yaniv_match", False):
        return
    live_server.yaniv_match = True
    from datetime import UTC, datetime, timedelta

    from yanniv.profiles.identity import hash_secret
    from yanniv.profiles.record import record_finished_match
    from yanniv.profiles.types import FinishedManche, FinishedMatch, FinishedPlayer

    t0 = datetime(2025, 5, 2, 21, 0, tzinfo=UTC)
    match = FinishedMatch(
        room_code="YANIVS", seed="yaniv", game="yaniv", rules_version="yaniv-1",
        config={"seats": 2, "decks": 1, "threshold": 50, "elimination": False,
                "first_player": None},
        started_at=t0, finished_at=t0 + timedelta(minutes=9),
        players=(FinishedPlayer(0, "Yanivette", hash_secret("secret-of-yanivette-01")),
                 FinishedPlayer(1, "Ordinateur 2 (moyen)", None, is_bot=True)),
        manches=(FinishedManche(1, False, 0, True, 0, (3, 58), (0, 58), (0, 1)),),
        totals=(0, 58), ranking=(0, 1))
    with live_server.app.state.db.sessions.begin() as session:
        record_finished_match(session, match)


@pytest.mark.parametrize("size", list(SIZES))
def test_the_leaderboard_switches_between_the_games(pages: Any, live_server: Any,
                                                    size: str) -> None:
    from test_accessibility import _record_match

    _record_match(live_server)  # a YANNIV match: Lisible is on YANNIV's board only
    _record_yaniv_match(live_server)  # and Yanivette on Yaniv's only
    page = pages.new(SIZES[size])
    page.goto(pages.base + "/classement?sort=matches")
    assert page.get_attribute('.game-switch a[aria-current="page"]', "href") == (
        "/classement?game=yanniv")
    board = page.inner_text("#leaderboard")
    assert "Lisible" in board and "Yanivette" not in board
    page.click('.game-switch a[href="/classement?game=yaniv"]')
    page.wait_for_url(pages.base + "/classement?game=yaniv")
    assert page.get_attribute('.game-switch a[aria-current="page"]', "href") == (
        "/classement?game=yaniv")
    # The sort links stay on the chosen game.
    assert page.locator('.board-sort a[href^="/classement?game=yaniv&sort="]').count() == 3
    page.click('.board-sort a[href="/classement?game=yaniv&sort=matches"]')
    page.wait_for_url(pages.base + "/classement?game=yaniv&sort=matches")
    board = page.inner_text("#leaderboard")
    assert "Yanivette" in board and "Lisible" not in board
    _shot(page, f"board-yaniv-{size}")
    # Each profile shows its own game's rating and statistics, and its matches' game.
    page.click('#leaderboard a:has-text("Yanivette")')
    page.wait_for_selector('section[data-game="yaniv"]')
    assert page.locator('section[data-game="yanniv"]').count() == 0
    assert page.inner_text("#last-matches .match-game") == "Yaniv"
    assert page.inner_text('section[data-game="yaniv"] h2') == "Yaniv"
    page.goto(pages.base + "/profil/Lisible")
    assert page.locator('section[data-game="yanniv"]').count() == 1
    assert page.locator('section[data-game="yaniv"]').count() == 0
    assert page.inner_text("#last-matches .match-game") == "YANNIV"


def test_playing_yaniv_against_the_computer_from_the_home_page(pages: Any,
                                                              live_server: Any) -> None:
    """The computer players follow the chosen game: five of Yaniv's « facile » sit."""
    page = pages.new(DESKTOP)
    page.goto(pages.base + "/")
    page.fill("#pseudo", "Ysée")
    page.select_option("#game", "yaniv")
    page.select_option("#bots-count", "5")
    page.select_option("#bots-level", "facile")
    page.wait_for_selector("#bots-btn:not([disabled])")
    page.click("#bots-btn")
    page.wait_for_selector('#seats li[data-seat="5"]')
    room = _room(live_server, page.inner_text("#room-code"))
    assert room["settings"]["game"] == "yaniv"
    assert [s["bot_level"] for s in room["seats"]] == [None] + ["facile"] * 5
    # Back to YANNIV on the home page: at most 3 opponents again, the choice cut to fit.
    page.goto(pages.base + "/")
    page.select_option("#game", "yaniv")
    page.select_option("#bots-count", "6")
    page.select_option("#game", "yanniv")
    assert page.input_value("#bots-count") == "3"
    assert page.locator("#bots-level option").count() == 3
