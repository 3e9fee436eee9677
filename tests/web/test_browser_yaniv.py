"""Classic Yaniv in a real browser: a person plays a whole match against bots at phone size,
clicking what a player clicks, to the final ranking; the 8-seat table at desktop size; the
table's states (turn, layout choice, draw, Assaf reveal, final sheet) under axe."""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path
from typing import Any

import axe
import httpx
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from rig import open_seat, settle
from web_driver import PHONE, select_cards, state

from yanniv.games.yaniv.rules.cards import parse_card, ycards
from yanniv.games.yaniv.rules.model import MancheEnded, Packet, Pending

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/yanivtable") if Path("/tmp").is_dir() else Path(".")
DESKTOP_1280 = {"width": 1280, "height": 800}
SMALL_PHONE = {"width": 360, "height": 640}
#: Points of a card as the rule book counts them, written out (not the engine's).
POINTS = {"X": 0, "A": 1, "T": 10, "J": 10, "Q": 10, "K": 10}


def points(code: str) -> int:
    return POINTS[code[0]] if code[0] in POINTS else int(code[0])


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def yaniv_room(base: str, pseudo: str, bots: int, **settings: Any) -> tuple[str, str]:
    """A started Yaniv room: `pseudo` hosts at seat 0 and plays first, `bots` bots sit."""
    created = httpx.post(f"{base}/api/rooms", json={"pseudo": pseudo, "game": "yaniv"}).json()
    code, token = created["code"], created["token"]
    host = {"X-Seat-Token": token}
    for n in range(bots):
        added = httpx.post(f"{base}/api/rooms/{code}/bots",
                           json={"level": ("facile", "moyen")[n % 2]}, headers=host)
        assert added.status_code == 200, added.text
    chosen = {"first_player": "host", "log_visible": True, "show_known_cards": True,
              "timer_seconds": None, **settings}
    patched = httpx.patch(f"{base}/api/rooms/{code}/settings", json=chosen, headers=host)
    assert patched.status_code == 200, patched.text
    assert httpx.post(f"{base}/api/rooms/{code}/start", headers=host).status_code == 200
    return code, token


def rig(live_server: Any, code: str, hands: list[str], offer: str = "KD", to_act: int = 0,
        known: dict[int, str] | None = None, scores: tuple[int, ...] | None = None) -> None:
    """Deal `hands` (space-separated codes; seat 0 first) with `offer` face up on the
    discard, `to_act` to play; the other cards are the pile (every card stays one card).
    `known`: cards everybody saw a seat take; `scores`: totals as if a first manche, every
    seat in, had ended on them (its row on the sheet)."""
    room = live_server.app.state.rooms.get(code)
    loop = live_server.server.servers[0].get_loop()

    async def put() -> None:
        async with room.lock:
            current = room.match.state
            n = current.config.seats
            dealt = [ycards(h) for h in hands]
            flipped = parse_card(offer)
            used = {c for hand in dealt for c in hand} | {flipped}
            everything = [c for c in current.pile if c not in used]
            everything += [c for hand in current.hands for c in hand if c not in used]
            everything += [c for p in current.discard for c in p.cards if c not in used]
            seen = [frozenset(ycards(known[s])) if known and s in known else frozenset()
                    for s in range(n)]
            extra: dict[str, Any] = {}
            if scores is not None:
                everyone = tuple(range(n))
                first = MancheEnded(
                    manche=1, tiebreak=False, caller=0, assaf=False, winner=0,
                    participants=everyone, hands=((),) * n, points=scores, deltas=scores,
                    brought_down=(), eliminated=(), totals=scores)
                extra = {"scores": scores, "history": (first,), "manche": 2}
            room.match.state = current.evolve(
                hands=tuple(tuple(sorted(d)) for d in dealt) + ((),) * (n - len(dealt)),
                pile=tuple(everything), discard=(Packet(None, (flipped,)),), offer=0,
                pending=Pending("turn", to_act), known=tuple(seen), **extra)
            room.version += 1
            live_server.app.state.rooms.play.arm(room)
            room.broadcast()

    asyncio.run_coroutine_threadsafe(put(), loop).result(10)


def check_axe(page: Any, where: str, failures: list[str]) -> None:
    settle(page)
    found = axe.violations(page)
    if found:
        failures.append(f"--- {where}\n{axe.describe(found)}")


