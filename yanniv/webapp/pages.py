"""HTML pages of the browser client: home, room (lobby and table), rules, language switch,
and (from `profile_pages`) the leaderboard, profile and match pages.

`router` is included by `yanniv.app.create_app`; `mount_static(app)` serves `web/static`
at `/static` under content-hashed, immutable URLs (`assets` says how, without a build step),
and `/i18n/…` serves the scripts' dictionaries the same way. Pages render through
`templating.render` so that `base.html` finds its `t()`, `current_lang()` and asset helpers.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from fastapi import APIRouter, FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from yanniv.games import DEFAULT_GAME, GAMES
from yanniv.lang import COOKIE, LANGS
from yanniv.server.rooms.codes import is_code, normalize_code
from yanniv.webapp import i18n, profile_pages
from yanniv.webapp.assets import REVALIDATE, HashedStaticFiles, StaticAssets, immutable_response
from yanniv.webapp.rules import rules_html
from yanniv.webapp.templating import render

WEB_DIR = i18n.WEB_DIR

router = APIRouter(include_in_schema=False)
router.include_router(profile_pages.router)


def mount_static(app: FastAPI, directory: Path | None = None) -> None:
    """Serve `web/static` (or `directory`) at `/static`, hashed URLs immutable (`assets`);
    the pages find the hashes on `app.state.static_assets`."""
    assets = StaticAssets(directory or WEB_DIR / "static")
    app.state.static_assets = assets
    app.mount("/static", HashedStaticFiles(assets), name="static")


@router.get("/i18n/{name}")
def dictionary(request: Request, name: str) -> Response:
    """The scripts' dictionary of a language: `/i18n/fr.<hash>.json` for a year (the URL
    pages give, `i18n.i18n_url`), `/i18n/fr.json` revalidated; another hash is a 404."""
    lang, _, rest = name.partition(".")
    if lang not in LANGS:
        raise HTTPException(status_code=404)
    data, digest = i18n.dictionary(lang)
    if rest == f"{digest}.json":
        return immutable_response(data, name, digest, request.scope)
    if rest == "json":
        return Response(data, media_type="application/json",
                        headers={"Cache-Control": REVALIDATE, "ETag": f'"{digest}"'})
    raise HTTPException(status_code=404)


def _home(request: Request, status_code: int = 200) -> HTMLResponse:
    """The home page: the games a room may play (the registry, in its order, the default
    first selected) and the seat counts of the tagline, from their seat bounds."""
    return render(request, "home.html", {
        "page": "home", "games": GAMES, "default_game": DEFAULT_GAME, "rules_url": rules_url,
        "seats_min": min(g.min_seats for g in GAMES.values()),
        "seats_max": max(g.max_seats for g in GAMES.values()),
    }, status_code=status_code)


def not_found_page(request: Request) -> HTMLResponse:
    """The page a browser gets for an address that does not exist (French or English)."""
    return _home(request, status_code=404)


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    return _home(request)


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


def rules_url(game: str) -> str:
    """The address of a game's rules page: `/regles` for the default game (its address from
    before there were other games), `/regles/<id>` for the others."""
    return "/regles" if game == DEFAULT_GAME else f"/regles/{game}"


def _rules_page(request: Request, game: str) -> HTMLResponse:
    lang = i18n.lang_of(request)
    return render(request, "regles.html", {
        "page": "rules", "game": game, "games": GAMES, "rules_url": rules_url,
        "rules": rules_html(lang, game)})


@router.get("/regles", response_class=HTMLResponse)
def rules(request: Request) -> HTMLResponse:
    return _rules_page(request, DEFAULT_GAME)


@router.get("/regles/{game}", response_class=HTMLResponse)
def game_rules(request: Request, game: str) -> Response:
    """A game's rules; the default game's own address is `/regles` (one address a page)."""
    if game == DEFAULT_GAME:
        return RedirectResponse(rules_url(game), status_code=301)
    if game not in GAMES:
        return not_found_page(request)
    return _rules_page(request, game)


@router.get("/lang/{lang}")
def switch_lang(lang: str, next: str = "/") -> Response:
    """Set the language cookie and go back to the page (same site only)."""
    parts = urlsplit(next)
    target = next if not parts.scheme and not parts.netloc and next.startswith("/") else "/"
    response = RedirectResponse(target, status_code=303)
    if lang in LANGS:
        response.set_cookie(COOKIE, lang, max_age=365 * 24 * 3600, samesite="lax")
    return response
