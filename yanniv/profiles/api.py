"""HTTP side of profiles: the JSON API (in OpenAPI) and the pages that show the same data.

The database session comes from the server's `yanniv.db.session.DbSession` dependency
(`request.app.state.db`), committed when the route returns without error.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any
from urllib.parse import unquote_to_bytes

from fastapi import APIRouter, HTTPException, Path, Query, Request, Response
from fastapi.responses import HTMLResponse

from yanniv.db.session import DbSession
from yanniv.games import DEFAULT_GAME, GAMES
from yanniv.profiles.identity import OWNER_COOKIE
from yanniv.profiles.links import (
    API_BASE,
    PAGE_BASE,
    PSEUDO_PARAM,
    profile_api_url,
    profile_url,
)
from yanniv.profiles.models import MIN_RATED_MATCHES
from yanniv.profiles.password import (
    LoginThrottle,
    NotOwnerError,
    ProfileNotFoundError,
    login,
    set_password,
)
from yanniv.profiles.ratings import PER_PAGE, leaderboard
from yanniv.profiles.schemas import (
    LeaderboardPage,
    LoginIn,
    MatchOut,
    OkOut,
    PasswordIn,
    ProfileOut,
    SortKey,
)
from yanniv.profiles.stats import match_detail, profile_stats
from yanniv.profiles.texts import texts, tr

router = APIRouter()
throttle = LoginThrottle()
#: Owner cookies live ten years: losing one means losing the profile unless it has a password.
OWNER_MAX_AGE = 10 * 365 * 24 * 3600

Page = Annotated[int, Query(ge=1, le=1_000_000, description="1-based page number")]
MatchId = Annotated[int, Path(ge=1, le=2**62, description="finished match record id")]
QueryPseudo = Annotated[str, Query(min_length=1, description="the pseudo, as typed")]


def _lang(request: Request) -> str:
    from yanniv.webapp.i18n import lang_of

    return lang_of(request)


def _secret(request: Request) -> str | None:
    """This browser's owner secret: the one the server's cookie middleware put in force for
    this request (it may have just minted it), else the raw cookie."""
    return getattr(request.state, "owner_secret", None) or request.cookies.get(OWNER_COOKIE)


def _error(status: int, key: str) -> HTTPException:
    """A refusal in the server's error shape: `code` (the text's key without `api.`), the
    French `message` and the English `message_en` (the client shows the page's language)."""
    return HTTPException(status_code=status, detail={
        "code": key.removeprefix("api."), "message": tr("fr", key), "message_en": tr("en", key),
    })


# --- JSON API ---


# --- per-game leaderboard (issue 17: one rating per game) ---

GameId = Annotated[str, Query(max_length=32, description="a game id of GET /api/games")]


def _known_game(game: str) -> str:
    if game not in GAMES:
        raise _error(422, "api.unknown_game")
    return game


@router.get(
    "/api/leaderboard", response_model=LeaderboardPage, tags=["profiles"],
    responses={422: {"description": "unknown game"}},
)
def api_leaderboard(
    db: DbSession, sort: SortKey = "rating", page: Page = 1, game: GameId = DEFAULT_GAME
) -> LeaderboardPage:
    """A page of a game's leaderboard: by rating (profiles with enough matches of this game),
    wins or matches."""
    return leaderboard(db, sort, page, PER_PAGE, game=_known_game(game))


# --- end of the per-game leaderboard ---


def _pseudo(from_path: str, request: Request, base: str, tail: str = "") -> str:
    """The pseudo from the path, else from `?pseudo=` (how `.` and `..` travel, see links.py).

    The path is decoded again from the raw bytes the client sent, so that the pseudo is
    percent-decoded exactly once whatever the server in front did (`100%2525` is `100%25`).
    """
    raw = request.scope.get("raw_path")
    head, end = f"{base}/".encode(), tail.encode()
    if isinstance(raw, bytes) and raw.startswith(head) and raw.endswith(end) \
            and len(raw) >= len(head) + len(end):
        segment = raw[len(head) : len(raw) - len(end)]
        from_path = unquote_to_bytes(segment).decode("utf-8", "replace")
    return from_path or request.query_params.get(PSEUDO_PARAM, "")


def _profile(pseudo: str, request: Request, db: DbSession) -> ProfileOut:
    out = profile_stats(db, pseudo, _secret(request)) if pseudo else None
    if out is None:
        raise _error(404, "api.profile_not_found")
    return out


_PROFILE_404 = {404: {"description": "no profile with this pseudo"}}


@router.get(
    "/api/profiles/{pseudo:path}", response_model=ProfileOut, tags=["profiles"],
    responses=_PROFILE_404,
)
def api_profile(pseudo: str, request: Request, db: DbSession) -> ProfileOut:
    """A profile's rating, statistics and last matches (pseudo is case-insensitive).

    The pseudo is one percent-encoded path segment, `/` included (`AC%2FDC`)."""
    return _profile(_pseudo(pseudo, request, API_BASE), request, db)


@router.get("/api/profiles", response_model=ProfileOut, tags=["profiles"], responses=_PROFILE_404)
def api_profile_by_query(pseudo: QueryPseudo, request: Request, db: DbSession) -> ProfileOut:
    """The same as `/api/profiles/{pseudo}`, for the pseudos `.` and `..`, which browsers
    cannot send as a path segment (any pseudo works here)."""
    return _profile(pseudo, request, db)


@router.get(
    "/api/matches/{match_id}",
    response_model=MatchOut,
    tags=["profiles"],
    responses={404: {"description": "no such match"}},
)
def api_match(match_id: MatchId, request: Request, db: DbSession) -> MatchOut:
    """A finished match: players, ranking and manche-by-manche scores."""
    out = match_detail(db, match_id)
    if out is None:
        raise _error(404, "api.match_not_found")
    return out


@router.post(
    "/api/profiles/login",
    response_model=OkOut,
    tags=["profiles"],
    responses={401: {"description": "wrong pseudo or password"}, 429: {"description": "throttled"}},
)
def api_login(body: LoginIn, request: Request, response: Response, db: DbSession) -> OkOut:
    """Log this device in to a password-protected profile; sets the `yanniv_owner` cookie."""
    if throttle.blocked(body.pseudo):
        raise _error(429, "api.login_throttled")
    secret = login(db, body.pseudo, body.password, _secret(request))
    if secret is None:
        throttle.failed(body.pseudo)
        raise _error(401, "api.login_failed")
    throttle.succeeded(body.pseudo)
    response.set_cookie(
        OWNER_COOKIE,
        secret,
        max_age=OWNER_MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    out = profile_stats(db, body.pseudo, secret, limit=0)
    pseudo = out.pseudo if out else body.pseudo
    return OkOut(
        message=tr(_lang(request), "api.login_ok", pseudo=pseudo), profile_url=profile_url(pseudo)
    )


_PASSWORD_ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"description": "this browser does not own the profile"}, 404: {},
}


