"""`yanniv serve`: run the app under uvicorn (SQLite file by default, or the given database)."""

from __future__ import annotations

import logging

import uvicorn

from yanniv.server.app import create_app
from yanniv.server.logs import redact_tokens
from yanniv.server.settings import Settings


def serve(host: str = "127.0.0.1", port: int = 8000, database_url: str | None = None) -> None:
    settings = Settings(database_url=database_url) if database_url else Settings()
    config = uvicorn.Config(
        create_app(settings),
        host=host,
        port=port,
        # Above the app's own 4 KiB cap, so oversized messages get a clear error first.
        ws_max_size=64 * 1024,
        proxy_headers=True,
        log_level="info",
    )
    # After uvicorn configured its loggers: seat tokens travel in socket URLs.
    redact_tokens("uvicorn.error", "uvicorn.access")
    logging.getLogger("yanniv").setLevel(logging.INFO)
    uvicorn.Server(config).run()
