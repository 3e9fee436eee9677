"""Joining from the home page cannot go wrong: a code typed in any case with spaces and
dashes, or a pasted link, seats the player under the room's one address; a wrong code says so
in the page's language and seats nobody (no « déconnecté » ghost left behind)."""

from __future__ import annotations

from typing import Any

import httpx
from web_driver import PHONE


def _seats(live_server: Any, code: str) -> list[dict[str, Any]]:
    return httpx.get(f"{live_server.url}/api/rooms/{code}").json()["seats"]


def _join_from_home(pages: Any, typed: str, pseudo: str) -> Any:
    page = pages.new(PHONE)
    page.goto(pages.base + "/")
    page.fill("#pseudo", pseudo)
    page.fill("#join-code", typed)
    page.click("#join-btn")
    return page


def test_a_code_typed_any_way_or_a_pasted_link_seats_the_player_once(pages: Any,
                                                                     live_server: Any) -> None:
    created = httpx.post(f"{live_server.url}/api/rooms", json={"pseudo": "Accueil"}).json()
    code = created["code"]
    typed = f"  {code[:2].lower()}-{code[2]} {code[3:].lower()} "
    link = f"{live_server.url}/r/{code[:3].lower()}-{code[3:].lower()}?via=sms"
    for pseudo, text in (("Tapé", typed), ("Collé", link)):
        page = _join_from_home(pages, text, pseudo)
        page.wait_for_url(f"{live_server.url}/r/{code}")
        page.wait_for_selector("#waiting-host")
        mine = [s for s in _seats(live_server, code) if s["pseudo"] == pseudo]
        assert len(mine) == 1, mine
        # The seat is remembered under the canonical code: the room page holds it, connected.
        page.wait_for_function("() => window.yannivStore.get().room?.your_seat != null")
        page.wait_for_function(
            "(p) => window.yannivStore.get().room.seats.some((s) => s.pseudo === p && s.connected)",
            arg=pseudo)
    pseudos = [s["pseudo"] for s in _seats(live_server, code)]
    assert pseudos == ["Accueil", "Tapé", "Collé"]


def test_a_wrong_code_says_so_and_seats_nobody(pages: Any, live_server: Any) -> None:
    before = {c: len(r.seats) for c, r in live_server.app.state.rooms.rooms.items()}
    page = _join_from_home(pages, "zz-zz zz", "Perdu")
    page.wait_for_function("() => document.querySelector('#home-error').textContent !== ''")
    assert "salle" in page.inner_text("#home-error").lower()
    assert page.url == pages.base + "/"
    after = {c: len(r.seats) for c, r in live_server.app.state.rooms.rooms.items()}
    assert after == before


def test_a_press_before_the_script_is_ready_neither_reloads_nor_is_lost(pages: Any) -> None:
    """On a slow link the page's module waits for the dictionary: until it has taken the
    form, « Créer » is off (a press would have submitted the form natively and reloaded the
    page, creating nothing); once it is ready, the same press creates the room, under the
    pseudo typed before (the remembered one does not overwrite it)."""
    page = pages.new(PHONE)
    held: list[Any] = []
    page.route("**/i18n/*.json", lambda route: held.append(route))  # the dictionary waits
    page.goto(pages.base + "/", wait_until="domcontentloaded")
    page.fill("#pseudo", "Pressée")
    assert page.locator("#create-btn").is_disabled()
    page.locator("#create-btn").click(force=True)  # pressed anyway: nothing may happen
    page.wait_for_timeout(300)
    assert "?" not in page.url and page.locator("#room-code").count() == 0
    for route in held:
        route.continue_()
    page.unroute("**/i18n/*.json")
    page.click("#create-btn")  # waits for the button to come on
    page.wait_for_selector("#room-code")
    assert "Pressée" in page.inner_text("#seats")
