"""Plays through the browser: reads the page's state, then clicks what a player would click."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}


def screenshot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


STATE_JS = """() => {
  const s = window.yannivStore && window.yannivStore.get();
  if (!s) return null;
  return { view: s.view, me: s.me ? s.me.seat : null, version: s.version, sent: s.sent,
           status: s.room ? s.room.status : null };
}"""

ADVANCED_JS = "(step) => { const v = window.yannivStore.get().view; return v && v.step > step }"
#: What a page shows when its decision did not move the game on.
STALL_JS = """() => {
  const s = window.yannivStore.get();
  const toast = document.getElementById('toast');
  return { connected: s.connected, sent: s.sent, version: s.version,
           step: s.view && s.view.step, pending: s.view && s.view.pending,
           toast: toast ? toast.textContent : null, toast_shown: !!toast && !toast.hidden };
}"""

VALUES = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10}
POWER_KINDS = {"choose_power", "choose_colour", "queen_keep", "four_ask", "four_give",
               "four_exchange", "four_play_received", "king", "play_drawn"}


def value(code: str) -> int:
    return VALUES.get(code[0]) or int(code[0])


def state(page: Any) -> dict | None:
    return page.evaluate(STATE_JS)


def acting(page: Any) -> bool:
    s = state(page)
    if not s or not s["view"] or s["sent"]:
        return False
    pending = s["view"]["pending"]
    return bool(pending) and pending["seat"] == s["me"] and bool(s["view"]["legal_actions"])


def _legal(s: dict, kind: str) -> list[dict]:
    return [a for a in s["view"]["legal_actions"] if a["type"] == kind]


def play_one(page: Any, log: list[str]) -> str:
    """Take one decision for this page's seat by clicking; returns the pending kind handled.

    Like a player, it looks again if nothing happened: outside the hand (which keeps its card
    nodes), a component rebuilds its nodes when it renders, so a click on a prompt or the
    discard that straddles a render can be lost. If the page still
    shows the same decision with no action awaiting an answer, it decides once more; a second
    stall fails with what the page saw."""
    if page.locator("#result-close").is_visible():  # the end-of-manche reveal covers the table
        page.click("#result-close")
        page.wait_for_selector("#result-close", state="detached")
    s = state(page)
    assert s is not None
    view = s["view"]
    kind = view["pending"]["kind"]
    step = view["step"]
    log.append(kind)
    _decide(page, s, kind, log)
    if _advanced(page, step, 7_500):
        return kind
    again = state(page)
    if again and again["view"]["step"] == step and not again["sent"] and acting(page):
        log.append(f"again:{kind}")
        page.evaluate("() => window.yannivStore.dispatch({ type: 'clearSelection' })")
        _decide(page, again, kind, log)
    if not _advanced(page, step, 15_000):
        raise AssertionError(f"{kind} at step {step} did not advance: {page.evaluate(STALL_JS)}")
    return kind


def _advanced(page: Any, step: int, timeout_ms: float) -> bool:
    try:
        page.wait_for_function(ADVANCED_JS, arg=step, timeout=timeout_ms)
    except PlaywrightTimeout:
        return False
    return True


SELECTION_DEBUG_JS = """() => { const st = window.yannivStore.get();
  return JSON.stringify({selection: st.selection, sent: st.sent, step: st.view && st.view.step,
    pending: st.view && st.view.pending, hand: [...document.querySelectorAll('#hand [data-code]')]
      .map((e) => e.dataset.code + (e.getAttribute('aria-pressed') === 'true' ? '*' : '')),
    focus: document.activeElement && document.activeElement.outerHTML.slice(0, 120)}); }"""


#: The hand's cards stand still (a card drawn or dealt has landed, the others have moved
#: aside): a click then lands on the card it aims at, as a player's tap does.
HAND_STILL_JS = ("() => [...document.querySelectorAll('#hand [data-code]')]"
                 ".every(el => el.getAnimations({ subtree: true }).length === 0)")
SELECTION_JS = "() => window.yannivStore.get().selection"


def select_cards(page: Any, codes: list[str], log: list[str]) -> None:
    """Select exactly `codes` in the hand, as a player does: wait for the cards to stop
    moving, tap each, then look: a tap that landed while the hand moved under it is made
    again (and written in `log`, so a test can tell)."""
    for attempt in range(3):
        with contextlib.suppress(PlaywrightTimeout):
            page.wait_for_function(HAND_STILL_JS, timeout=5_000)
        chosen = set(page.evaluate(SELECTION_JS))
        for code in sorted(chosen.symmetric_difference(codes)):
            page.click(f'#hand [data-code="{code}"]')
        if set(page.evaluate(SELECTION_JS)) == set(codes):
            return
        log.append(f"reselect:{attempt}")


def _decide(page: Any, s: dict, kind: str, log: list[str]) -> None:
    """Click what a player would click for this decision."""
    view = s["view"]
    decision = page.locator("#decision")
    if kind == "turn":
        if _legal(s, "CallYanniv"):
            page.click("#yanniv-btn")
            log.append("YANNIV")
        else:
            plays = _legal(s, "Play")
            if plays:
                best = max(plays, key=lambda a: (sum(map(value, a["cards"])), len(a["cards"])))
                select_cards(page, best["cards"], log)
                try:
                    page.wait_for_selector("#play-btn:not([disabled])", timeout=5_000)
                except PlaywrightTimeout:
                    raise AssertionError(
                        f"« Jouer » stayed off after clicking {best['cards']}: "
                        f"{page.evaluate(SELECTION_DEBUG_JS)}") from None
                page.click("#play-btn")
            else:
                page.click("#draw-only-btn")
    elif kind == "draw":
        takes = [a for a in _legal(s, "TakeDiscard") if value(a["card"]) <= 2]
        if not _legal(s, "DrawPile") and not _legal(s, "UseQueen"):
            takes = _legal(s, "TakeDiscard")  # a Jack's take-back is mandatory
        if _legal(s, "UseQueen"):
            page.click("#queen-btn")
        elif takes:
            page.click(f'#discard [data-code="{takes[0]["card"]}"]')
        else:
            page.click("#pile-btn")
    elif kind in ("play_drawn", "four_play_received"):
        page.click("#at-once-btn" if _legal(s, "PlayAtOnce") else "#skip-btn")
    elif kind == "choose_power":
        decision.locator("[data-rank]").first.click()
    elif kind == "choose_colour":
        decision.locator("[data-colour]").first.click()
    elif kind == "queen_keep":
        drawn = view["pending"]["cards"]
        keep = min(drawn, key=value)
        decision.locator(f'.options [data-code="{keep}"]').first.click()
        page.wait_for_selector("#queen-confirm:not([disabled])")
        page.click("#queen-confirm")
    elif kind == "four_ask":
        decision.locator("[data-target]").first.click()
        decision.locator("[data-rank]").first.click()
        page.wait_for_selector("#ask-btn:not([disabled])")
        page.click("#ask-btn")
    elif kind in ("four_give", "four_exchange"):
        gives = sorted(_legal(s, "GiveCard"), key=lambda a: -value(a["card"]))
        decision.locator(f'[data-code="{gives[0]["card"]}"]').first.click()
    elif kind == "king":
        swaps = sorted(_legal(s, "KingSwap"), key=lambda a: -value(a["card"]))
        decision.locator(f'[data-code="{swaps[0]["card"]}"]').first.click()
        decision.locator(f'[data-target="{swaps[0]["target"]}"]').first.click()
        page.wait_for_selector("#king-btn:not([disabled])")
        page.click("#king-btn")
    else:  # pragma: no cover - a kind this driver does not know
        raise AssertionError(f"unknown pending kind {kind}")
