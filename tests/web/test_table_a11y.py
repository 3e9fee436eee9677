"""axe-core (tests/web/axe.py) on every state of the table, rigged one after the other in a
4-seat room (tests/web/rig.py) on a phone (390×844, in French) and a laptop (1280×800, in
English): each power
prompt, a 6 and a 7 in force, the Jack's take back, someone else's 4 asking us, the reveal
after a YANNIV, the final ranking. Any serious or critical violation fails. Screenshots of
each state go to artifacts/screenshots/table-a11y-*."""

from __future__ import annotations

from typing import Any

import axe
import pytest
from rig import install, open_seat, settle, start_room
from web_driver import screenshot, state

from yanniv.games.yanniv.rules.cards import cards
from yanniv.games.yanniv.rules.state import Constraint, Pending

pytestmark = pytest.mark.browser

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}
#: The phone in French, the laptop in English: both dictionaries' texts are checked.
LANGS = {"phone": "fr", "laptop": "en"}

#: Opponents' hands (seats 1-3), the same in every state, without power cards (a King of
#: theirs in the last lap would swap our small cards and void our YANNIV).
OTHERS = ["TS 2D 3D 5D", "3C TC AD 2H", "AH 5C 2C TH"]


def _one(c: str) -> tuple:
    return cards(c)


#: name → (our hand, `rigged` keywords, the pending kind the page must show).
STATES: dict[str, tuple[str, dict[str, Any], str]] = {
    "six": ("6C 7S 8H TD", {"constraint": Constraint("six", "black")}, "turn"),
    "seven": ("6C 7S 8H TD", {"constraint": Constraint("seven")}, "turn"),
    "jack": ("2S 7S 8H", {"played": "JS", "discard": ["4D", "3S 3H", "5S"]}, "draw"),
    "choose_power": ("2S 3H", {"played": "7H 8H 9H", "power": 7,
                               "pending": Pending("choose_power", 0, ranks=(7, 8, 9))},
                     "choose_power"),
    "choose_colour": ("2S 3H", {"played": "6S 6H",
                                "pending": Pending("choose_colour", 0)}, "choose_colour"),
    "play_drawn": ("2S 5H 7C", {"played": "5S",
                                "pending": Pending("play_drawn", 0, cards=_one("5H"))},
                   "play_drawn"),
    "queen_keep": ("2S 3H", {"played": "QS", "pile": "9C 7D 8C 6D",
                             "pending": Pending("queen_keep", 0, cards=cards("4H 7H"))},
                   "queen_keep"),
    "four_ask": ("2S 3H 8S", {"played": "4S",
                              "pending": Pending("four_ask", 0, remaining=1)}, "four_ask"),
    "four_give": ("2S 9C 9D", {"turn": 1, "played": "4C",
                               "pending": Pending("four_give", 0, other=1, rank=9)},
                  "four_give"),
    "four_exchange": ("2S 3H 9D", {"played": "4S",
                                   "pending": Pending("four_exchange", 0, other=1)},
                      "four_exchange"),
    "four_play_received": ("2S 4H 7C", {"played": "4S", "pending": Pending(
        "four_play_received", 0, cards=_one("4H"))}, "four_play_received"),
    "king": ("2S 3H 8S", {"played": "KS", "pending": Pending("king", 0, remaining=1)}, "king"),
    "last_lap": ("6C 7S 8H TD", {"yanniv_caller": 2}, "turn"),
    "waiting": ("6C 7S 8H TD", {"turn": 1}, "waiting"),
}
#: What each kind of state shows once drawn.
SHOWN = {"turn": "#play-btn", "waiting": "#waiting-for"}


def _axe(page: Any, where: str, failures: list[str]) -> None:
    found = axe.violations(page)
    if found:
        failures.append(f"--- {where}\n{axe.describe(found)}")


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_every_table_state_passes_axe(pages: Any, live_server: Any, axe_ready: None,
                                      size: str) -> None:
    turns = live_server.app.state.rooms.bot_turns
    turns.delay_scale = 100.0  # the computer players wait: each state stays while axe looks
    failures: list[str] = []
    try:
        code, tokens = start_room(pages.base, f"Axe-{size}")
        page = open_seat(pages, code, 0, tokens[0], VIEWPORTS[size], lang=LANGS[size])
        for name, (hand, kw, kind) in STATES.items():
            install(live_server, code, [hand, *OTHERS], **kw)
            page.wait_for_selector(SHOWN.get(kind, f'#decision[data-kind="{kind}"]'))
            pending = state(page)["view"]["pending"]
            assert pending["kind"] == kind or (kind == "waiting" and pending["seat"] != 0), name
            if name in ("six", "seven"):
                page.wait_for_selector("#constraint")
            if name == "last_lap":
                page.wait_for_selector("#lastlap")
            settle(page)
            screenshot(page, f"table-a11y-{size}-{name}")
            _axe(page, f"{name} {size}", failures)
        # A YANNIV that holds: the others' last lap, then the reveal of every hand.
        turns.delay_scale = 0.05
        install(live_server, code, ["AS 2S", *OTHERS])
        page.click("#yanniv-btn")
        page.wait_for_selector("#result-close", state="visible")
        page.wait_for_function("() => document.activeElement.id === 'result-close'")
        settle(page)
        screenshot(page, f"table-a11y-{size}-reveal")
        _axe(page, f"reveal {size}", failures)
        # The last manche: the same call ends the match.
        page.click("#result-close")
        turns.delay_scale = 100.0
        install(live_server, code, ["AS 2S", *OTHERS], manche=2)
        page.wait_for_selector("#yanniv-btn:not([disabled])")
        turns.delay_scale = 0.05
        page.click("#yanniv-btn")
        page.wait_for_selector("#ranking li")
        settle(page)
        screenshot(page, f"table-a11y-{size}-final")
        _axe(page, f"final ranking {size}", failures)
        # The celebration took the focus (« Rejouer »), as the reveal did (« Continuer »).
        page.wait_for_function("() => document.activeElement.id === 'rematch-btn'")
    finally:
        turns.delay_scale = live_server.app.state.settings.bot_delay_scale
    assert not failures, "\n".join(failures)
