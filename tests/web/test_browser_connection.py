"""A connection the player can trust, in a real Chromium: a network that silently stops
carrying data (a black-hole proxy between the browser and the server) is noticed, shown and
survived with the pending action applied exactly once; the journal comes back when the page
is opened again; the host's quick settings changes never undo each other."""

from __future__ import annotations

import sqlite3
import time
from typing import Any

import pytest
from blackhole import BlackHoleProxy
from web_driver import DESKTOP, _decide, acting, screenshot, state

pytestmark = pytest.mark.browser

HOLE_SECONDS = 15
#: The player's controls on the table: all of them must be disabled while offline.
CONTROLS = "#hand button, #actions button, #pile button, #discard button, #prompt button"
ENABLED_JS = (f"() => [...document.querySelectorAll('{CONTROLS}')]"
              ".filter((b) => !b.disabled).map((b) => b.id || b.dataset.focus || b.textContent)")
ENABLED_CONTROLS_JS = f"() => ({ENABLED_JS})().length"


def _logged(live_server: Any, client_id: str) -> int:
    """How many rows of the server's action log carry this client action id."""
    path = live_server.app.state.settings.database_url.removeprefix("sqlite:///")
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        row = db.execute("SELECT count(*) FROM room_actions WHERE client_id = ?",
                         (client_id,)).fetchone()
    return int(row[0])


def _start_against_a_bot(page: Any, base: str, pseudo: str) -> str:
    page.goto(base + "/")
    page.fill("#pseudo", pseudo)
    page.select_option("#bots-count", "1")
    page.click("#bots-btn")
    page.wait_for_selector('#seats li[data-seat="1"]')
    page.select_option("#set-first", "host")
    page.wait_for_function("() => window.yannivStore.get().room.settings.first_player === 'host'")
    page.click("#start-btn")
    page.wait_for_selector("#hand [data-code]")
    return page.evaluate("() => window.yannivStore.get().room.code")


def _wait_to_act(page: Any, seconds: float = 30) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if acting(page):
            s = state(page)
            assert s is not None
            return s
        page.wait_for_timeout(50)
    raise AssertionError(f"never this seat's decision: {state(page)}")


@pytest.fixture
def fast_bots(live_server: Any) -> Any:
    turns = live_server.app.state.rooms.bot_turns
    turns.delay_scale = 0.15
    yield
    turns.delay_scale = live_server.app.state.settings.bot_delay_scale


@pytest.mark.parametrize("direction", ["both", "down"])
def test_a_black_hole_is_shown_and_the_action_lands_once(pages: Any, live_server: Any,
                                                          fast_bots: Any, direction: str) -> None:
    """`both`: the action sent into the hole never reached the server, it is resent after
    reconnecting and applied then. `down`: the server applied it but its answer was lost; the
    resent copy is answered without being applied again. Either way: one entry in the log."""
    port = int(live_server.url.rsplit(":", 1)[1])
    with BlackHoleProxy(port) as proxy:
        page = pages.new(DESKTOP)
        _start_against_a_bot(page, proxy.url, f"Tunnel{direction}")
        s = _wait_to_act(page)
        assert page.locator("#conn.lost").count() == 0

        proxy.hole(HOLE_SECONDS, direction)
        holed_at = time.monotonic()
        _decide(page, s, s["view"]["pending"]["kind"], [])  # clicked into the hole
        page.wait_for_function("() => window.yannivStore.get().sent")
        client_id = page.evaluate("() => window.yannivStore.get().sent")

        page.wait_for_selector("#conn.lost", timeout=10_000)
        noticed = time.monotonic() - holed_at
        text = page.inner_text("#conn")
        assert "Connexion perdue" in text and "reconnexion" in text
        assert page.evaluate(ENABLED_JS) == [], "every action is disabled"
        assert page.locator("#opponents .dot.unknown").count() == 1
        assert page.locator("#opponents .badge.ok, #opponents .badge.off").count() == 0
        screenshot(page, f"connection-lost-{direction}")
        # What reached the server meanwhile: nothing through a full hole, the action through
        # a hole that only swallows the answers.
        expected_now = 0 if direction == "both" else 1
        deadline = time.monotonic() + 5
        while _logged(live_server, client_id) != expected_now and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _logged(live_server, client_id) == expected_now

        page.wait_for_function(
            "() => { const s = window.yannivStore.get(); return s.connected && !s.sent; }",
            timeout=(HOLE_SECONDS + 25) * 1000)
        recovered = time.monotonic() - holed_at
        assert page.locator("#conn.lost").count() == 0
        print(f"{direction}: banner after {noticed:.1f} s, back after {recovered:.1f} s "
              f"(hole {HOLE_SECONDS} s, {proxy.swallowed} bytes swallowed)")
        assert _logged(live_server, client_id) == 1, "applied exactly once"
        # The game goes on: this seat gets its next decision and its controls back.
        _wait_to_act(page)
        page.wait_for_function(f"() => ({ENABLED_CONTROLS_JS})() > 0")


