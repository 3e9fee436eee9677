"""The table by keyboard and by ear, in real Chromium, on rigged states (tests/web/rig.py):
the focus lands on the next sensible control after each kind of action, each shortcut does its
action (and none fires while typing), the help panel opens and closes with the focus given
back, and the live region says what each player did: its sentences after a scripted sequence
of moves are written out below, in French and in English, by hand."""

from __future__ import annotations

from typing import Any

import axe
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from rig import install, open_seat, start_room
from web_driver import screenshot, state

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
#: Opponents without power cards: their turns change nothing of ours.
OTHERS = ["TS 2D 3D 5D", "3C TC AD 2H", "AH 5C 2C TH"]

FOCUS_JS = """() => { const a = document.activeElement;
  return a ? (a.id || (a.dataset && (a.dataset.code || a.dataset.take)) || a.tagName) : null; }"""


def focused(page: Any) -> str | None:
    return page.evaluate(FOCUS_JS)


def wait_focus(page: Any, expected: str, where: str) -> None:
    """The focus settles on `expected` (an id, a card code or a tag name)."""
    try:
        page.wait_for_function(f"() => ({FOCUS_JS})() === {expected!r}", timeout=5_000)
    except PlaywrightTimeout:  # say where it went instead
        screenshot(page, f"failed-focus-{where}")
        raise AssertionError(f"{where}: focus on {focused(page)!r}, not {expected!r}") from None


#: Two frames: the store renders on the next animation frame, and keys act on what is shown.
DRAWN_JS = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


def wait_kind(page: Any, kind: str) -> None:
    """Our decision `kind` is pending, and drawn."""
    page.wait_for_function(
        "(k) => { const s = window.yannivStore.get(); return !s.sent && s.view && s.view.pending"
        " && s.view.pending.seat === s.me.seat && s.view.pending.kind === k; }", arg=kind)
    page.evaluate(DRAWN_JS)


def wait_not_mine(page: Any) -> None:
    page.wait_for_function(
        "() => { const s = window.yannivStore.get(); return !s.sent && s.view && s.view.pending"
        " && s.view.pending.seat !== s.me.seat; }")
    page.evaluate(DRAWN_JS)


@pytest.fixture
def slow_bots(live_server: Any) -> Any:
    """Computer players that wait (a state stays while the test looks at it)."""
    turns = live_server.app.state.rooms.bot_turns
    turns.delay_scale = 100.0
    yield turns
    turns.delay_scale = live_server.app.state.settings.bot_delay_scale


