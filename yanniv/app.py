"""The composition root: `create_app(settings)` builds the whole web app from its layers, and
`serve` runs it under uvicorn (`yanniv serve`).

It sits above the server (rooms, sockets), the profiles API and the pages, so that none of
them imports another layer above itself to be assembled; its state lives on `app.state`
(no import-time globals). At start it upgrades the database schema and brings back every room.
Also an ASGI factory: `uvicorn --factory yanniv.app:create_app`.
"""

from __future__ import annotations

import gc
import logging
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import uvicorn
from fastapi import FastAPI
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette_compress import CompressMiddleware
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from yanniv.db.session import Database
from yanniv.profiles import api as profiles_api
from yanniv.profiles.password import LoginThrottle
from yanniv.server.api import games as http_games
from yanniv.server.api import health as http_health
from yanniv.server.api import rooms as http_rooms
from yanniv.server.api.body_limit import BodyLimitMiddleware
from yanniv.server.api.owner_cookie import OwnerCookieMiddleware
from yanniv.server.api.refusals import install_error_handlers
from yanniv.server.cluster.advertise import advertise_url
from yanniv.server.cluster.lobby_bus import SharedState
from yanniv.server.cluster.routing import OwnerRouting
from yanniv.server.ops.logs import log_config, redact_tokens
from yanniv.server.ops.ratelimit import SocketCaps, WrongCodeLimiter
from yanniv.server.ops.uvicorn_config import ws_limits
from yanniv.server.realtime import ws
from yanniv.server.realtime.lobby_feed import LobbySocket
from yanniv.server.rooms import pseudos
from yanniv.server.rooms.registry import Rooms
from yanniv.server.settings import Settings
from yanniv.webapp import pages

#: Garbage-collector thresholds of a serving process (CPython's defaults: 700, 10, 10). Young
#: collections every 700 allocations cost a server that allocates views and frames for
#: every action; a full collection walks every live room and stalls every socket (hundreds
#: of ms at a few hundred rooms). Rarer young collections let short-lived objects die by
#: reference count first; what is alive after start (modules, restored rooms) is frozen out
#: of the collector's reach (`gc.freeze`). Generation 1 is collected after every third young
#: collection, not every 21st: what thousands of sockets connecting at once leave (a restart's
#: reconnections) is then walked in pieces of 50-96 ms while they connect, not in one
#: collection of 0.4-0.5 s a few minutes later (docs/OPERATIONS.md, « Garbage collection »);
#: the third threshold keeps full collections about as rare as before (after some 3,000
#: young collections; 2,100 with 20 / 100).
GC_THRESHOLDS = (50_000, 2, 1_000)


class YannivApp(FastAPI):
    """FastAPI, with a socket to `/ws/…` handed at once to the app's socket layers: its own
    middlewares from the outermost (the proxy headers) down to `ws.SocketShortcut`, which
    serves every such path (`ws.SOCKET_PATH`, the lobby's included). FastAPI's and Starlette's
    outer layers (the server-error, telemetry and body-limit middlewares) only pass a socket
    on, yet each held a suspended coroutine frame for the socket's whole life and was resumed
    with each of its messages."""

    _sockets: ASGIApp | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and ws.SOCKET_PATH.fullmatch(scope["path"]):
            scope["app"] = self  # what Starlette's own call sets (`WebSocket.app`)
            if self.root_path:
                scope["root_path"] = self.root_path
            await (self._sockets or self._socket_layers())(scope, receive, send)
            return
        await super().__call__(scope, receive, send)

    def _socket_layers(self) -> ASGIApp:
        """The middlewares a socket meets, built as Starlette builds its stack (outermost
        added last), once the app runs (no middleware can be added after that)."""
        layers = []
        for middleware in self.user_middleware:  # outermost first
            layers.append(middleware)
            if middleware.cls is ws.SocketShortcut:
                break
        else:
            raise RuntimeError("the app has no ws.SocketShortcut")
        app: ASGIApp = self.router  # never reached: the shortcut serves every socket path
        for cls, args, kwargs in reversed(layers):
            app = cls(app, *args, **kwargs)
        self._sockets = app
        return app


