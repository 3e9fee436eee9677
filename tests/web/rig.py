"""Rigged tables for the browser tests: a started room whose live match is replaced by an
explicit engine state (`yanniv.games.yanniv.rules.rigging.rigged`), so that a test reaches any
decision
(each power prompt, a 6 or a 7 in force, the call that ends a manche) without luck.

The state is put in on the server's own event loop, under the room's lock, with a new room
version (a bot's thought on the old state is dropped) and broadcast like any change. Its step
continues the match's, so that the next action is logged under a step not used yet."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx

from yanniv.games.yanniv.rules.rigging import rigged


def start_room(base: str, pseudo: str, *, bots: int = 3, humans: tuple[str, ...] = (),
               manches: int = 2) -> tuple[str, list[str]]:
    """A started room: `pseudo` hosts at seat 0, then `humans` join, then `bots` computer
    players sit; the host plays first. Returns the code and every human's seat token."""
    created = httpx.post(f"{base}/api/rooms", json={"pseudo": pseudo}).json()
    code, tokens = created["code"], [created["token"]]
    host = {"X-Seat-Token": tokens[0]}
    for other in humans:
        joined = httpx.post(f"{base}/api/rooms/{code}/join", json={"pseudo": other})
        assert joined.status_code == 200, joined.text
        tokens.append(joined.json()["token"])
    for _ in range(bots):
        assert httpx.post(f"{base}/api/rooms/{code}/bots", json={"level": "facile"},
                          headers=host).status_code == 200
    settings = {"manches": manches, "first_player": "host", "log_visible": True,
                "show_known_cards": True, "timer_seconds": None}
    assert httpx.patch(f"{base}/api/rooms/{code}/settings", json=settings,
                       headers=host).status_code == 200
    assert httpx.post(f"{base}/api/rooms/{code}/start", headers=host).status_code == 200
    return code, tokens


def install(live_server: Any, code: str, hands: list[str], **kw: Any) -> None:
    """Make the room's match the rigged state of `hands` (and `rigged`'s keywords)."""
    room = live_server.app.state.rooms.get(code)
    loop = live_server.server.servers[0].get_loop()

    async def put() -> None:
        async with room.lock:
            current = room.match.state
            state = rigged(hands, rules=current.config.rules, manches=current.config.manches,
                           **kw)
            state.step = current.step
            room.match.state = state
            room.version += 1
            live_server.app.state.rooms.play.arm(room)
            room.broadcast()

    asyncio.run_coroutine_threadsafe(put(), loop).result(10)


def open_seat(pages: Any, code: str, seat: int, token: str, viewport: dict[str, int],
              lang: str = "fr", init: str | None = None) -> Any:
    """A page of the room seated at `seat` (its token in localStorage, as after joining);
    `init`: a script run in the page before its own."""
    page = pages.new(viewport)
    if init:
        page.context.add_init_script(init)
    page.context.add_cookies([{"name": "lang", "value": lang, "url": pages.base}])
    stored = json.dumps({"seat": seat, "token": token})
    page.context.add_init_script(
        f"localStorage.setItem('yanniv.seat.{code}', {json.dumps(stored)});")
    page.goto(f"{pages.base}/r/{code}")
    page.wait_for_selector("#hand [data-code]")
    return page


def settle(page: Any) -> None:
    """Finite animations done (a card in flight is half transparent: its contrast and place
    are not final); the endless ones (the acting seat's pulse) are left running."""
    page.evaluate("""async () => {
      await new Promise(requestAnimationFrame);
      await Promise.all(document.getAnimations()
        .filter((a) => a.effect && a.effect.getComputedTiming().endTime < 5000)
        .map((a) => a.finished.catch(() => null)));
      await new Promise(requestAnimationFrame);
    }""")