def test_focus_follows_every_action(pages: Any, live_server: Any, slow_bots: Any) -> None:
    from yanniv.games.yanniv.rules.state import Pending

    code, tokens = start_room(pages.base, "Clavière")
    page = open_seat(pages, code, 0, tokens[0], PHONE)

    # Our turn: the hand region (digits select, Enter plays); after the play, « Piocher ».
    install(live_server, code, ["5S 5H 9C KD", *OTHERS], pile="AC 9S 8C 7D 6D")
    wait_kind(page, "turn")
    wait_focus(page, "hand", "our turn")
    # Selecting by a click keeps the focus on the card (it is redrawn selected).
    page.click('#hand [data-code="9C"]')
    page.wait_for_function("() => window.yannivStore.get().selection.join() === '9C'")
    page.evaluate(DRAWN_JS)
    wait_focus(page, "9C", "after selecting")
    page.keyboard.press("Space")
    page.wait_for_function("() => window.yannivStore.get().selection.length === 0")
    page.focus("#hand")
    page.keyboard.press("1")
    page.keyboard.press("2")
    page.wait_for_function("() => window.yannivStore.get().selection.length === 2")
    page.keyboard.press("Enter")
    wait_kind(page, "draw")
    wait_focus(page, "draw-pile-btn", "after playing")
    # The draw ends the turn: the hand region again, never the page body.
    page.keyboard.press("p")
    wait_not_mine(page)
    wait_focus(page, "hand", "after drawing")

    # A 4 after the draw: its prompt's first control; the ask ends the turn.
    install(live_server, code, ["2S 3H 8S", *OTHERS], played="4S",
            pending=Pending("four_ask", 0, remaining=1))
    wait_kind(page, "four_ask")
    page.wait_for_function("() => !!document.activeElement.closest('#decision [data-target]')")
    page.click('#decision [data-rank="7"]')
    page.click("#ask-btn")
    wait_not_mine(page)
    wait_focus(page, "hand", "after asking")

    # Asked by someone else's 4: the first card we may give; giving hands the turn back.
    install(live_server, code, ["2S 9C 9D", *OTHERS], turn=1, played="4C",
            pending=Pending("four_give", 0, other=1, rank=9))
    wait_kind(page, "four_give")
    first = page.get_attribute("#decision button[data-code]", "data-code")
    assert first in {"9C", "9D"}, first
    wait_focus(page, first, "4 give")
    page.keyboard.press("Enter")
    wait_not_mine(page)
    wait_focus(page, "hand", "after giving")

    # The King: its first card; the swap ends the turn.
    install(live_server, code, ["2S 3H 8S", *OTHERS], played="KS",
            pending=Pending("king", 0, remaining=1))
    wait_kind(page, "king")
    wait_focus(page, "2S", "King prompt")
    page.keyboard.press("Enter")  # on a card: Enter presses it (the card to give)
    page.click('#decision [data-target="2"]')
    page.click("#king-btn")
    wait_not_mine(page)
    wait_focus(page, "hand", "after the King")

    # The Queen (mandatory here, no plain draw): its draw, the card to keep, the turn ends.
    install(live_server, code, ["2S 3H", *OTHERS], played="QS", pile="4H 7H 9S 8C")
    wait_kind(page, "draw")
    wait_focus(page, "queen-btn", "Queen's draw")
    page.keyboard.press("Enter")
    wait_kind(page, "queen_keep")
    wait_focus(page, "4H", "Queen's keep")
    page.keyboard.press("Enter")
    page.wait_for_selector("#queen-confirm:not([disabled])")
    page.click("#queen-confirm")
    wait_not_mine(page)
    wait_focus(page, "hand", "after the Queen")

    # The Jack's take back: D goes to the choice (several cards), Enter takes one.
    install(live_server, code, ["2S 7S 8H", *OTHERS], played="JS",
            discard=["4D", "3S 3H", "5S"])
    wait_kind(page, "draw")
    page.keyboard.press("d")
    page.wait_for_function("() => !!document.activeElement.closest('#decision [data-take]')")
    taken = page.evaluate("() => document.activeElement.dataset.take")
    assert taken in {"3S", "3H", "5S"}, taken
    page.keyboard.press("Enter")
    wait_not_mine(page)
    assert taken in state(page)["view"]["hand"]
    wait_focus(page, "hand", "after the Jack")

    # A drawn card that extends the play: its prompt offers to put it down.
    install(live_server, code, ["2S 7C", *OTHERS], played="5S", pile="5H 9S 8C")
    wait_kind(page, "draw")
    page.keyboard.press("p")
    wait_kind(page, "play_drawn")
    wait_focus(page, "at-once-btn", "drawn card")
    page.keyboard.press("Enter")
    wait_not_mine(page)
    wait_focus(page, "hand", "after playing at once")
    # Declining (powers are mandatory in this room; the drawn card may be kept): « Garder ».
    install(live_server, code, ["2S 7C", *OTHERS], played="5S", pile="5H 9S 8C")
    wait_kind(page, "draw")
    page.keyboard.press("p")
    wait_kind(page, "play_drawn")
    page.click("#skip-btn")
    wait_not_mine(page)
    wait_focus(page, "hand", "after declining")

    # YANNIV by its key: the reveal takes the focus (its « Continuer »), then gives it back.
    slow_bots.delay_scale = 0.05
    install(live_server, code, ["AS 2S", *OTHERS])
    wait_kind(page, "turn")
    page.keyboard.press("y")
    page.wait_for_selector("#result-close", state="visible")
    wait_focus(page, "result-close", "the reveal")
    page.keyboard.press("Enter")
    page.wait_for_selector("#result-close", state="detached")
    page.wait_for_function("() => ['hand', 'draw-pile-btn'].includes(document.activeElement.id)"
                           " || !!document.activeElement.closest('#decision')")