FITS_JS = """() => {
  const out = [];
  const inside = (r, box) => r.bottom <= box.bottom + 1 && r.right <= box.right + 1
    && r.top >= box.top - 1 && r.left >= box.left - 1;
  const screen = { top: 0, left: 0, bottom: innerHeight, right: innerWidth };
  const root = document.documentElement;
  if (root.scrollHeight > innerHeight + 1) out.push(`page ${root.scrollHeight} > ${innerHeight}`);
  const board = document.getElementById('board').getBoundingClientRect();
  const wanted = ['#status', '#opponents .yseat', '#pile-btn', '#discard .packet.previous',
                  '#hand [data-code]', '#actions button'];
  for (const sel of wanted) {
    for (const el of document.querySelectorAll(sel)) {
      const r = el.getBoundingClientRect();
      if (!inside(r, screen) || (el.closest('#board') && !inside(r, board))) {
        out.push(`${sel} ${JSON.stringify(r)}`);
      }
    }
  }
  return out;
}"""


def fits(page: Any) -> None:
    """Everything needed to play is on screen, without scrolling the page or the board."""
    over = page.evaluate(FITS_JS)
    assert not over, over


ADVANCED_JS = "(step) => { const v = window.yannivStore.get().view; return v && v.step > step }"
BOXES_JS = """() => [...document.querySelectorAll('#opponents .yseat')].map((el) => {
  const r = el.getBoundingClientRect();
  return [r.left, r.top, r.right, r.bottom];
})"""


LAST_LAYOUT = "#prompt button.layout:last-of-type"


def layouts_of(s: dict, cards: list[str]) -> list[dict]:
    """The legal plays of exactly these cards (the ways to lay them)."""
    return [a for a in s["view"]["legal_actions"]
            if a["type"] == "Play" and sorted(a["cards"]) == sorted(cards)]


def take_decision(page: Any, seen: dict[str, Any]) -> None:
    """One decision for seat 0, by clicking (or a shortcut key), as a player would."""
    s = state(page)
    view = s["view"]
    legal = view["legal_actions"]
    step = view["step"]
    if view["pending"]["kind"] == "turn":
        if any(a["type"] == "CallYaniv" for a in legal):
            page.click("#yaniv-btn")
            seen["calls"] += 1
        else:
            plays = [a for a in legal if a["type"] == "Play"]
            best = max(plays, key=lambda a: (sum(map(points, a["cards"])), len(a["cards"])))
            select_cards(page, best["cards"], seen["log"])
            if len(layouts_of(s, best["cards"])) > 1:
                page.locator(LAST_LAYOUT).click()
                page.wait_for_selector(f"{LAST_LAYOUT}[aria-pressed=true]")
                seen["layouts"] += 1
            page.wait_for_selector("#play-btn:not([disabled])")
            page.click("#play-btn")
            seen["plays"] += 1
    else:
        takes = [a for a in legal if a["type"] == "TakeDiscard" and points(a["card"]) <= 3]
        if takes:
            page.click(f'#discard button[data-code="{takes[0]["card"]}"]')
            seen["takes"] += 1
        elif seen["draws"] % 2:
            page.keyboard.press("p")  # the pile's shortcut
            seen["draws"] += 1
        else:
            page.click("#pile-btn")
            seen["draws"] += 1
    page.wait_for_function(ADVANCED_JS, arg=step, timeout=15_000)


