"""HTML pages of the browser client: home, room (lobby and table), rules, language switch.

`router` is included by the server's `create_app`; `mount_static(app)` serves `web/static`
at `/static`. Other page owners render their templates with `templates` (or `render`) so that
`base.html` finds its `t()` and `current_lang()` helpers.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from yanniv.games import DEFAULT_GAME, GAMES
from yanniv.server.codes import is_code, normalize_code
from yanniv.server.validation import PSEUDO_MAX
from yanniv.webapp import i18n
from yanniv.webapp.rules import rules_html

WEB_DIR = i18n.WEB_DIR

templates = Jinja2Templates(directory=str(WEB_DIR / "templates"))
i18n.install(templates.env)
#: The pseudo inputs stop where the server's check does, instead of refusing after submit.
templates.env.globals["pseudo_max"] = PSEUDO_MAX

router = APIRouter(include_in_schema=False)


def render(request: Request, name: str, context: dict[str, Any] | None = None,
           status_code: int = 200) -> HTMLResponse:
    """Render a template extending `base.html` in the request's language."""
    ctx = {"lang": i18n.lang_of(request), **(context or {})}
    return templates.TemplateResponse(request, name, ctx, status_code=status_code)


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
    if lang in i18n.LANGS:
        response.set_cookie(i18n.COOKIE, lang, max_age=365 * 24 * 3600, samesite="lax")
    return response
