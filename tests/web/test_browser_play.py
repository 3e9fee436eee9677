"""Real browsers on the real app: create, join by link and by code, settings, a full manche."""

from __future__ import annotations

import time
from typing import Any

import pytest
from web_driver import DESKTOP, PHONE, POWER_KINDS, acting, play_one, screenshot, state

pytestmark = pytest.mark.browser

#: A seed whose first manche, played by the driver, holds power decisions and a YANNIV call.
SEED = "web-test-1"


def _hand(page: Any) -> list[str]:
    return page.locator("#hand [data-code]").evaluate_all("els => els.map(e => e.dataset.code)")


def test_public_room_appears_on_another_home(pages: Any) -> None:
    watcher = pages.new(PHONE)
    watcher.goto(pages.base + "/")
    watcher.wait_for_selector("#no-rooms:not([hidden])")
    host = pages.new(DESKTOP)
    host.goto(pages.base + "/")
    host.fill("#pseudo", "Publique")
    host.check("input[name=visibility][value=public]")
    host.click("#create-btn")
    host.wait_for_selector("#room-code")
    code = host.inner_text("#room-code")
    # The watcher's list refreshes by itself (pushed on the lobby socket), no reload.
    watcher.wait_for_selector(f'#public-rooms li[data-code="{code}"]', timeout=10_000)
    assert watcher.locator("#no-rooms").is_hidden()
    watcher.fill("#pseudo", "Passant")
    watcher.click(f'#public-rooms li[data-code="{code}"] button')
    watcher.wait_for_selector("#waiting-host")
    host.wait_for_selector('#seats li[data-seat="1"]')
    assert "Passant" in host.inner_text("#seats")


def test_full_manche_in_three_browsers(pages: Any, live_server: Any) -> None:
    live_server.app.state.rooms.seed_factory = lambda: SEED
    host = pages.new(DESKTOP)
    host.goto(pages.base + "/")
    host.wait_for_selector("#create-btn")
    screenshot(host, "home-desktop")
    host.fill("#pseudo", "Léa")
    host.click("#create-btn")  # private by default
    host.wait_for_selector("#room-code")
    code = host.inner_text("#room-code")
    link = host.input_value("#room-link")
    assert link.endswith(f"/r/{code}")

    # Second player: opens the invitation link on a phone.
    phone = pages.new(PHONE)
    phone.goto(link)
    phone.fill("#join-pseudo", "Hugo")
    with phone.expect_navigation():  # a seated join reloads the room page
        phone.click("#join-room-btn")
    phone.wait_for_selector("#waiting-host")
    assert phone.inner_text("#waiting-host") == "En attente du lancement par l'hôte…"

    # Third player: types the code on the home page.
    third = pages.new(DESKTOP)
    third.goto(pages.base + "/")
    screenshot_home_phone = pages.new(PHONE)
    screenshot_home_phone.goto(pages.base + "/")
    screenshot_home_phone.wait_for_timeout(400)
    screenshot(screenshot_home_phone, "home-phone")
    third.fill("#pseudo", "Zoé")
    third.fill("#join-code", code.lower())
    third.click("#join-btn")
    third.wait_for_selector("#waiting-host")

    host.wait_for_selector('#seats li[data-seat="2"]')
    # Others see the settings read-only; the host changes them.
    assert phone.locator("#set-manches").is_disabled()
    host.select_option("#set-manches", "2")
    phone.wait_for_function("() => document.querySelector('#set-manches').value === '2'")
    host.check("#set-log")
    host.check("#set-known")
    host.select_option("#set-first", "host")
    phone.wait_for_function("() => document.querySelector('#set-first').value === 'host'")
    screenshot(host, "lobby-desktop")
    screenshot(phone, "lobby-phone")
    host.click("#start-btn")

    players = [host, phone, third]
    for p in players:
        p.wait_for_selector("#hand [data-code]")
    assert host.inner_text("#turn-line") == "À vous de jouer\u202f!"  # French spacing
    screenshot(host, "table-desktop")
    screenshot(phone, "table-phone")

    kinds: list[str] = []
    reloaded = False
    deadline = time.monotonic() + 150
    while True:
        s = state(host)
        if s and s["view"] and s["view"]["last_result"]:
            break
        assert time.monotonic() < deadline, f"manche did not end; decisions: {kinds}"
        mover = next((p for p in players if acting(p)), None)
        if mover is None:
            time.sleep(0.05)
            continue
        play_one(mover, kinds)
        if not reloaded and len(kinds) >= 6:
            # A reload mid-manche keeps the seat and the hand.
            before = _hand(phone)
            seat_before = state(phone)["me"]
            phone.reload()
            phone.wait_for_selector("#hand [data-code]")
            phone.wait_for_function("() => window.yannivStore.get().view !== null")
            assert state(phone)["me"] == seat_before
            assert sorted(_hand(phone)) == sorted(before)
            reloaded = True
        if "YANNIV" in kinds and not any(k == "screenshot" for k in kinds):
            kinds.append("screenshot")
            host.wait_for_selector("#lastlap")
            screenshot(host, "table-lastlap-desktop")

    assert reloaded
    assert "YANNIV" in kinds, kinds
    assert POWER_KINDS & set(kinds), f"no power decision in {kinds}"
    for p in players:
        p.wait_for_selector("#result .hands li")
        # Every hand revealed, and the scores table has the manche's row.
        assert p.locator("#result .hands li").count() == 3
        assert p.locator("#scores tbody tr").count() == 2
    assert "Fin de la manche 1" in host.inner_text("#result")
    screenshot(host, "result-desktop")
    screenshot(phone, "result-phone")
    # The journal was on: it tells the YANNIV call.
    assert "YANNIV" in host.inner_text("#log")
    # Render cost per server update, printed as a figure (`-s`), not asserted: wall-clock time
    # depends on the machine's load.
    stats = host.evaluate("() => window.yannivStats")
    assert stats["renders"] > 20
    print(f"renders: {stats['renders']}, mean {stats['totalMs'] / stats['renders']:.1f} ms, "
          f"max {stats['maxMs']:.1f} ms")
    host.click("#result-close")
    host.wait_for_selector("#result .hands", state="detached")

    # The second (last) manche, to the end of the match: ranking, then "Rejouer".
    deadline = time.monotonic() + 150
    while not (state(host)["view"] or {}).get("finished"):
        assert time.monotonic() < deadline, "the match did not end"
        mover = next((p for p in players if acting(p)), None)
        if mover is None:
            time.sleep(0.05)
            continue
        play_one(mover, kinds)
    for p in players:
        p.wait_for_selector("#ranking li")
        assert p.locator("#ranking li").count() == 3
    assert "Partie terminée" in host.inner_text("#result")
    screenshot(host, "match-over-desktop")
    phone.click("#rematch-btn")
    host.wait_for_selector("#start-btn")
    phone.wait_for_selector("#waiting-host")
    assert host.locator('#seats li[data-seat]').count() == 3


