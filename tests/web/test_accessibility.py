"""axe-core (tests/web/axe.py) on every page but the table's states (test_table_a11y.py), in
real Chromium, on a phone and a laptop, in French and English: no serious or critical
violation (contrast WCAG AA, names and labels, one h1, landmarks, scrollable regions reachable
by keyboard)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import axe
import pytest

pytestmark = pytest.mark.browser

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}


def _record_match(live_server: Any) -> None:
    """A finished match (once per server), so that the profile and the leaderboard have
    rows to show."""
    if getattr(live_server, "axe_match", False):
        return
    live_server.axe_match = True
    from tests.profiles.scripted import yanniv_config
    from yanniv.profiles.identity import hash_secret
    from yanniv.profiles.record import record_finished_match
    from yanniv.profiles.types import FinishedManche, FinishedMatch, FinishedPlayer

    t0 = datetime(2025, 4, 1, 20, 0, tzinfo=UTC)
    match = FinishedMatch(
        room_code="AXECHK", seed="axe", game="yanniv", rules_version="yanniv-2",
        config=yanniv_config(3, 1), started_at=t0, finished_at=t0 + timedelta(minutes=20),
        players=(FinishedPlayer(0, "Lisible", hash_secret("secret-of-lisible-0123")),
                 FinishedPlayer(1, "Contraste", hash_secret("secret-of-contraste-01")),
                 FinishedPlayer(2, "Ordinateur 2 (moyen)", None, is_bot=True)),
        manches=(FinishedManche(1, False, 0, True, 0, (2, 17, 9), (-5, 17, 9), (0, 1, 2)),),
        totals=(-5, 17, 9), ranking=(0, 2, 1))
    with live_server.app.state.db.sessions.begin() as session:
        record_finished_match(session, match)


def _check(page: Any, where: str, failures: list[str]) -> None:
    found = axe.violations(page)
    if found:
        failures.append(f"--- {where}\n{axe.describe(found)}")


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_pages_have_no_serious_accessibility_violation(pages: Any, live_server: Any,
                                                       axe_ready: None, size: str,
                                                       lang: str) -> None:
    _record_match(live_server)
    failures: list[str] = []
    host = pages.new(VIEWPORTS[size])
    host.context.add_cookies([{"name": "lang", "value": lang, "url": pages.base}])
    # The host's lobby of a public room (settings enabled, seats, a computer player); the
    # room, with its host connected, is then listed on everyone's home page.
    host.goto(pages.base + "/")
    host.fill("#pseudo", "Hôte")
    host.check('input[name=visibility][value=public]')
    host.click("#create-btn")
    host.wait_for_selector("#room-code")
    code = host.inner_text("#room-code")
    host.click("#add-bot-1")
    host.wait_for_selector('#seats li[data-seat="1"]')
    _check(host, f"lobby (host) {size} {lang}", failures)
    # The same lobby switched to classic Yaniv: its settings, its threshold a number field.
    host.select_option("#set-game", "yaniv")
    host.wait_for_selector("#set-threshold")
    _check(host, f"Yaniv lobby (host) {size} {lang}", failures)

    page = pages.new(VIEWPORTS[size])
    page.context.add_cookies([{"name": "lang", "value": lang, "url": pages.base}])
    for path in ("/", "/regles", "/regles/yaniv", "/classement", "/classement?game=yaniv",
                 "/profil/Lisible", "/profil/Personne", f"/r/{code}"):
        page.goto(pages.base + path)
        page.wait_for_selector("h1")
        if path == "/":
            page.wait_for_selector("#public-rooms li")
        page.wait_for_load_state("networkidle")
        _check(page, f"{path} {size} {lang}", failures)
        if path == "/profil/Lisible":
            # The computer player of the match is named in the page's language.
            bot = "Ordinateur 2 (moyen)" if lang == "fr" else "Computer 2 (medium)"
            assert bot in page.inner_text("#last-matches")
            page.click('#last-matches a[href^="/match/"]')
            page.wait_for_selector("#match-sheet")
            assert bot in page.inner_text("#match-ranking")
            assert bot in page.inner_text("#match-sheet")
            _check(page, f"match {size} {lang}", failures)
    assert not failures, "\n".join(failures)


def test_the_axe_helper_reports_what_it_should(pages: Any, axe_ready: None) -> None:
    """The helper itself: a page made to fail (low contrast, an unnamed image) is reported,
    and a moderate-only one is not, unless asked for."""
    page = pages.new(VIEWPORTS["laptop"])
    page.set_content('<html lang="fr"><head><title>t</title></head><body><main><h1>t</h1>'
                     '<p style="color:#777;background:#888">gris</p><img src="data:,">'
                     '</main></body></html>')
    ids = {v["id"] for v in axe.violations(page)}
    assert {"color-contrast", "image-alt"} <= ids, ids
    page.set_content('<html lang="fr"><head><title>t</title></head><body><h1>t</h1></body></html>')
    assert axe.violations(page) == []
    assert "region" in {v["id"] for v in axe.violations(page, ("moderate",))}


WIDE_JS = """() => [...document.querySelectorAll('body *')]
  .filter((e) => !e.parentElement.closest('.table-wrap'))
  .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
  .slice(0, 5).map((e) => `${e.tagName}.${e.className}`)"""


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_pages_fit_a_320_px_screen(pages: Any, live_server: Any, axe_ready: None,
                                   lang: str) -> None:
    """Nothing scrolls sideways on the narrowest phone (the rules page was 899 px wide); a
    wide table scrolls in its own box, which the keyboard reaches (axe checks it)."""
    _record_match(live_server)
    failures: list[str] = []
    page = pages.new({"width": 320, "height": 640})
    page.context.add_cookies([{"name": "lang", "value": lang, "url": pages.base}])
    for path in ("/", "/regles", "/regles/yaniv", "/classement", "/classement?game=yaniv",
                 "/profil/Lisible", "/r/ABCDEF"):
        page.goto(pages.base + path)
        page.wait_for_load_state("networkidle")
        assert page.evaluate("document.documentElement.scrollWidth") <= 320, path
        assert page.evaluate(WIDE_JS) == [], path
        _check(page, f"{path} 320 {lang}", failures)
        if path == "/profil/Lisible":
            page.click('#last-matches a[href^="/match/"]')
            page.wait_for_selector("#match-sheet")
            assert page.evaluate("document.documentElement.scrollWidth") <= 320, "match"
            assert page.evaluate(WIDE_JS) == [], "match"
            _check(page, f"match 320 {lang}", failures)
    assert not failures, "\n".join(failures)
    page.goto(pages.base + "/regles")
    page.wait_for_load_state("networkidle")
    # rules.js drew every example card, named as the server named it.
    assert page.locator("[data-card]").count() == 0
    assert page.locator(".rules .card.mini[role=img]").count() >= 16
    queen = "Dame de cœur" if lang == "fr" else "Queen of hearts"
    assert page.locator(f'.rules .card.mini[aria-label="{queen}"]').count() >= 1


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_table_in_its_turn_state(pages: Any, live_server: Any, axe_ready: None,
                                 size: str) -> None:
    """The table when it is my turn against the computer (every other table state, rigged:
    tests/web/test_table_a11y.py)."""
    turns = live_server.app.state.rooms.bot_turns
    page = pages.new(VIEWPORTS[size])
    page.goto(pages.base + "/")
    page.fill("#pseudo", "Axe")
    page.select_option("#bots-count", "2")
    page.click("#bots-btn")
    page.wait_for_selector('#seats li[data-seat="2"]')
    page.select_option("#set-first", "host")
    # The server's answer, not the select's own value: else a bot could start, and wait.
    page.wait_for_function(
        "() => window.yannivStore.get().room.settings.first_player === 'host'")
    previous = turns.delay_scale
    turns.delay_scale = 100.0  # the bots wait: the state stays mine while axe looks
    try:
        page.click("#start-btn")
        page.wait_for_selector("#hand button[data-code]:not([disabled])")
        page.wait_for_load_state("networkidle")
        found = axe.violations(page)
        # The journal and the scores scroll once long: the keyboard must reach them then
        # (axe flags a scrolling box only while it scrolls).
        for box in ("#log", "#scores"):
            assert page.get_attribute(box, "tabindex") == "0", box
    finally:
        turns.delay_scale = previous
    assert not found, axe.describe(found)
