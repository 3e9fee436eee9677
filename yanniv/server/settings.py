"""Server settings from the environment (`YANNIV_*`, `DATABASE_URL`), read when the app is made."""

from __future__ import annotations

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from yanniv.db.session import DEFAULT_URL


class Settings(BaseSettings):
    """Everything tunable about the server; tests pass their own instance to `create_app`."""

    model_config = SettingsConfigDict(env_prefix="YANNIV_", extra="ignore", populate_by_name=True)

    database_url: str = Field(
        default=DEFAULT_URL, validation_alias=AliasChoices("DATABASE_URL", "YANNIV_DATABASE_URL")
    )
    #: Threads running blocking database calls (SQLite always uses one writer thread).
    db_threads: int = 4
    #: Multiplies every timer deadline; tests use a small value to expire timers quickly.
    timer_scale: float = 1.0
    #: Largest WebSocket message accepted from a client, in bytes: a bigger one (up to
    #: `ws_max_frame_bytes`) gets the error `message_too_large` and the socket stays open.
    max_message_bytes: int = 4096
    #: Largest WebSocket message the server reads at all (uvicorn's `ws_max_size`): a bigger
    #: one closes the socket with 1009 before the app sees it.
    ws_max_frame_bytes: int = 2 * 1024 * 1024
    #: Messages uvicorn buffers per socket ahead of the app (memory: this × the frame cap).
    ws_max_queue: int = 4
    #: Largest HTTP request body accepted by the room API, in bytes.
    max_body_bytes: int = 16384
    #: Flood protection per socket: sustained messages per second, and the burst allowed.
    flood_rate: float = 10.0
    flood_burst: int = 40
    #: Wrong room codes allowed per client IP within `wrong_code_window` seconds.
    wrong_code_limit: int = 20
    wrong_code_window: float = 300.0
    #: Messages waiting for a slow socket before it is closed.
    send_queue_limit: int = 512
    #: Finished rooms younger than this are reloaded at start (for a rematch).
    keep_finished_hours: float = 24.0
    #: Multiplies the human-like delay before a computer player acts; tests make it tiny.
    bot_delay_scale: float = 1.0
    #: A room with computer players and no person connected for this long is closed.
    bot_room_grace_seconds: float = 300.0
    #: A waiting or playing room with nobody connected for this long is closed (its match
    #: abandoned), so abandoned rooms do not pile up in memory and in every restart.
    idle_room_hours: float = 24.0
    #: Mark the `yanniv_owner` cookie Secure (behind HTTPS).
    cookie_secure: bool = False
