"""A click on a hand card lands even when the hand is drawn again between its press and its
release: the client renders once per animation frame, so the previous click's render, or a
state the server pushes, can fall inside a click. The hand keeps its card nodes (updated in
place), so the press and the release meet the same node and the browser fires the click."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from web_driver import PHONE

pytestmark = pytest.mark.browser

#: The seat's turn (the store is set once room.js has run: after the dictionary's top-level
#: await, which can end after `goto` returns).
MY_TURN_JS = """() => { const s = window.yannivStore && window.yannivStore.get();
  if (!s) return false; const v = s.view;
  return !!v && !s.sent && !!v.pending && v.pending.kind === 'turn' && v.pending.seat === s.me.seat
    && document.querySelector('#hand [data-code]:not([disabled])') !== null; }"""
#: The hand's cards stand still (the deal's drop-in is over): a press lands where it aims.
STILL_JS = ("() => [...document.querySelectorAll('#hand [data-code]')]"
            ".every(el => el.getAnimations({ subtree: true }).length === 0)")
SELECTION = "window.yannivStore.get().selection"
SELECTION_JS = f"() => {SELECTION}"
TWO_FRAMES_JS = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
PRESSED_JS = "(code) => document.querySelector(`#hand [data-code='${code}']`).ariaPressed"


def _my_turn(pages: Any, base: str) -> Any:
    created = httpx.post(f"{base}/api/rooms", json={"pseudo": "Pouce"}).json()
    code, token = created["code"], created["token"]
    host = {"X-Seat-Token": token}
    assert httpx.post(f"{base}/api/rooms/{code}/bots", json={"level": "facile"},
                      headers=host).status_code == 200
    assert httpx.patch(f"{base}/api/rooms/{code}/settings", json={"first_player": "host"},
                       headers=host).status_code == 200
    assert httpx.post(f"{base}/api/rooms/{code}/start", headers=host).status_code == 200
    page = pages.new(PHONE)
    seat = json.dumps({"seat": 0, "token": token})
    page.context.add_init_script(
        f"localStorage.setItem('yanniv.seat.{code}', {json.dumps(seat)});")
    page.goto(f"{base}/r/{code}")
    page.wait_for_function(MY_TURN_JS)
    page.wait_for_function(STILL_JS)
    return page


def _press_render_release(page: Any, code: str, render_js: str) -> None:
    """Press on `code`'s card, make the page render the hand anew, then release."""
    box = page.locator(f'#hand [data-code="{code}"]').bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.75)
    page.mouse.down()
    page.evaluate(render_js)
    page.evaluate(TWO_FRAMES_JS)  # the render ran: the hand was drawn between press and release
    page.mouse.up()


def test_a_card_click_that_straddles_a_render_still_selects(pages: Any, live_server: Any) -> None:
    page = _my_turn(pages, live_server.url)
    hand = page.evaluate("() => window.yannivStore.get().view.hand")
    a, b, c = hand[:3]
    nodes = [page.locator(f'#hand [data-code="{x}"]').element_handle() for x in hand]

    # Another card selected between the press and the release (the render changes the hand).
    select_a = f"window.yannivStore.dispatch({{ type: 'select', code: '{a}' }})"
    _press_render_release(page, b, f"() => {select_a}")
    page.wait_for_function(f"() => {SELECTION}.includes('{b}')")
    assert sorted(page.evaluate(SELECTION_JS)) == sorted([a, b])
    page.evaluate(TWO_FRAMES_JS)
    assert page.evaluate(PRESSED_JS, b) == "true"

    # The server's state again, as pushed on a reconnect, and a deselection, inside one click.
    last = page.evaluate("() => ({ view: window.yannivStore.get().view })")
    push = f"window.yannivStore.dispatch({{ type: 'state', msg: {json.dumps(last)} }})"
    _press_render_release(page, c, f"() => {{ {push}; {select_a}; }}")
    page.wait_for_function(f"() => {SELECTION}.includes('{c}')")
    assert sorted(page.evaluate(SELECTION_JS)) == sorted([b, c])

    # Quick clicks, each landing while the previous one's render is pending.
    for code in (a, b):
        page.click(f'#hand [data-code="{code}"]')
    page.wait_for_function(f"() => {SELECTION}.length === 2")
    assert sorted(page.evaluate(SELECTION_JS)) == sorted([a, c])

    # The very nodes first drawn: updated in place, never replaced.
    page.evaluate(TWO_FRAMES_JS)
    assert all(node.evaluate("el => el.isConnected") for node in nodes)
    assert [page.evaluate(PRESSED_JS, x) for x in (a, b, c)] == ["true", "false", "true"]
