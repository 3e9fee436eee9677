"""Card faces and icons in a real browser: SVG faces with a readable index, figures for V/D/R,
the power mark, the back on the pile, a hand that fits a phone, and no emoji on any page."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from web_driver import PHONE, screenshot

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1280, "height": 800}
SMALL_PHONE = {"width": 360, "height": 640}

#: The corner index and the spoken name of each rank in French, written out here on purpose.
INDEX_FR = {"A": "A", "2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8",
            "9": "9", "T": "10", "J": "V", "Q": "D", "K": "R"}
NAME_FR = {"A": "As", "T": "10", "J": "Valet", "Q": "Dame", "K": "Roi"}
SUIT_FR = {"S": "pique", "H": "cœur", "D": "carreau", "C": "trèfle"}
POWER_RANKS = set("46789JQK")
PIPS = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10}

#: What a card element shows: its SVG faces, index text, pips, figure, power mark, and
#: whether every <use> points at a shape that exists and draws something.
FACE_JS = """(el) => {
  const svgs = el.querySelectorAll('svg');
  const uses = [...el.querySelectorAll('use')];
  return {
    svgs: svgs.length,
    index: [...el.querySelectorAll('.index use.idx')]
      .map((u) => document.querySelector(u.getAttribute('href')).textContent),
    text: el.textContent,
    pips: el.querySelectorAll('use.pip').length,
    figures: el.querySelectorAll('use.figure').length,
    power: el.querySelectorAll('.index use.power').length,
    resolved: uses.every((u) => document.querySelector(u.getAttribute('href'))
                                  && u.getBBox().width > 0),
    label: el.getAttribute('aria-label'),
    width: el.getBoundingClientRect().width,
    colour: getComputedStyle(el).color,
  };
}"""

#: Every face of the deck, built by the page's own card component.
DECK_JS = """async () => {
  const m = await import('/static/js/cards.js');
  const box = document.createElement('div');
  box.id = 'deck-check';
  box.style.cssText = 'display:flex;flex-wrap:wrap;gap:4px;padding:6px;background:#176147';
  for (const s of 'SHDC') for (const r of 'A23456789TJQK') box.append(m.cardFace(r + s));
  document.body.prepend(box);
}"""

#: Characters drawn only by an emoji font; the suit symbols and arrows used in texts are kept
#: (every text font here has them).
EMOJI_JS = r"""() => {
  const bad = /[\uFE0F]|(?![\u2660\u2663\u2665\u2666\u25B6\u2197])\p{Extended_Pictographic}/u;
  const found = [];
  const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.parentElement && n.parentElement.closest('script, style')) continue;
    if (bad.test(n.data)) found.push(n.data.trim().slice(0, 40));
  }
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder], [alt]')) {
    for (const a of ['title', 'aria-label', 'placeholder', 'alt']) {
      const v = el.getAttribute(a);
      if (v && bad.test(v)) found.push(`${a}=${v}`);
    }
  }
  if (bad.test(document.title)) found.push(`title: ${document.title}`);
  return found;
}"""

ICONS_JS = """() => [...document.querySelectorAll('svg.icon use')].map((u) => {
  const target = document.querySelector(u.getAttribute('href'));
  return !!target && u.getBBox().width > 0;
})"""


def _no_emoji(page: Any, where: str) -> None:
    found = page.evaluate(EMOJI_JS)
    assert not found, f"emoji on {where}: {found}"


def _record_finished_match(app: Any, pseudo: str) -> None:
    """A finished match won by `pseudo`, so that its profile lists it (with the winner mark)."""
    from tests.profiles.scripted import yanniv_config
    from yanniv.profiles.identity import hash_secret
    from yanniv.profiles.record import record_finished_match
    from yanniv.profiles.types import FinishedManche, FinishedMatch, FinishedPlayer

    t0 = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)
    match = FinishedMatch(
        room_code="ICONS", seed="icons", game="yanniv", rules_version="yanniv-2",
        config=yanniv_config(2, 1), started_at=t0, finished_at=t0 + timedelta(minutes=20),
        players=(FinishedPlayer(0, pseudo, hash_secret("secret-of-icones-0123")),
                 FinishedPlayer(1, "Rival", hash_secret("secret-of-rival-01234"))),
        manches=(FinishedManche(1, False, 0, True, 0, (2, 17), (-5, 17), (0, 1)),),
        totals=(-5, 17), ranking=(0, 1))
    with app.state.db.sessions.begin() as session:
        record_finished_match(session, match)


def _check_face(face: dict, code: str) -> None:
    rank, suit = code[0], code[1]
    assert face["svgs"] == 1, (code, face)
    assert face["index"] == [INDEX_FR[rank]] * 2, (code, face)  # top left and bottom right
    # Drawn from the sprite: the card holds no text, its name is its aria-label alone.
    assert face["text"] == "", (code, face)
    assert face["resolved"], (code, face)
    # The art is tinted by the suit: app.css's red (#b3261e) or black (#1d232a).
    assert face["colour"] == ("rgb(179, 38, 30)" if suit in "HD" else "rgb(29, 35, 42)"), face
    assert face["power"] == (2 if rank in POWER_RANKS else 0), (code, face)
    if rank in "JQK":
        assert face["figures"] == 2 and face["pips"] == 0, (code, face)  # double-headed
    else:
        assert face["figures"] == 0 and face["pips"] == PIPS[rank], (code, face)


def _check_table(page: Any, name: str) -> None:
    page.wait_for_selector("#hand [data-code]")
    cards = page.locator("#hand .card")
    assert cards.count() == 5
    width = page.evaluate("() => window.innerWidth")
    for i in range(cards.count()):
        card = cards.nth(i)
        code = card.get_attribute("data-code")
        face = card.evaluate(FACE_JS)
        _check_face(face, code)
        spoken = f"{NAME_FR.get(code[0], INDEX_FR[code[0]])} de {SUIT_FR[code[1]]}"
        assert face["label"] == spoken or face["label"].startswith(spoken + ","), face["label"]
        box = card.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, (code, box, width)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    # The pile is a card back; the discard shows a face.
    back = page.locator("#pile-btn svg use").first
    assert back.get_attribute("href") == "#y-back"
    assert page.locator("#pile-btn").evaluate(FACE_JS)["resolved"]
    assert page.locator("#discard .card svg").count() >= 1
    screenshot(page, f"cards-table-{name}")


def test_card_faces_icons_and_no_emoji(pages: Any, live_server: Any) -> None:
    live_server.app.state.rooms.seed_factory = lambda: "web-test-cards"
    _record_finished_match(live_server.app, "Iconette")

    host = pages.new(LAPTOP)
    host.goto(pages.base + "/")
    host.wait_for_selector("#create-btn")
    _no_emoji(host, "home")
    icons = host.evaluate(ICONS_JS)
    assert len(icons) >= 5 and all(icons), icons  # nav, bots, public rooms…
    host.fill("#pseudo", "Carte")
    host.click("#create-btn")
    host.wait_for_selector("#room-code")
    code = host.inner_text("#room-code")
    phone = pages.new(PHONE)
    phone.goto(f"{pages.base}/r/{code}")
    phone.fill("#join-pseudo", "Atout")
    with phone.expect_navigation():  # a seated join reloads the room page
        phone.click("#join-room-btn")
    phone.wait_for_selector("#waiting-host")
    host.wait_for_selector('#seats li[data-seat="1"]')
    _no_emoji(host, "lobby")
    _no_emoji(phone, "lobby (phone)")
    assert all(host.evaluate(ICONS_JS))  # the copy-link button's icon
    host.select_option("#set-first", "host")
    phone.wait_for_function("() => document.querySelector('#set-first').value === 'host'")
    host.select_option("#set-timer", "90")
    phone.wait_for_function("() => document.querySelector('#set-timer').value === '90'")
    host.click("#start-btn")

    # The turn timer: a clock icon, then the seconds.
    phone.wait_for_selector("#opponents .timer-badge svg.icon")
    assert phone.inner_text("#opponents .timer-badge").strip().endswith(" s")
    _check_table(host, "desktop")
    _check_table(phone, "phone")
    _no_emoji(host, "table")
    _no_emoji(phone, "table (phone)")

    # Every face of the deck, drawn by the component (the figures whatever the deal).
    phone.evaluate(DECK_JS)
    deck = phone.locator("#deck-check .card")
    assert deck.count() == 52
    for i in range(52):
        _check_face(deck.nth(i).evaluate(FACE_JS), deck.nth(i).get_attribute("data-code"))
    phone.locator("#deck-check").screenshot(path=str(_shot_path("cards-deck-phone")))
    phone.evaluate("() => document.getElementById('deck-check').remove()")

    for path, where in (("/regles", "rules"), ("/classement", "leaderboard"),
                        ("/profil/Iconette", "profile")):
        host.goto(pages.base + path)
        host.wait_for_selector("h1")
        _no_emoji(host, where)
        assert all(host.evaluate(ICONS_JS))
    assert host.locator("#last-matches svg.icon").count() == 1  # the winner's trophy
    host.click('#last-matches a[href^="/match/"]')
    host.wait_for_selector("#match-ranking")
    _no_emoji(host, "match")
    assert host.locator("#match-ranking svg.icon").count() == 1


#: A hand of 12 (after a few 4s and Kings) on the narrowest phone, and the selected-card styles.
FAN_JS = """async () => {
  const m = await import('/static/js/cards.js');
  const hand = document.createElement('div');
  hand.className = 'hand';
  hand.id = 'fan-check';
  hand.style.setProperty('--n', '12');
  const codes = ['AS', '2H', '3D', '4C', '5S', '6H', '7D', '8C', '9S', 'TH', 'JD', 'KC'];
  const opts = (c) => ({ onclick: () => {}, pressable: true, selected: c === '5S' });
  hand.append(...codes.map((c) => m.cardFace(c, opts(c))));
  const prompt = document.createElement('div');
  prompt.className = 'prompt';
  prompt.append(m.cardFace('QH', { onclick: () => {}, pressable: true, selected: true }));
  document.querySelector('.hand-zone').prepend(hand, prompt);
  await new Promise(requestAnimationFrame);
  const rects = [...hand.children].map((c) => c.getBoundingClientRect());
  const chosen = getComputedStyle(prompt.firstChild);
  return {
    rects: rects.map((r) => [r.left, r.right]),
    width: window.innerWidth,
    scroll: document.documentElement.scrollWidth,
    pressed: prompt.firstChild.getAttribute('aria-pressed'),
    background: chosen.backgroundColor,
    border: chosen.borderTopColor,
    borderWidth: chosen.borderTopWidth,
  };
}"""


def _luminance(rgb: str) -> float:
    parts = [int(x) / 255 for x in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3]]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in parts]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def test_a_big_hand_fans_out_on_a_small_phone(pages: Any, live_server: Any) -> None:
    live_server.app.state.rooms.seed_factory = lambda: "web-test-fan"
    host = pages.new(SMALL_PHONE)
    host.goto(pages.base + "/")
    host.fill("#pseudo", "Eventail")
    host.click("#create-btn")
    host.wait_for_selector("#room-code")
    code = host.inner_text("#room-code")
    guest = pages.new(SMALL_PHONE)
    guest.goto(f"{pages.base}/r/{code}")
    guest.fill("#join-pseudo", "Pli")
    with guest.expect_navigation():  # a seated join reloads the room page
        guest.click("#join-room-btn")
    host.wait_for_selector('#seats li[data-seat="1"]')
    host.click("#start-btn")
    host.wait_for_selector("#hand [data-code]")
    out = host.evaluate(FAN_JS)
    rects = out["rects"]
    assert len(rects) == 12
    assert all(left >= 0 and right <= out["width"] for left, right in rects), out
    assert out["scroll"] <= out["width"], out
    # The cards overlap (a fan), each still showing its left edge (the corner index).
    assert all(rects[i + 1][0] < rects[i][1] for i in range(11)), rects
    assert all(rects[i + 1][0] - rects[i][0] >= 12 for i in range(11)), rects
    # A selected card in a prompt stays a white card with a border that stands out (≥ 3:1).
    assert out["pressed"] == "true"
    assert out["background"] == "rgb(255, 255, 255)", out
    assert float(out["borderWidth"].removesuffix("px")) >= 3
    hi, lo = sorted((_luminance(out["background"]), _luminance(out["border"])), reverse=True)
    assert (hi + 0.05) / (lo + 0.05) >= 3, out
    screenshot(host, "cards-fan-360")


def _shot_path(name: str) -> Any:
    from web_driver import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / f"{name}.png"


def test_faces_speak_and_read_english(pages: Any) -> None:
    page = pages.new(PHONE)
    page.context.add_cookies([{"name": "lang", "value": "en", "url": pages.base}])
    page.goto(pages.base + "/")
    out = page.evaluate("""async () => {
      const m = await import('/static/js/cards.js');
      return ['QH', 'TS', 'AD'].map((c) => {
        const el = m.cardFace(c);
        document.body.append(el);
        return [el.getAttribute('aria-label'), el.getAttribute('role'),
                document.querySelector(el.querySelector('.index use.idx').getAttribute('href'))
                  .textContent,
                el.querySelector('svg').getAttribute('aria-hidden')];
      });
    }""")
    assert out == [["Queen of hearts", "img", "Q", "true"],
                   ["10 of spades", "img", "10", "true"],
                   ["Ace of diamonds", "img", "A", "true"]]

