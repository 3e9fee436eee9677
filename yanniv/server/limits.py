"""A cap on HTTP request bodies of the room API: nothing it accepts is bigger than a few
hundred bytes, so a huge body is refused before anything parses it."""

from __future__ import annotations

import orjson
from starlette.types import ASGIApp, Receive, Scope, Send

from yanniv.server.errors import game_error


class BodyLimitMiddleware:
    def __init__(self, app: ASGIApp, max_bytes: int, prefix: str = "/api/rooms") -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.prefix = prefix

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].startswith(self.prefix):
            for name, value in scope.get("headers", ()):
                if name == b"content-length" and value.isdigit() and int(value) > self.max_bytes:
                    error = game_error("request_too_large", self.max_bytes)
                    body = orjson.dumps(error.body())
                    await send({"type": "http.response.start", "status": error.status,
                                "headers": [(b"content-type", b"application/json"),
                                            (b"content-length", str(len(body)).encode())]})
                    await send({"type": "http.response.body", "body": body})
                    return
        await self.app(scope, receive, send)
