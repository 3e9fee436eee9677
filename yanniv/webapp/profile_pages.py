"""The pages of profiles: leaderboard, a profile, a finished match (the JSON API's data, as
HTML in the request's language).

They belong to the web layer, above profiles: `yanniv.profiles` computes the data and words it
(`profiles.texts`), these routes only render it. Included in `pages.router`.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from yanniv.db.session import DbSession
from yanniv.games import DEFAULT_GAME, GAMES
from yanniv.lang import lang_of
from yanniv.profiles.api import MatchId, Page
from yanniv.profiles.identity import request_owner_secret
from yanniv.profiles.leaderboard import PER_PAGE, leaderboard
from yanniv.profiles.links import PAGE_BASE, profile_api_url, pseudo_of_request
from yanniv.profiles.models import MIN_RATED_MATCHES
from yanniv.profiles.schemas import SortKey
from yanniv.profiles.stats import match_detail, profile_stats
from yanniv.profiles.texts import texts, tr
from yanniv.server.errors import MESSAGES
from yanniv.webapp.templating import render

router = APIRouter(include_in_schema=False)


def fmt_date(value: datetime | None) -> str:
    """dd/mm/yyyy HH:MM UTC (SQLite hands back naive datetimes, stored as UTC)."""
    if value is None:
        return ""
    if value.tzinfo is not None:
        value = value.astimezone(UTC)
    return value.strftime("%d/%m/%Y %H:%M UTC")


def _page(request: Request, name: str, context: dict[str, Any], status: int = 200) -> HTMLResponse:
    lang = lang_of(request)
    ctx = {
        "tx": texts(lang),
        "tr": lambda key, **kw: tr(lang, key, **kw),
        "fmt_date": fmt_date,
        "profile_api_url": profile_api_url,
    }
    return render(request, name, {**ctx, **context}, status_code=status)


def _message(code: str, request: Request) -> str:
    """A catalogued refusal's text in the page's language (`server/errors.py` holds them)."""
    _status, fr, en = MESSAGES[code]
    return fr if lang_of(request) == "fr" else en


@router.get("/classement", response_class=HTMLResponse)
def page_leaderboard(
    request: Request, db: DbSession, sort: SortKey = "rating", page: Page = 1,
    game: str = DEFAULT_GAME,
) -> HTMLResponse:
    # Per game; an unknown game is a 404 page (board None), not a JSON refusal.
    board = leaderboard(db, sort, page, PER_PAGE, game=game) if game in GAMES else None
    return _page(
        request,
        "leaderboard.html",
        {"page": "leaderboard", "board": board, "min_matches": MIN_RATED_MATCHES,
         "games": GAMES, "game": game, "unknown_game": _message("unknown_game", request)},
        status=200 if board is not None else 404,
    )


def _profile_page(pseudo: str, request: Request, db: DbSession) -> HTMLResponse:
    out = profile_stats(db, pseudo, request_owner_secret(request)) if pseudo else None
    return _page(
        request,
        "profile.html",
        {"page": "profile", "profile": out, "pseudo": pseudo, "games": GAMES},
        status=200 if out else 404,
    )


@router.get("/profil/{pseudo:path}", response_class=HTMLResponse)
def page_profile(pseudo: str, request: Request, db: DbSession) -> HTMLResponse:
    return _profile_page(pseudo_of_request(pseudo, request, PAGE_BASE), request, db)


@router.get("/profil", response_class=HTMLResponse)
def page_profile_by_query(request: Request, db: DbSession, pseudo: str = "") -> HTMLResponse:
    return _profile_page(pseudo, request, db)


@router.get("/match/{match_id}", response_class=HTMLResponse)
def page_match(match_id: MatchId, request: Request, db: DbSession) -> HTMLResponse:
    out = match_detail(db, match_id)
    return _page(
        request,
        "match.html",
        {"page": "match", "match": out, "match_id": match_id},
        status=200 if out else 404,
    )