def create_app(settings: Settings | None = None, tune_gc: bool = False) -> FastAPI:
    """The app. `tune_gc` (what `yanniv serve` does, not the tests' many apps in one
    process): collector thresholds raised and start-up objects frozen, see `GC_THRESHOLDS`."""
    settings = settings or Settings()
    db = Database(settings.database_url, settings.db_threads, settings.sqlite_cache_kib)
    rooms = Rooms(db, settings)
    shared = SharedState(settings, rooms)  # the lobby feed, socket counts (Redis in a cluster)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Each part is stopped once it was asked to start, even when a later part's start
        # raises (the lease keeper would otherwise renew for ever, and the leases stay taken):
        # in the reverse order, so the sockets' feeds stop before the rooms, and the rooms
        # before the database they write to.
        async with AsyncExitStack() as started:
            started.push_async_callback(rooms.store.close)  # the group commit's, at last
            started.callback(db.close)  # waits for a write in flight
            await db.run(db.upgrade)
            started.push_async_callback(rooms.stop)
            await rooms.load()
            started.push_async_callback(shared.stop)
            await shared.start()
            pseudos.prepare()
            if tune_gc:
                gc.set_threshold(*GC_THRESHOLDS)
                gc.collect()
                gc.freeze()
            yield

    app = YannivApp(title="Yanniv", lifespan=lifespan)
    app.state.settings = settings
    app.state.db = db
    app.state.rooms = rooms
    app.state.code_limiter = WrongCodeLimiter(
        settings.limits_storage, settings.wrong_code_limit, settings.wrong_code_window,
        settings.code_lookup_limit, settings.code_lookup_window,
    )
    app.state.login_throttle = LoginThrottle(storage_uri=settings.limits_storage)
    app.state.lobby_feed = shared.feed
    app.state.address_counts = shared.counts
    app.state.socket_caps = SocketCaps(settings.max_sockets_per_ip, settings.max_sockets_per_room,
                                       settings.max_sockets_per_seat, shared.counts)
    app.add_middleware(OwnerCookieMiddleware, secure=settings.cookie_secure)
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)
    # Pages, scripts, styles and JSON answers travel compressed, Brotli or else gzip (sockets
    # are untouched). On the client's files (141 KB) Brotli 5 gives 47.8 KB in 4.5 ms, gzip 6
    # 51.0 KB, Zstandard 4 52.5 KB (it would win the negotiation, so it is off). Even the
    # smallest module the pages load (~400 bytes) shrinks by a third, hence the low threshold.
    app.add_middleware(CompressMiddleware, minimum_size=256, zstd=False, brotli_quality=5,
                       gzip_level=6)
    install_error_handlers(app, html_not_found=pages.not_found_page)
    app.add_middleware(ws.SocketShortcut)
    if settings.cluster:  # before the shortcut: a socket for a room held elsewhere goes there
        app.add_middleware(OwnerRouting, rooms=rooms)
    app.add_middleware(LobbySocket)  # `/ws/lobby`: no room code to route or look up
    # Outermost: every part (and `deps.client_ip`) sees the client named by a trusted proxy,
    # and only by one; `yanniv serve` turns uvicorn's own, looser, header handling off.
    app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=settings.trusted_proxy_list())
    app.include_router(http_health.router)
    app.include_router(http_rooms.router)
    app.include_router(http_games.router)
    app.include_router(ws.router)
    # The browser pages (the profile pages among them), static files and the profiles API.
    app.include_router(pages.router)
    pages.mount_static(app)
    app.include_router(profiles_api.router)
    return app


def server_config(settings: Settings, host: str, port: int,
                  log_level: str = "info", tune_gc: bool = True,
                  logs: bool = False) -> uvicorn.Config:
    """How `yanniv serve` runs the app (tests start a server from the same config, without
    `tune_gc` when they share one process with other apps). With `logs`, the process's
    logging is configured too (`YANNIV_LOG_FORMAT`, `logs.log_config`): what `yanniv serve`
    does, not tests sharing a process (their `yanniv` loggers stay as pytest set them)."""
    app = create_app(settings, tune_gc=tune_gc)
    extra: dict[str, Any] = {}
    if logs:
        extra["log_config"] = log_config(settings.log_format, app.state.rooms.leases.owner,
                                         settings.advertise_url)
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        **extra,
        **ws_limits(settings),
        # The app itself honours X-Forwarded-For, from `YANNIV_TRUSTED_PROXIES` only: uvicorn's
        # handling would trust 127.0.0.1 (or FORWARDED_ALLOW_IPS) before the app saw the peer.
        proxy_headers=False,
        log_level=log_level,
    )


def serve(host: str = "127.0.0.1", port: int = 8000, database_url: str | None = None) -> None:
    """`yanniv serve`: SQLite file by default, or the given database."""
    settings = Settings(database_url=database_url) if database_url else Settings()
    advertised = advertise_url(settings.advertise_url, host, port)
    if advertised != settings.advertise_url:
        settings = settings.model_copy(update={"advertise_url": advertised})
    config = server_config(settings, host, port, logs=True)
    # After uvicorn configured its loggers: seat tokens travel in socket URLs.
    redact_tokens("uvicorn.error", "uvicorn.access")
    if settings.cluster:  # uvicorn's own log: configured by now, unlike the root logger
        logging.getLogger("uvicorn.error").info("Cluster member advertised at %r",
                                                settings.advertise_url)
    uvicorn.Server(config).run()
