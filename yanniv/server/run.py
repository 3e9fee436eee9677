"""`yanniv serve`: run the app under uvicorn (SQLite file by default, or the given database)."""

from __future__ import annotations

import logging
from typing import Any

import uvicorn

from yanniv.server.app import create_app
from yanniv.server.logs import redact_tokens
from yanniv.server.settings import Settings


def ws_limits(settings: Settings) -> dict[str, Any]:
    """uvicorn's socket limits: it reads messages far above the app's own cap
    (`max_message_bytes`), so that an oversized message gets the documented error and the
    socket stays open; only one over `ws_max_frame_bytes` is closed (1009) unread. uvicorn
    also pings every socket (protocol-level ping frames, answered by browsers on their own)
    and closes one whose pong does not come: the server's half of the heartbeat."""
    return {"ws_max_size": settings.ws_max_frame_bytes, "ws_max_queue": settings.ws_max_queue,
            "ws_ping_interval": settings.ws_ping_interval,
            "ws_ping_timeout": settings.ws_ping_timeout}


def server_config(settings: Settings, host: str, port: int,
                  log_level: str = "info") -> uvicorn.Config:
    """How `yanniv serve` runs the app (tests start a server from the same config)."""
    return uvicorn.Config(
        create_app(settings),
        host=host,
        port=port,
        **ws_limits(settings),
        # The app itself honours X-Forwarded-For, from `YANNIV_TRUSTED_PROXIES` only: uvicorn's
        # handling would trust 127.0.0.1 (or FORWARDED_ALLOW_IPS) before the app saw the peer.
        proxy_headers=False,
        log_level=log_level,
    )


def serve(host: str = "127.0.0.1", port: int = 8000, database_url: str | None = None) -> None:
    settings = Settings(database_url=database_url) if database_url else Settings()
    config = server_config(settings, host, port)
    # After uvicorn configured its loggers: seat tokens travel in socket URLs.
    redact_tokens("uvicorn.error", "uvicorn.access")
    logging.getLogger("yanniv").setLevel(logging.INFO)
    uvicorn.Server(config).run()
