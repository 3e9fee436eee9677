"""uvicorn's socket limits, from the server's settings (`yanniv.app.server_config` runs the app
with them; tests of the limits read them here)."""

from __future__ import annotations

from typing import Any

from yanniv.server.realtime.socket_protocol import SocketProtocol
from yanniv.server.settings import Settings


def ws_limits(settings: Settings) -> dict[str, Any]:
    """uvicorn's socket limits: it reads messages far above the app's own cap
    (`max_message_bytes`), so that an oversized message gets the documented error and the
    socket stays open; only one over `ws_max_frame_bytes` is closed (1009) unread. uvicorn
    also pings every socket (protocol-level ping frames, answered by browsers on their own)
    and closes one whose pong does not come: the server's half of the heartbeat. The protocol
    itself is `socket_protocol.SocketProtocol` unless `ws_protocol` names one of uvicorn's."""
    return {"ws_max_size": settings.ws_max_frame_bytes, "ws_max_queue": settings.ws_max_queue,
            "ws_ping_interval": settings.ws_ping_interval,
            "ws_ping_timeout": settings.ws_ping_timeout,
            "ws_per_message_deflate": settings.ws_per_message_deflate,
            "ws": SocketProtocol if settings.ws_protocol == "yanniv" else settings.ws_protocol}
