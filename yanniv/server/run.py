"""`yanniv serve`: run the app under uvicorn (SQLite file by default, or the given database)."""

from __future__ import annotations

import logging

import uvicorn

from yanniv.server.app import create_app
from yanniv.server.settings import Settings


def serve(host: str = "127.0.0.1", port: int = 8000, database_url: str | None = None) -> None:
    settings = Settings(database_url=database_url) if database_url else Settings()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        # Above the app's own 4 KiB cap, so oversized messages get a clear error first.
        ws_max_size=64 * 1024,
        proxy_headers=True,
        log_level="info",
    )
