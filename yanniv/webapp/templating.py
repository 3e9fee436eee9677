"""The Jinja templates of every page, and `render`, which gives them the request's language.

Its own module so that the site's pages (`pages`) and the profile pages (`profile_pages`)
share one environment without importing each other.
"""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from yanniv.lang import lang_of
from yanniv.profiles.identity import PSEUDO_MAX
from yanniv.webapp import assets, i18n

templates = Jinja2Templates(directory=str(i18n.WEB_DIR / "templates"))
i18n.install(templates.env)
assets.install(templates.env)
#: The pseudo inputs stop where the server's check does, instead of refusing after submit.
templates.env.globals["pseudo_max"] = PSEUDO_MAX


def render(request: Request, name: str, context: dict[str, Any] | None = None,
           status_code: int = 200) -> HTMLResponse:
    """Render a template extending `base.html` in the request's language."""
    ctx = {"lang": lang_of(request), **(context or {})}
    return templates.TemplateResponse(request, name, ctx, status_code=status_code)