def test_shortcuts_are_declared_and_never_fire_while_typing(pages: Any, live_server: Any,
                                                            slow_bots: Any) -> None:
    code, tokens = start_room(pages.base, "Touches")
    page = open_seat(pages, code, 0, tokens[0], LAPTOP)
    install(live_server, code, ["AS 2S 3H", *OTHERS])
    wait_kind(page, "turn")
    declared = page.evaluate("""() => Object.fromEntries(
      ['play-btn', 'yanniv-btn', 'help-btn'].map((id) =>
        [id, document.getElementById(id).getAttribute('aria-keyshortcuts')]))""")
    assert declared == {"play-btn": "Enter", "yanniv-btn": "Y", "help-btn": "?"}, declared
    cards = page.eval_on_selector_all("#hand [data-code]", "(els) => els.map((e) => "
                                      "[e.dataset.code, e.getAttribute('aria-keyshortcuts')])")
    assert cards == [["AS", "1"], ["2S", "2"], ["3H", "3"]], cards
    # Arrows move among the cards (from the hand region, → enters at the first one).
    wait_focus(page, "hand", "turn")
    page.keyboard.press("ArrowRight")
    wait_focus(page, "AS", "→ from the hand")
    page.keyboard.press("ArrowRight")
    wait_focus(page, "2S", "→")
    page.keyboard.press("End")
    wait_focus(page, "3H", "End")
    page.keyboard.press("ArrowLeft")
    wait_focus(page, "2S", "←")
    page.keyboard.press("Space")  # the focused card's own key
    page.wait_for_function("() => window.yannivStore.get().selection.join() === '2S'")
    page.keyboard.press("2")  # the same card by its digit: unselected
    page.wait_for_function("() => window.yannivStore.get().selection.length === 0")
    # Typing in a field: no shortcut (no YANNIV, no card selected).
    page.evaluate("""() => { const i = document.createElement('input');
      i.id = 'typing'; i.setAttribute('aria-label', 'test'); document.body.append(i); }""")
    page.focus("#typing")
    page.keyboard.type("y1?")
    page.wait_for_timeout(300)
    s = state(page)
    assert s["view"]["pending"] == {**s["view"]["pending"], "kind": "turn", "seat": 0}
    assert page.evaluate("() => window.yannivStore.get().selection") == []
    assert page.evaluate("() => !!document.querySelector('dialog[open]')") is False
    assert page.input_value("#typing") == "y1?"
    page.evaluate("() => document.getElementById('typing').remove()")
    # With a modifier: nothing either (the browser's own shortcuts stay).
    page.focus("#hand")
    page.keyboard.press("Control+1")
    page.wait_for_timeout(200)
    assert page.evaluate("() => window.yannivStore.get().selection") == []


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_help_panel_opens_and_gives_the_focus_back(pages: Any, live_server: Any,
                                                   axe_ready: None, slow_bots: Any,
                                                   lang: str) -> None:
    code, tokens = start_room(pages.base, f"Aide-{lang}")
    page = open_seat(pages, code, 0, tokens[0], PHONE, lang=lang)
    install(live_server, code, ["AS 2S 3H", *OTHERS])
    wait_kind(page, "turn")
    wait_focus(page, "hand", "turn")
    title = {"fr": "Raccourcis clavier", "en": "Keyboard shortcuts"}[lang]
    assert page.get_attribute("#help-btn", "aria-label") == title
    # By its visible button: a modal dialog named by its title, the focus inside.
    page.click("#help-btn")
    page.wait_for_selector("dialog#help[open]")
    assert page.evaluate("() => document.getElementById('help').matches(':modal')")
    assert page.inner_text("#help-title") == title
    wait_focus(page, "help-close", "help opened")
    rows = page.locator("#help tbody tr").count()
    assert rows == 9, rows
    text = page.inner_text("#help")
    for key in ("P", "D", "Y", "?", {"fr": "Entrée", "en": "Enter"}[lang]):
        assert key in text, key
    screenshot(page, f"table-help-{lang}")
    found = axe.violations(page)
    assert not found, axe.describe(found)
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog#help:not([open])", state="attached")
    wait_focus(page, "help-btn", "help closed by Escape")
    # By `?` from the hand: closed by its button, the focus goes back to the hand.
    page.focus("#hand")
    page.keyboard.press("?")
    page.wait_for_selector("dialog#help[open]")
    page.keyboard.press("1")  # under the dialog, the table's shortcuts are off
    page.click("#help-close")
    page.wait_for_selector("dialog#help:not([open])", state="attached")
    wait_focus(page, "hand", "help closed by its button")
    assert page.evaluate("() => window.yannivStore.get().selection") == []
    # Closed, then opened again from the hand before the browser's `close` event (a later
    # task) came: that late event must not take the new opening's place to go back to. Once a
    # loaded machine ran a test's steps this close together, and the focus went to the button.
    page.evaluate(REOPEN_JS)
    page.wait_for_selector("dialog#help[open]")
    page.evaluate(DRAWN_JS)
    page.click("#help-close")
    page.wait_for_selector("dialog#help:not([open])", state="attached")
    wait_focus(page, "hand", "help opened again before the first close event")