def _journal(page: Any) -> list[str]:
    return page.eval_on_selector_all("#log li", "(items) => items.map((li) => li.textContent)")


def test_the_journal_survives_closing_the_tab(pages: Any, live_server: Any,
                                              fast_bots: Any) -> None:
    page = pages.new(DESKTOP)
    code = _start_against_a_bot(page, pages.base, "Mémoire")
    for _ in range(12):  # our decisions, the bot's turns in between, until a few lines
        if len(_journal(page)) >= 6:
            break
        s = _wait_to_act(page)
        step = s["view"]["step"]
        _decide(page, s, s["view"]["pending"]["kind"], [])
        page.wait_for_function("(step) => window.yannivStore.get().view.step > step", arg=step)
    _wait_to_act(page)  # our turn: nothing moves while the page is closed
    before = _journal(page)
    assert len(before) >= 6, before
    assert "Manche 1" in before[0] or "manche 1" in before[0], before[0]  # oldest at the top
    context = page.context
    page.close()

    again = context.new_page()  # same browser: the seat token is remembered
    again.goto(f"{pages.base}/r/{code}")
    again.wait_for_function("(n) => document.querySelectorAll('#log li').length >= n",
                            arg=len(before))
    after = _journal(again)
    assert after == before, (before, after)
    at_end = again.eval_on_selector(
        "#log", "(el) => el.scrollHeight - el.scrollTop - el.clientHeight < 2")
    assert at_end, "the journal shows its newest line"
    screenshot(again, "journal-reopened")


def test_two_quick_settings_changes_both_stay(pages: Any, live_server: Any) -> None:
    page = pages.new(DESKTOP)
    # The page's socket goes through the test, which can hold back the room's updates.
    held: dict[str, Any] = {"on": False, "dropped": 0}

    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def down(message: str | bytes) -> None:
            if held["on"] and isinstance(message, str) and '"type":"state"' in message:
                held["dropped"] += 1
                return
            ws.send(message)

        server.on_message(down)
        ws.on_message(server.send)

    page.route_web_socket("**/ws/**", route)
    answers: list[int] = []
    page.on("response", lambda r: answers.append(r.status) if r.url.endswith("/settings")
            else None)
    page.goto(pages.base + "/")
    page.fill("#pseudo", "Réglages")
    page.select_option("#bots-count", "1")
    page.click("#bots-btn")
    page.wait_for_selector('#seats li[data-seat="1"]')
    code = page.evaluate("() => window.yannivStore.get().room.code")
    room = live_server.app.state.rooms.get(code)
    idle = "() => Object.keys(window.yannivStore.get().settingsPending).length === 0"
    for manches, timer in (("2", "30"), ("5", "none"), ("3", "60")):
        page.select_option("#set-manches", manches)  # two changes, the second at once
        page.select_option("#set-timer", timer)
        assert page.input_value("#set-manches") == manches  # shown as chosen meanwhile
        page.wait_for_function(idle)
        wanted_timer = None if timer == "none" else int(timer)
        assert (room.settings.manches, room.settings.timer_seconds) == (int(manches),
                                                                       wanted_timer)
        assert page.input_value("#set-manches") == manches
        assert page.input_value("#set-timer") == timer
    assert 409 not in answers, answers  # one change at a time: none was based on an old one

    # A change made elsewhere (another tab of the host) that this page has not heard of: its
    # next change is refused as stale, the room read again, and only its own field resent.
    held["on"] = True
    token = page.evaluate("() => window.yannivStore.get().me.token")
    other = page.context.request.patch(f"{pages.base}/api/rooms/{code}/settings",
                                       data={"public": True}, headers={"X-Seat-Token": token})
    assert other.ok
    deadline = time.monotonic() + 5
    while not held["dropped"] and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert held["dropped"], "the page missed the other change"
    assert not page.is_checked("#set-public")
    page.select_option("#set-manches", "4")
    page.wait_for_function(idle)
    held["on"] = False
    assert (room.settings.public, room.settings.manches, room.settings.timer_seconds) == (
        True, 4, 60)
    assert answers[-2:] == [409, 200], answers
    assert page.is_checked("#set-public") and page.input_value("#set-manches") == "4"
