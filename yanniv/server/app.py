"""`create_app(settings)`: the whole web app, its state on `app.state` (no import-time globals).

At start it upgrades the database schema and brings back every room from the database.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException
from starlette.middleware.gzip import GZipMiddleware
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from yanniv.db.session import Database
from yanniv.server import http_games, http_rooms, ws
from yanniv.server.errors import GameError, game_error, validation_detail
from yanniv.server.limits import BodyLimitMiddleware
from yanniv.server.owner import OwnerCookieMiddleware
from yanniv.server.ratelimit import SocketCaps, WrongCodeLimiter
from yanniv.server.rooms import Rooms
from yanniv.server.settings import Settings

log = logging.getLogger(__name__)


def _include_other_parts(app: FastAPI) -> None:
    """The browser pages, static files and profiles, written by the other parts."""
    from yanniv.profiles import api as profiles_api
    from yanniv.webapp import pages

    app.include_router(pages.router)
    pages.mount_static(app)
    app.include_router(profiles_api.router)


async def _game_error(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, GameError)
    return JSONResponse(exc.body(), status_code=exc.status, headers=exc.headers)


async def _validation_error(_request: Request, exc: Exception) -> Response:
    """Every malformed request answers in the shape of other refusals, in French and English
    of our own (pydantic's English text never reaches `message`)."""
    assert isinstance(exc, RequestValidationError)
    french, english = validation_detail(exc.errors(), 1, ("requête", "request"))
    error = game_error("invalid_request", french, english)
    return JSONResponse(error.body(), status_code=error.status)


#: Framework refusals (no route, wrong method) by HTTP status.
_HTTP_CODES = {404: "not_found", 405: "method_not_allowed"}


async def _http_error(request: Request, exc: Exception) -> Response:
    """The framework's refusals in the same shape: unknown address, wrong method, and the
    errors routes raise with a ready `{code, message, message_en}` detail (profiles). A
    browser asking for an unknown page gets the French HTML 404 page instead."""
    assert isinstance(exc, HTTPException)
    headers = dict(exc.headers or {})
    detail = exc.detail
    if isinstance(detail, dict) and {"code", "message", "message_en"} <= detail.keys():
        body = {key: str(detail[key]) for key in ("code", "message", "message_en")}
        return JSONResponse(body, status_code=exc.status_code, headers=headers)
    path = request.url.path
    if (exc.status_code == 404 and not path.startswith("/api/")
            and "text/html" in request.headers.get("accept", "")):
        from yanniv.webapp.pages import not_found_page

        return not_found_page(request)
    code = _HTTP_CODES.get(exc.status_code)
    error = game_error(code) if code else game_error("http_error", exc.status_code)
    return JSONResponse(error.body(), status_code=exc.status_code, headers=headers)


async def _server_error(request: Request, exc: Exception) -> Response:
    """A bug answers in the same shape too (logged with its traceback)."""
    log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
    error = game_error("server_error")
    return JSONResponse(error.body(), status_code=error.status)


def install_error_handlers(app: FastAPI) -> None:
    """Every refusal of `app` answers `{code, message, message_en}` (tests of routers mounted
    on their own app install them too)."""
    app.add_exception_handler(GameError, _game_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(Exception, _server_error)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    db = Database(settings.database_url, settings.db_threads)
    rooms = Rooms(db, settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await db.run(db.upgrade)
        await rooms.load()
        try:
            yield
        finally:
            rooms.close()
            db.close()

    app = FastAPI(title="Yanniv", lifespan=lifespan)
    app.state.settings = settings
    app.state.db = db
    app.state.rooms = rooms
    app.state.code_limiter = WrongCodeLimiter(
        settings.limits_storage, settings.wrong_code_limit, settings.wrong_code_window,
        settings.code_lookup_limit, settings.code_lookup_window,
    )
    app.state.socket_caps = SocketCaps(settings.max_sockets_per_ip, settings.max_sockets_per_room,
                                       settings.max_sockets_per_seat)
    app.add_middleware(OwnerCookieMiddleware, secure=settings.cookie_secure)
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)
    # Pages, scripts, styles and JSON answers over 1 KB travel gzipped (sockets are untouched).
    app.add_middleware(GZipMiddleware, minimum_size=1024)
    install_error_handlers(app)
    # Outermost: every part (and `deps.client_ip`) sees the client named by a trusted proxy,
    # and only by one; `yanniv serve` turns uvicorn's own, looser, header handling off.
    app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=settings.trusted_proxy_list())
    app.include_router(http_rooms.router)
    app.include_router(http_games.router)
    app.include_router(ws.router)
    _include_other_parts(app)
    return app