def test_a_yaniv_match_played_to_the_ranking_on_a_phone(pages: Any, live_server: Any) -> None:
    turns = live_server.app.state.rooms.bot_turns
    turns.delay_scale = 0.05
    try:
        code, token = yaniv_room(pages.base, "Yasmine", 4, threshold=50)
        page = open_seat(pages, code, 0, token, PHONE)
        page.wait_for_selector("#opponents .yseat")
        assert page.locator("#opponents .yseat").count() == 4
        assert page.locator("#powers-panel").is_hidden()  # YANNIV's powers are not Yaniv's
        fits(page)
        shot(page, "phone-5-start")
        seen: dict[str, Any] = {"calls": 0, "plays": 0, "takes": 0, "draws": 0, "layouts": 0,
                                "reveals": 0, "log": []}
        deadline = time.monotonic() + 400
        while time.monotonic() < deadline:
            if page.locator("#ranking li").count():
                break
            # A reveal held back by the call's moment is in the page before it shows, and
            # covers the table already: a decision taken under it was lost (15 s each).
            if page.locator("#result-close").count():
                page.wait_for_selector("#result-close", state="visible")
                seen["reveals"] += 1
                if seen["reveals"] == 1:
                    settle(page)
                    shot(page, "phone-5-reveal")
                assert page.locator("#result .hands li").count() >= 2
                page.click("#result-close")
                page.wait_for_selector("#result-close", state="detached")
                continue
            s = state(page)
            view = s and s["view"]
            if (view and not view["finished"] and not s["sent"] and view["pending"]
                    and view["pending"]["seat"] == 0 and view["legal_actions"]):
                # The page has drawn the state that made it our turn (one render a frame):
                # if that state ended a manche, its reveal is up, and handled above first.
                page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")
                if page.locator("#result-close").count():
                    continue
                with contextlib.suppress(PlaywrightTimeout):
                    take_decision(page, seen)
            else:
                page.wait_for_timeout(60)
        page.wait_for_selector("#ranking li")
        settle(page)
        shot(page, "phone-5-final")
        view = state(page)["view"]
        assert view["finished"] and len(view["ranking"]) == 5
        assert page.locator("#ranking li").count() == 5
        rows = page.locator("#result .yaniv-sheet tbody tr")
        assert rows.count() == len(view["history"]) + 1  # a row per manche, then the totals
        assert seen["plays"] > 3 and seen["draws"] + seen["takes"] > 3, seen
        assert any(s > 50 for s in view["scores"])  # over the threshold: the match ended
        # The journal says the calls in words.
        assert "annonce Yaniv" in page.inner_text("#log")
    finally:
        turns.delay_scale = live_server.app.state.settings.bot_delay_scale


def test_continuer_closes_the_reveal_when_a_redraw_comes_mid_tap(pages: Any,
                                                                  live_server: Any) -> None:
    """A state message that comes between the press and the release of « Continuer » (the
    others keep playing) redraws the table: the tap must still close the reveal. Under CI
    load the reveal's button, drawn anew with every message, swallowed such a click."""
    turns = live_server.app.state.rooms.bot_turns
    turns.delay_scale = 100.0  # the bots wait: only this test's redraw comes
    try:
        code, token = yaniv_room(pages.base, "Yolande", 2)
        page = open_seat(pages, code, 0, token, PHONE)
        page.wait_for_selector("#opponents .yseat")
        rig(live_server, code, ["AD 2C", "KD QD", "JD TD"], scores=(10, 20, 30))
        button = page.locator("#result-close")
        button.wait_for(state="visible")
        settle(page)
        box = button.bounding_box()
        assert box is not None
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        # What any state message does: a change of the store, then a drawn frame.
        page.evaluate("""() => new Promise((done) => {
            window.yannivStore.dispatch({ type: 'local', patch: { redrawn: true } });
            requestAnimationFrame(() => requestAnimationFrame(done));
        })""")
        page.mouse.up()
        page.wait_for_selector("#result-close", state="detached", timeout=3000)
    finally:
        turns.delay_scale = live_server.app.state.settings.bot_delay_scale


EIGHT = ["AD", "KC QC JC TC KH QH JH", "KD QD JD TD", "2C 3C 4C XR 9S", "5D 5H 5S 8C",
         "6H 7H 8H 9H", "2S2 3S2 TH2", "QS KS JS 4H2"]


