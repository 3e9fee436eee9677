"""FastAPI dependencies shared by the HTTP routes and the socket endpoint."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Request
from starlette.requests import HTTPConnection

from yanniv.server.ops.ratelimit import WrongCodeLimiter
from yanniv.server.rooms.registry import Rooms
from yanniv.server.settings import Settings


def get_rooms(conn: HTTPConnection) -> Rooms:
    return conn.app.state.rooms


def get_settings(conn: HTTPConnection) -> Settings:
    return conn.app.state.settings


def get_code_limiter(conn: HTTPConnection) -> WrongCodeLimiter:
    return conn.app.state.code_limiter


def owner_secret(request: Request) -> str | None:
    return request.scope.get("state", {}).get("owner_secret")


def client_ip(conn: HTTPConnection) -> str:
    """The client's address for every limit, HTTP and socket alike: the direct peer, or the
    one a trusted proxy named (`ProxyHeadersMiddleware` in `create_app` rewrote it then)."""
    return conn.client.host if conn.client else "unknown"


RoomsDep = Annotated[Rooms, Depends(get_rooms)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
CodeLimiterDep = Annotated[WrongCodeLimiter, Depends(get_code_limiter)]
OwnerSecret = Annotated[str | None, Depends(owner_secret)]
ClientIp = Annotated[str, Depends(client_ip)]
SeatToken = Annotated[str | None, Header(alias="X-Seat-Token")]