#: In one task: open the help from the hand by `?`, close it by its button, and open it again
#: from the hand, so that the first closing's `close` event comes after the second opening.
REOPEN_JS = """() => {
  const hand = document.getElementById('hand');
  const key = () => hand.dispatchEvent(new KeyboardEvent('keydown', { key: '?', bubbles: true }));
  hand.focus();
  key();
  document.getElementById('help-close').click();
  hand.focus();
  key();
}"""


#: Every sentence added to the live region, as a screen reader hears them.
RECORD_JS = """() => { window.__said = [];
  const start = () => {
    const box = document.getElementById('announce');
    if (!box) return setTimeout(start, 20);
    new MutationObserver((list) => { for (const m of list) for (const n of m.addedNodes)
      window.__said.push(n.textContent); }).observe(box, { childList: true });
  };
  document.addEventListener('DOMContentLoaded', start);
}"""
NN, NB = "\u202f", "\u00a0"

#: What Aurore (seat 0, French page) hears, written out by hand.
AURORE_HEARS = [
    "Vous posez deux 5 et piochez l'As de trèfle.",
    "Yanis pose le 10 de carreau et pioche le 5 de cœur dans la défausse.",
    "Vous posez le 4 de pique et piochez l'As de cœur.",
    "Vous demandez un As à Yanis.",
    "Yanis n'a pas d'As.",
    "Yanis pose le 3 de trèfle et pioche.",
    f"Vous dites YANNIV{NN}!",
    "Yanis pose le 10 de trèfle et pioche.",
    f"Vous avez toujours 5 points ou moins{NB}: la manche s'arrête.",
    f"Fin de la manche 1{NB}: vous gagnez.",
    f"Partie terminée{NB}: vous gagnez{NN}!",
]
#: What Yanis (seat 1, English page) hears.
YANIS_HEARS = [
    "Aurore plays two 5s and draws.",
    "You play the 10 of diamonds and take the 5 of hearts from the discard.",
    "Aurore plays the 4 of spades and draws.",
    "Aurore asks you for an Ace.",
    "You have no Ace.",
    "You play the 3 of clubs and draw the 9 of spades.",
    "Aurore calls YANNIV!",
    "You play the 10 of clubs and draw the 8 of clubs.",
    "Aurore still has 5 points or less: the round ends.",
    "End of round 1: Aurore wins.",
    "Match over: Aurore wins!",
]