def _set_password(pseudo: str, body: PasswordIn, request: Request, db: DbSession) -> OkOut:
    try:
        set_password(db, pseudo, _secret(request), body.password)
    except ProfileNotFoundError:
        raise _error(404, "api.profile_not_found") from None
    except NotOwnerError:
        raise _error(403, "api.not_owner") from None
    return OkOut(message=tr(_lang(request), "api.password_set"), profile_url=profile_url(pseudo))


@router.post(
    "/api/profiles/{pseudo:path}/password", response_model=OkOut, tags=["profiles"],
    responses=_PASSWORD_ERRORS,
)
def api_set_password(pseudo: str, body: PasswordIn, request: Request, db: DbSession) -> OkOut:
    """Set or change the password of a profile owned by this browser (argon2id hash)."""
    return _set_password(_pseudo(pseudo, request, API_BASE, "/password"), body, request, db)


@router.post(
    "/api/profiles/password", response_model=OkOut, tags=["profiles"],
    responses=_PASSWORD_ERRORS,
)
def api_set_password_by_query(
    pseudo: QueryPseudo, body: PasswordIn, request: Request, db: DbSession
) -> OkOut:
    """The same as `/api/profiles/{pseudo}/password`, the pseudo in `?pseudo=` (for `.`, `..`)."""
    return _set_password(pseudo, body, request, db)


# --- pages ---


def fmt_date(value: datetime | None) -> str:
    """dd/mm/yyyy HH:MM UTC (SQLite hands back naive datetimes, stored as UTC)."""
    if value is None:
        return ""
    if value.tzinfo is not None:
        value = value.astimezone(UTC)
    return value.strftime("%d/%m/%Y %H:%M UTC")


def _page(request: Request, name: str, context: dict[str, Any], status: int = 200) -> HTMLResponse:
    from yanniv.webapp.pages import render

    lang = _lang(request)
    ctx = {
        "tx": texts(lang),
        "tr": lambda key, **kw: tr(lang, key, **kw),
        "fmt_date": fmt_date,
        "profile_api_url": profile_api_url,
    }
    return render(request, name, {**ctx, **context}, status_code=status)


@router.get("/classement", response_class=HTMLResponse, include_in_schema=False)
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
         "games": GAMES, "game": game},
        status=200 if board is not None else 404,
    )


def _profile_page(pseudo: str, request: Request, db: DbSession) -> HTMLResponse:
    out = profile_stats(db, pseudo, _secret(request)) if pseudo else None
    return _page(
        request,
        "profile.html",
        {"page": "profile", "profile": out, "pseudo": pseudo},
        status=200 if out else 404,
    )


@router.get("/profil/{pseudo:path}", response_class=HTMLResponse, include_in_schema=False)
def page_profile(pseudo: str, request: Request, db: DbSession) -> HTMLResponse:
    return _profile_page(_pseudo(pseudo, request, PAGE_BASE), request, db)


@router.get("/profil", response_class=HTMLResponse, include_in_schema=False)
def page_profile_by_query(request: Request, db: DbSession, pseudo: str = "") -> HTMLResponse:
    return _profile_page(pseudo, request, db)


@router.get("/match/{match_id}", response_class=HTMLResponse, include_in_schema=False)
def page_match(match_id: MatchId, request: Request, db: DbSession) -> HTMLResponse:
    out = match_detail(db, match_id)
    return _page(
        request,
        "match.html",
        {"page": "match", "match": out, "match_id": match_id},
        status=200 if out else 404,
    )
