"""`create_app(settings)`: the whole web app, its state on `app.state` (no import-time globals).

At start it upgrades the database schema and brings back every room from the database.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exception_handlers import request_validation_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from yanniv.db.session import Database
from yanniv.server import http_rooms, ws
from yanniv.server.errors import GameError, game_error
from yanniv.server.limits import BodyLimitMiddleware
from yanniv.server.owner import OwnerCookieMiddleware
from yanniv.server.ratelimit import SocketCaps, WrongCodeLimiter
from yanniv.server.rooms import Rooms
from yanniv.server.settings import Settings


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


async def _validation_error(request: Request, exc: Exception) -> Response:
    """Room routes answer malformed bodies in the same French shape as other refusals."""
    assert isinstance(exc, RequestValidationError)
    if not request.url.path.startswith("/api/rooms"):
        return await request_validation_exception_handler(request, exc)
    problem = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "?"}
    where = ".".join(str(p) for p in problem.get("loc", ())[1:]) or "corps"
    error = game_error("invalid_request", f"{where}: {problem.get('msg')}")
    return JSONResponse(error.body(), status_code=422)


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
    app.state.code_limiter = WrongCodeLimiter(settings.limits_storage, settings.wrong_code_limit,
                                              settings.wrong_code_window)
    app.state.socket_caps = SocketCaps(settings.max_sockets_per_ip, settings.max_sockets_per_room,
                                       settings.max_sockets_per_seat)
    app.add_middleware(OwnerCookieMiddleware, secure=settings.cookie_secure)
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)
    # Outermost: every part (and `deps.client_ip`) sees the client named by a trusted proxy,
    # and only by one; `yanniv serve` turns uvicorn's own, looser, header handling off.
    app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=settings.trusted_proxy_list())
    app.add_exception_handler(GameError, _game_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.include_router(http_rooms.router)
    app.include_router(ws.router)
    _include_other_parts(app)
    return app
