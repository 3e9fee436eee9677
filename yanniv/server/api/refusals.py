"""Every refusal of the app in one shape, `{code, message, message_en}`: the rooms' and
profiles' errors, the framework's (404, 405, 422) and bugs alike.

The app itself is composed in `yanniv.app.create_app`, above the server, the profiles and
the pages; this module only knows the server's error catalogue (`errors.py`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException

from yanniv.profiles.errors import ProfileRefusal
from yanniv.server.errors import GameError, game_error, validation_detail

log = logging.getLogger(__name__)
#: A page for a browser asking for an address that does not exist (the web layer's).
HtmlNotFound = Callable[[Request], Response]


async def _game_error(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, GameError)
    return JSONResponse(exc.body(), status_code=exc.status, headers=exc.headers)


async def _profile_refusal(_request: Request, exc: Exception) -> Response:
    """The profiles API names a code; its status and texts are the catalogue's."""
    assert isinstance(exc, ProfileRefusal)
    error = game_error(exc.code)
    return JSONResponse(error.body(), status_code=error.status)


async def _validation_error(_request: Request, exc: Exception) -> Response:
    """Every malformed request answers in the shape of other refusals, in French and English
    of our own (pydantic's English text never reaches `message`)."""
    assert isinstance(exc, RequestValidationError)
    french, english = validation_detail(exc.errors(), 1, ("requête", "request"))
    error = game_error("invalid_request", french, english)
    return JSONResponse(error.body(), status_code=error.status)


#: Framework refusals (no route, wrong method) by HTTP status.
_HTTP_CODES = {404: "not_found", 405: "method_not_allowed"}


def _http_error(
    html_not_found: HtmlNotFound | None,
) -> Callable[[Request, Exception], Awaitable[Response]]:
    async def handler(request: Request, exc: Exception) -> Response:
        """The framework's refusals in the same shape: unknown address, wrong method, any
        other status. A browser asking for an unknown page gets `html_not_found`'s page."""
        assert isinstance(exc, HTTPException)
        headers = dict(exc.headers or {})
        path = request.url.path
        if (html_not_found is not None and exc.status_code == 404
                and not path.startswith("/api/")
                and "text/html" in request.headers.get("accept", "")):
            return html_not_found(request)
        code = _HTTP_CODES.get(exc.status_code)
        error = game_error(code) if code else game_error("http_error", exc.status_code)
        return JSONResponse(error.body(), status_code=exc.status_code, headers=headers)

    return handler


async def _server_error(request: Request, exc: Exception) -> Response:
    """A bug answers in the same shape too (logged with its traceback)."""
    log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
    error = game_error("server_error")
    return JSONResponse(error.body(), status_code=error.status)


def install_error_handlers(app: FastAPI, html_not_found: HtmlNotFound | None = None) -> None:
    """Every refusal of `app` answers `{code, message, message_en}` (tests of routers mounted
    on their own app install them too); with `html_not_found`, browsers asking for an unknown
    page outside `/api/` get that page (the composition root passes the web layer's)."""
    app.add_exception_handler(GameError, _game_error)
    app.add_exception_handler(ProfileRefusal, _profile_refusal)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(HTTPException, _http_error(html_not_found))
    app.add_exception_handler(Exception, _server_error)
