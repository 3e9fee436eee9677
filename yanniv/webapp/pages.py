"""HTML pages of the browser client: home, room (lobby and table), rules, language switch,
and (from `profile_pages`) the leaderboard, profile and match pages.

`router` is included by `yanniv.app.create_app`; `mount_static(app)` serves `web/static`
at `/static`. Pages render through `templating.render` so that `base.html` finds its `t()`
and `current_lang()` helpers.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from yanniv.games import DEFAULT_GAME, GAMES
from yanniv.lang import COOKIE, LANGS
from yanniv.server.codes import is_code, normalize_code
from yanniv.webapp import i18n, profile_pages
from yanniv.webapp.rules import rules_html
from yanniv.webapp.templating import render

WEB_DIR = i18n.WEB_DIR

router = APIRouter(include_in_schema=False)
router.include_router(profile_pages.router)


class RevalidatedStatic(StaticFiles):
    """Static files that browsers keep and revalidate (ETag → 304) rather than fetch again
    whole: `no-cache`, since the URLs carry no content hash yet (a long max-age would mix
    modules of two versions after a deploy)."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers.setdefault("Cache-Control", "no-cache")
        return response


def mount_static(app: FastAPI) -> None:
    """Serve `web/static` at `/static`."""
    app.mount("/static", RevalidatedStatic(directory=str(WEB_DIR / "static")), name="static")


def not_found_page(request: Request) -> HTMLResponse:
    """The page a browser gets for an address that does not exist (French or English)."""
    return render(request, "home.html", {"page": "home"}, status_code=404)


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    return render(request, "home.html", {"page": "home"})


@router.get("/r/{code}", response_class=HTMLResponse)
def room(request: Request, code: str) -> Response:
    """The room page under its one address: another spelling of a code (case, spaces,
    dashes) is sent to the canonical one, so a seat is always remembered under one code."""
    canonical = normalize_code(code)
    if not is_code(canonical):
        return not_found_page(request)
    if canonical != code:
        return RedirectResponse(f"/r/{canonical}", status_code=301)
    # The page's rules summary is YANNIV's, with its numbers from the game (not copies).
    game = GAMES[DEFAULT_GAME]
    limits = game.limits(game.default_settings())
    return render(request, "room.html", {
        "page": "room", "code": canonical, "call_limit": limits["call_limit"],
        "winner_bonus": str(limits["winner_bonus"]).replace("-", "−"),
    })


@router.get("/regles", response_class=HTMLResponse)
def rules(request: Request) -> HTMLResponse:
    lang = i18n.lang_of(request)
    return render(request, "regles.html", {"page": "rules", "rules": rules_html(lang)})


@router.get("/lang/{lang}")
def switch_lang(lang: str, next: str = "/") -> Response:
    """Set the language cookie and go back to the page (same site only)."""
    parts = urlsplit(next)
    target = next if not parts.scheme and not parts.netloc and next.startswith("/") else "/"
    response = RedirectResponse(target, status_code=303)
    if lang in LANGS:
        response.set_cookie(COOKIE, lang, max_age=365 * 24 * 3600, samesite="lax")
    return response