def test_eight_seats_at_desktop_and_phone_sizes(pages: Any, live_server: Any) -> None:
    """The 8-seat table, elimination mode, a clock: as dealt, with an opponent to act and
    cards known in hands; then a call where one total lands on 100 (→ 50) and one seat goes
    over the threshold and leaves the match."""
    turns = live_server.app.state.rooms.bot_turns
    turns.delay_scale = 100.0  # the bots wait: the table stays as rigged
    try:
        code, token = yaniv_room(pages.base, "Yvan", 7, elimination=True, timer_seconds=90)
        page = open_seat(pages, code, 0, token, DESKTOP_1280)
        page.wait_for_selector("#opponents .yseat")
        assert page.locator("#opponents .yseat").count() == 7
        assert "2 jeux" in page.inner_text("#status")  # 8 seats: two decks
        assert page.locator("#status .timer").count() == 1  # my clock runs
        # Seats round the oval: the first on the viewer's left, the last on the right, the
        # middle one across the table; none over another.
        boxes = page.evaluate(BOXES_JS)
        assert boxes[0][0] < boxes[3][0] < boxes[6][0]
        assert boxes[3][1] < boxes[0][1] and boxes[3][1] < boxes[6][1]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
        fits(page)
        settle(page)
        shot(page, "desktop-8-start")
        # Seat 3 to play (its clock ring), seats 2 and 5 holding cards taken from the discard.
        rig(live_server, code, EIGHT, to_act=3, known={2: "KD", 5: "6H 7H"},
            scores=(0, 150, 60, 20, 35, 10, 45, 5))
        page.wait_for_selector('#opponents .yseat[data-seat="3"].acting .ring')
        page.click("#result-close")  # the rigged first manche's reveal
        assert page.locator('#opponents .yseat[data-seat="5"] .known .card').count() == 2
        assert "Ordinateur 2 (facile)" in page.inner_text("#waiting-for")
        for size, name in ((DESKTOP_1280, "desktop"), (PHONE, "phone"), (SMALL_PHONE, "small")):
            page.set_viewport_size(size)
            page.wait_for_timeout(200)
            fits(page)
            settle(page)
            shot(page, f"{name}-8-waiting")
        # My call: 1 point, a lone Ace (−20); seat 2 lands on 100 (→ 50), seat 1 goes over.
        page.set_viewport_size(DESKTOP_1280)
        rig(live_server, code, EIGHT, scores=(0, 150, 60, 20, 35, 10, 45, 5))
        page.wait_for_selector("#yaniv-btn:not([disabled])")
        turns.delay_scale = 0.05
        page.click("#yaniv-btn")
        page.wait_for_selector("#result-close", state="visible")
        reveal = page.locator("#result")
        assert reveal.locator('li[data-seat="2"] .badge.landing').inner_text() == "100 → 50"
        assert reveal.locator('li[data-seat="1"] .badge.out').count() == 1
        assert "−20" in reveal.locator('li[data-seat="0"]').inner_text()
        settle(page)
        shot(page, "desktop-8-reveal")
        turns.delay_scale = 100.0
        # On a phone the eight hands scroll inside the dialog; « Continuer » stays in view.
        page.set_viewport_size(PHONE)
        page.wait_for_timeout(200)
        shot(page, "phone-8-reveal")
        close = page.locator("#result-close").bounding_box()
        assert close and close["y"] + close["height"] <= PHONE["height"], close
        page.click("#result-close")
        page.set_viewport_size(DESKTOP_1280)
        page.wait_for_selector('#opponents .yseat[data-seat="1"].out')
        sheet = page.inner_text("#scores")
        assert "100 → 50" in sheet and "✕" in sheet
        assert "Y\u00a0: a annoncé Yaniv" in sheet  # the legend of the marks used
        fits(page)
        settle(page)
        shot(page, "desktop-8-eliminated")
        # A spectator sees the eight seats, in seat order, and no hand.
        watcher = pages.new(DESKTOP_1280)
        watcher.goto(f"{pages.base}/r/{code}")
        watcher.wait_for_selector("#opponents .yseat")
        order = watcher.eval_on_selector_all("#opponents .yseat",
                                             "els => els.map((e) => e.dataset.seat)")
        assert order == [str(n) for n in range(8)]
        assert watcher.locator("#hand [data-code]").count() == 0
        shot(watcher, "desktop-8-spectator")
        page.set_viewport_size(PHONE)
        page.click("#side-btn")
        page.wait_for_selector("#side .yaniv-sheet", state="visible")
        shot(page, "phone-8-sheet")
        page.click("#side-btn")
        # Four 5s on the smallest phone: six ways to choose the two ends offered, each shown
        # by its two ends; the table still fits.
        page.set_viewport_size(SMALL_PHONE)
        rig(live_server, code, ["5D 5H 5S 5C 9C", *EIGHT[1:]])
        page.wait_for_selector('#hand [data-code="5C"]')
        for c in ("5D", "5H", "5S", "5C"):
            page.click(f'#hand [data-code="{c}"]')
        page.wait_for_selector("#prompt button.layout")
        assert page.locator("#prompt button.layout").count() == 6
        assert page.locator("#prompt button.layout").first.locator(".card").count() == 2
        shot(page, "small-8-set-ends")
        fits(page)
    finally:
        turns.delay_scale = live_server.app.state.settings.bot_delay_scale


