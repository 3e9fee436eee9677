"""The `yanniv_owner` cookie: a random secret identifying this browser to profiles.

Set (HTTP-only) on any HTTP response to a request that did not carry a valid one; the value
in force for the request is put in `scope["state"]["owner_secret"]`.
"""

from __future__ import annotations

import re
import secrets
from http.cookies import SimpleCookie

from starlette.types import ASGIApp, Message, Receive, Scope, Send

COOKIE = "yanniv_owner"
_VALID = re.compile(r"^[A-Za-z0-9_-]{16,128}$")
_MAX_AGE = 10 * 365 * 24 * 3600


def _read_cookie(scope: Scope) -> str | None:
    for name, value in scope.get("headers", ()):
        if name == b"cookie":
            jar: SimpleCookie = SimpleCookie()
            try:
                jar.load(value.decode("latin-1"))
            except Exception:
                return None
            morsel = jar.get(COOKIE)
            if morsel is not None and _VALID.match(morsel.value):
                return morsel.value
    return None


class OwnerCookieMiddleware:
    """Pure ASGI middleware (no per-request task or body buffering)."""

    def __init__(self, app: ASGIApp, secure: bool = False) -> None:
        self.app = app
        self.secure = secure

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        secret = _read_cookie(scope)
        fresh = secret is None and scope["type"] == "http"
        if fresh:
            secret = secrets.token_urlsafe(24)
        scope.setdefault("state", {})["owner_secret"] = secret
        if not fresh:
            await self.app(scope, receive, send)
            return
        cookie = (f"{COOKIE}={secret}; Path=/; Max-Age={_MAX_AGE}; HttpOnly; SameSite=Lax"
                  + ("; Secure" if self.secure else ""))

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                # A route may set the cookie itself (profiles' login): its value wins.
                if not any(name == b"set-cookie" and value.startswith(COOKIE.encode() + b"=")
                           for name, value in headers):
                    headers.append((b"set-cookie", cookie.encode("latin-1")))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_cookie)
