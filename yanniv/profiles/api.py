"""HTTP side of profiles: the JSON API (in OpenAPI). The pages that show the same data are
`yanniv.webapp.profile_pages` (the web layer sits above this one).

The database session comes from the `yanniv.db.session.DbSession` dependency
(`request.app.state.db`), committed when the route returns without error.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request, Response

from yanniv.db.session import DbSession
from yanniv.games import DEFAULT_GAME, GAMES
from yanniv.lang import lang_of
from yanniv.profiles.errors import ProfileRefusal
from yanniv.profiles.identity import OWNER_COOKIE, request_owner_secret
from yanniv.profiles.leaderboard import PER_PAGE, leaderboard
from yanniv.profiles.links import API_BASE, profile_url, pseudo_of_request
from yanniv.profiles.password import (
    LoginThrottle,
    NotOwnerError,
    ProfileNotFoundError,
    login,
    set_password,
)
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
from yanniv.profiles.texts import tr

router = APIRouter()
#: The failed-login throttle of an app that set none on `app.state.login_throttle` (the
#: composition root sets one on the configured storage, shared by a cluster's processes).
_LOCAL_THROTTLE = LoginThrottle()
#: Owner cookies live ten years: losing one means losing the profile unless it has a password.
OWNER_MAX_AGE = 10 * 365 * 24 * 3600

Page = Annotated[int, Query(ge=1, le=1_000_000, description="1-based page number")]
MatchId = Annotated[int, Path(ge=1, le=2**62, description="finished match record id")]
QueryPseudo = Annotated[str, Query(min_length=1, description="the pseudo, as typed")]


# --- JSON API ---


# --- per-game leaderboard (issue 17: one rating per game) ---

GameId = Annotated[str, Query(max_length=32, description="a game id of GET /api/games")]


def _known_game(game: str) -> str:
    if game not in GAMES:
        raise ProfileRefusal("unknown_game")
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


def _profile(pseudo: str, request: Request, db: DbSession) -> ProfileOut:
    out = profile_stats(db, pseudo, request_owner_secret(request)) if pseudo else None
    if out is None:
        raise ProfileRefusal("profile_not_found")
    return out


_PROFILE_404 = {404: {"description": "no profile with this pseudo"}}


@router.get(
    "/api/profiles/{pseudo:path}", response_model=ProfileOut, tags=["profiles"],
    responses=_PROFILE_404,
)
def api_profile(pseudo: str, request: Request, db: DbSession) -> ProfileOut:
    """A profile's rating, statistics and last matches (pseudo is case-insensitive).

    The pseudo is one percent-encoded path segment, `/` included (`AC%2FDC`)."""
    return _profile(pseudo_of_request(pseudo, request, API_BASE), request, db)


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
        raise ProfileRefusal("match_not_found")
    return out


@router.post(
    "/api/profiles/login",
    response_model=OkOut,
    tags=["profiles"],
    responses={401: {"description": "wrong pseudo or password"}, 429: {"description": "throttled"}},
)
def api_login(body: LoginIn, request: Request, response: Response, db: DbSession) -> OkOut:
    """Log this device in to a password-protected profile; sets the `yanniv_owner` cookie."""
    throttle: LoginThrottle = getattr(request.app.state, "login_throttle", _LOCAL_THROTTLE)
    if throttle.blocked(body.pseudo):
        raise ProfileRefusal("login_throttled")
    secret = login(db, body.pseudo, body.password, request_owner_secret(request))
    if secret is None:
        throttle.failed(body.pseudo)
        raise ProfileRefusal("login_failed")
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
        message=tr(lang_of(request), "api.login_ok", pseudo=pseudo), profile_url=profile_url(pseudo)
    )


_PASSWORD_ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"description": "this browser does not own the profile"}, 404: {},
}


def _set_password(pseudo: str, body: PasswordIn, request: Request, db: DbSession) -> OkOut:
    try:
        set_password(db, pseudo, request_owner_secret(request), body.password)
    except ProfileNotFoundError:
        raise ProfileRefusal("profile_not_found") from None
    except NotOwnerError:
        raise ProfileRefusal("not_owner") from None
    return OkOut(message=tr(lang_of(request), "api.password_set"), profile_url=profile_url(pseudo))


@router.post(
    "/api/profiles/{pseudo:path}/password", response_model=OkOut, tags=["profiles"],
    responses=_PASSWORD_ERRORS,
)
def api_set_password(pseudo: str, body: PasswordIn, request: Request, db: DbSession) -> OkOut:
    """Set or change the password of a profile owned by this browser (argon2id hash)."""
    pseudo = pseudo_of_request(pseudo, request, API_BASE, "/password")
    return _set_password(pseudo, body, request, db)


@router.post(
    "/api/profiles/password", response_model=OkOut, tags=["profiles"],
    responses=_PASSWORD_ERRORS,
)
def api_set_password_by_query(
    pseudo: QueryPseudo, body: PasswordIn, request: Request, db: DbSession
) -> OkOut:
    """The same as `/api/profiles/{pseudo}/password`, the pseudo in `?pseudo=` (for `.`, `..`)."""
    return _set_password(pseudo, body, request, db)