#: What the page says, in each language, for the keyboard help's call and my Yaniv call.
CALL_HELP = {"fr": "Annoncer Yaniv\u202f!", "en": "Call Yaniv!"}
CALLED = {"fr": "Vous annoncez Yaniv avec 7 points.", "en": "You call Yaniv with 7 points."}
SAID_JS = "(text) => document.getElementById('announce').textContent.includes(text)"


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_yaniv_table_states_pass_axe(pages: Any, live_server: Any, axe_ready: None,
                                     size: str) -> None:
    turns = live_server.app.state.rooms.bot_turns
    turns.delay_scale = 100.0
    failures: list[str] = []
    viewport = PHONE if size == "phone" else DESKTOP_1280
    lang = "fr" if size == "phone" else "en"
    try:
        code, token = yaniv_room(pages.base, f"AxeYaniv-{size}", 3, threshold=50)
        page = open_seat(pages, code, 0, token, viewport, lang=lang)
        # A turn with a joker run that may be laid two ways.
        rig(live_server, code, ["4H 5H XR 9C KS", "2C 3D", "6S 7S", "8D 9D"])
        page.wait_for_selector('#hand [data-code="XR"]')
        # The keyboard help names the game's call.
        page.keyboard.press("?")
        page.wait_for_selector("#help[open]")
        assert CALL_HELP[lang] in page.inner_text("#help")
        page.keyboard.press("Escape")
        page.wait_for_selector("#help:not([open])", state="attached")
        # Keys 1 to 3 select the hand's first cards: the joker (it sorts first), 4♥, 5♥.
        for key in "123":
            page.keyboard.press(key)
        selected = page.evaluate("() => window.yannivStore.get().selection")
        assert sorted(selected) == ["4H", "5H", "XR"]
        page.wait_for_selector("#prompt button.layout")
        assert page.locator("#prompt button.layout").count() == 2
        page.locator(LAST_LAYOUT).click()
        pressed = page.wait_for_selector(f"{LAST_LAYOUT}[aria-pressed=true]")
        chosen = pressed.get_attribute("data-layout")
        shot(page, f"axe-{size}-layout")
        check_axe(page, f"layout {size}", failures)
        page.click("#play-btn")
        # The draw: the pile, or the King flipped at the deal.
        page.wait_for_selector('#decision[data-kind="draw"]')
        assert state(page)["view"]["discard"][-1]["cards"] == chosen.split(" ")
        assert page.locator('#discard button[data-code="KD"]').count() == 1
        shot(page, f"axe-{size}-draw")
        check_axe(page, f"draw {size}", failures)
        page.keyboard.press("d")  # the discard's shortcut: the King flipped at the deal
        page.wait_for_selector('#hand [data-code="KD"]')
        # A call caught: seat 0 has 7, seat 2 has 3 (Assaf); the reveal, then the sheet.
        rig(live_server, code, ["5S 2H", "AC 2D", "2S AH", "9D 8D"])
        page.wait_for_selector("#yaniv-btn:not([disabled])")
        turns.delay_scale = 0.05
        page.keyboard.press("y")
        page.wait_for_selector("#moment:not([hidden])")
        page.wait_for_function(SAID_JS, arg=CALLED[lang])
        shot(page, f"axe-{size}-moment")
        page.wait_for_selector("#moment[data-beat=assaf]:not([hidden])")  # then « Assaf ! »
        shot(page, f"axe-{size}-moment-assaf")
        page.wait_for_selector("#assaf", state="visible")
        page.wait_for_selector("#result-close", state="visible")
        text = page.inner_text("#result")
        assert ("Assaf" in text) and ("+30" in text), text
        shot(page, f"axe-{size}-assaf")
        check_axe(page, f"assaf reveal {size}", failures)
        page.click("#result-close")
        sheet = page.inner_text("#scores")
        assert "+30" in sheet
        # The match ends: seat 0 calls with a lone Ace (−20); 50 is over, the others are not.
        turns.delay_scale = 100.0
        rig(live_server, code, ["AD", "KC QC JC TC KH QH JH", "KD QD JD TD 9S", "9H 8H 7H"],
            offer="2C")
        page.wait_for_selector("#yaniv-btn:not([disabled])")
        turns.delay_scale = 0.05
        page.click("#yaniv-btn")
        page.wait_for_selector("#ranking li")
        final = page.inner_text("#result")
        assert "−20" in final.replace("-", "−")
        shot(page, f"axe-{size}-final")
        check_axe(page, f"final {size}", failures)
    finally:
        turns.delay_scale = live_server.app.state.settings.bot_delay_scale
    assert not failures, "\n".join(failures)