def _tab_to(page: Any, js: str, limit: int = 80) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(js):
            return
    raise AssertionError(f"keyboard focus never reached: {js}")


def test_keyboard_only_turn_and_illegal_hint(pages: Any, live_server: Any) -> None:
    live_server.app.state.rooms.seed_factory = lambda: "web-test-keyboard"
    host = pages.new(DESKTOP)
    host.goto(pages.base + "/")
    host.fill("#pseudo", "Clavier")
    host.click("#create-btn")
    host.wait_for_selector("#room-code")
    code = host.inner_text("#room-code")
    guest = pages.new(PHONE)
    guest.goto(f"{pages.base}/r/{code}")
    guest.fill("#join-pseudo", "Souris")
    with guest.expect_navigation():  # a seated join reloads the room page
        guest.press("#join-pseudo", "Enter")
    guest.wait_for_selector("#waiting-host")
    host.wait_for_selector('#seats li[data-seat="1"]')
    host.select_option("#set-first", "host")
    guest.wait_for_function("() => document.querySelector('#set-first').value === 'host'")
    host.focus("#start-btn")
    host.keyboard.press("Enter")
    host.wait_for_selector("#hand [data-code]")
    guest.wait_for_selector("#hand [data-code]")
    view = state(host)["view"]
    assert view["pending"]["kind"] == "turn" and view["pending"]["seat"] == state(host)["me"]

    # Two cards of different values: not a legal play, and the hint says why.
    hand = view["hand"]
    pair = next(((a, b) for a in hand for b in hand if a[0] != b[0]), None)
    assert pair is not None
    for card in pair:
        host.click(f'#hand [data-code="{card}"]')
    # The client renders once per frame: wait for the render of the two-card selection.
    host.wait_for_function("() => window.yannivStore.get().selection.length === 2")
    host.wait_for_selector("#play-btn[disabled]")
    host.wait_for_function("() => document.querySelector('#hint').textContent.includes('même')")
    assert "même valeur" in host.inner_text("#hint")
    host.click("#actions button.secondary")  # Désélectionner
    host.wait_for_function("() => window.yannivStore.get().selection.length === 0")

    # Keyboard only: Tab to a card of a legal single play, Space, Tab to Jouer, Enter.
    single = next(a["cards"][0] for a in view["legal_actions"]
                  if a["type"] == "Play" and len(a["cards"]) == 1)
    host.focus("body")
    _tab_to(host, "() => { const e = document.activeElement; return !!e && e.closest('#hand')"
            f" !== null && e.dataset.code === '{single}'; }}")
    host.keyboard.press("Space")
    host.wait_for_selector("#play-btn:not([disabled])")
    _tab_to(host, "() => document.activeElement && document.activeElement.id === 'play-btn'")
    host.keyboard.press("Enter")
    host.wait_for_function("() => window.yannivStore.get().view.step >= 1")
    s = state(host)
    if s["view"]["pending"] and s["view"]["pending"]["seat"] == s["me"]:
        assert s["view"]["pending"]["kind"] in ("draw", "four_ask", "king", "play_drawn",
                                                 "choose_power", "choose_colour")
        if s["view"]["pending"]["kind"] == "draw":
            _tab_to(host, "() => ['pile-btn', 'draw-pile-btn'].includes("
                          "document.activeElement && document.activeElement.id)")
            host.keyboard.press("Enter")
            host.wait_for_function(
                "(me) => { const p = window.yannivStore.get().view.pending;"
                " return p && p.seat !== me; }", arg=s["me"])
    assert single not in _hand(host)

    # Someone without a seat opening the link during the match watches as a spectator.
    watcher = pages.new(PHONE)
    watcher.goto(f"{pages.base}/r/{code}")
    watcher.wait_for_selector("#opponents article[data-seat]")
    assert watcher.locator("#opponents article[data-seat]").count() == 2
    assert "spectateur" in watcher.inner_text("#hand-head")
    assert watcher.locator("#join-panel").is_hidden()
