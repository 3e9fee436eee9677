"""A real browser plays against the computer: home button → lobby with bots → a match."""

from __future__ import annotations

import time
from typing import Any

import pytest
from web_driver import DESKTOP, acting, play_one, screenshot, state

pytestmark = pytest.mark.browser


def test_play_against_the_computer(pages: Any, live_server: Any) -> None:
    turns = live_server.app.state.rooms.bot_turns
    turns.delay_scale = 0.15  # bots keep a short human-like pause, the test stays quick
    try:
        page = pages.new(DESKTOP)
        page.goto(pages.base + "/")
        page.fill("#pseudo", "Solo")
        assert page.input_value("#bots-count") == "3"
        assert page.input_value("#bots-level") == "moyen"
        page.click("#bots-btn")
        page.wait_for_selector('#seats li[data-seat="3"]')
        seats = page.inner_text("#seats")
        assert "Ordinateur (moyen)" in seats and "Ordinateur 3 (moyen)" in seats
        assert seats.count("ordinateur") == 3  # the badge, after its robot icon
        assert page.locator("#seats .badge svg.icon").count() == 3
        assert page.locator("#add-bot-3").count() == 0  # the room is full
        # The host swaps the last bot for an easier one, then starts (first player: the host).
        page.click('[data-focus="kick-3"]')
        page.wait_for_selector("#add-bot-3")
        page.select_option("#bot-level-3", "facile")
        page.click("#add-bot-3")
        page.wait_for_selector('#seats li[data-seat="3"]')
        assert "Ordinateur (facile)" in page.inner_text("#seats")
        page.select_option("#set-first", "host")
        page.wait_for_function("() => document.querySelector('#set-first').value === 'host'")
        screenshot(page, "lobby-bots")
        # In English the same seats read as computers in English (the server's pseudos are
        # French; the client names a bot from its level and number).
        page.context.add_cookies([{"name": "lang", "value": "en", "url": pages.base}])
        page.reload()
        page.wait_for_selector('#seats li[data-seat="3"]')
        english = page.inner_text("#seats")
        for name in ("Computer (medium)", "Computer 2 (medium)", "Computer (easy)"):
            assert name in english, english
        assert "Ordinateur" not in english and "Ordinateur" not in page.inner_text("#set-first")
        page.context.add_cookies([{"name": "lang", "value": "fr", "url": pages.base}])
        page.reload()
        page.wait_for_selector('#seats li[data-seat="3"]')
        page.click("#start-btn")
        page.wait_for_selector("#hand [data-code]")
        assert page.inner_text("#opponents").count("ordinateur") == 3

        # The human plays; the turn goes round the three bots and comes back.
        kinds: list[str] = []
        turns_seen: list[int] = []
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline:
            s = state(page)
            view = s["view"] if s else None
            if view and (not turns_seen or turns_seen[-1] != view["turn"]):
                turns_seen.append(view["turn"])
            if {1, 2, 3} <= set(turns_seen) and turns_seen[-1] == 0:
                break
            if acting(page):
                play_one(page, kinds)
            else:
                page.wait_for_timeout(50)
        assert {1, 2, 3} <= set(turns_seen) and turns_seen[-1] == 0, turns_seen
        screenshot(page, "table-bots")
    finally:
        turns.delay_scale = live_server.app.state.settings.bot_delay_scale