def _heard(page: Any, count: int) -> list[str]:
    page.wait_for_function(f"() => window.__said.length >= {count}")
    return page.evaluate("() => window.__said")


def test_live_region_says_what_each_player_does(pages: Any, live_server: Any) -> None:
    code, tokens = start_room(pages.base, "Aurore", bots=0, humans=("Yanis",), manches=1)
    aurore = open_seat(pages, code, 0, tokens[0], PHONE, init=f"({RECORD_JS})()")
    yanis = open_seat(pages, code, 1, tokens[1], LAPTOP, lang="en", init=f"({RECORD_JS})()")
    # Aurore's hand sorts as AD 2D 4S 5S 5H; Yanis's as 2H 3C TD TC. The pile, top first.
    install(live_server, code, ["AD 2D 4S 5S 5H", "2H 3C TD TC"],
            pile="AC AH 9S 8C 7D 6D 9D 8D")
    wait_kind(aurore, "turn")
    assert aurore.evaluate("() => window.__said") == []  # the deal and the rig say nothing
    # Aurore: the two 5s by their digits, Enter, then P.
    aurore.keyboard.press("4")
    aurore.keyboard.press("5")
    aurore.keyboard.press("Enter")
    wait_kind(aurore, "draw")
    aurore.keyboard.press("p")
    # Yanis: his 10 of diamonds, then the 5 of hearts from Aurore's pair.
    wait_kind(yanis, "turn")
    yanis.keyboard.press("3")
    yanis.keyboard.press("Enter")
    wait_kind(yanis, "draw")
    yanis.click('#decision [data-take="5H"]')
    # Aurore (A♦ A♣ 2♦ 4♠): the 4, a card drawn, then she asks Yanis for an Ace (he has none).
    wait_kind(aurore, "turn")
    aurore.keyboard.press("4")
    aurore.keyboard.press("Enter")
    wait_kind(aurore, "draw")
    aurore.keyboard.press("p")
    wait_kind(aurore, "four_ask")
    aurore.click('#decision [data-rank="1"]')
    aurore.click("#ask-btn")
    # Yanis: his 3, from the pile.
    wait_kind(yanis, "turn")
    yanis.keyboard.press("2")
    yanis.keyboard.press("Enter")
    wait_kind(yanis, "draw")
    yanis.keyboard.press("p")
    # Aurore: YANNIV (A♦ A♣ A♥ 2♦: 5 points); Yanis's last lap: his 10 of clubs, from the pile.
    wait_kind(aurore, "turn")
    aurore.keyboard.press("y")
    wait_kind(yanis, "turn")
    yanis.click('#hand [data-code="TC"]')
    yanis.click("#play-btn:not([disabled])")
    wait_kind(yanis, "draw")
    yanis.keyboard.press("p")
    aurore.wait_for_selector("#ranking li")
    assert _heard(aurore, len(AURORE_HEARS)) == AURORE_HEARS
    assert _heard(yanis, len(YANIS_HEARS)) == YANIS_HEARS
    # The region itself: polite, and it keeps the latest sentences for a reader who returns.
    assert aurore.get_attribute("#announce", "aria-live") == "polite"
    kept = aurore.locator("#announce p").all_inner_texts()
    assert kept == AURORE_HEARS[-len(kept):] and len(kept) >= 5, kept
    # For the screenshots only: the region (visually hidden) drawn over the page's top.
    show = ("#announce { position: fixed !important; inset: 0 0 auto 0; width: auto !important;"
            " height: auto !important; clip: auto !important; white-space: normal !important;"
            " z-index: 99; background: #fff; color: #000; padding: .5rem; font-size: 14px; }")
    for page, name in ((aurore, "table-announced-fr"), (yanis, "table-announced-en")):
        page.add_style_tag(content=show)
        screenshot(page, name)
