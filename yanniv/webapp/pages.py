"""HTML pages of the browser client: home, room (lobby and table), rules, language switch,
and (from `profile_pages`) the leaderboard, profile and match pages.

`router` is included by `yanniv.app.create_app`; `mount_static(app)` serves `web/static`
at `/static`. Pages render through `templating.render` so that `base.html` finds its `t()`
and `current_lang()` helpers.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from markupsafe import Markup

from yanniv.lang import COOKIE, LANGS
from yanniv.server.codes import is_code, normalize_code
from yanniv.webapp import i18n, profile_pages
from yanniv.webapp.templating import render

WEB_DIR = i18n.WEB_DIR
REPO_DIR = WEB_DIR.parent
QUESTIONS_FILE = REPO_DIR / "QUESTIONS.md"

router = APIRouter(include_in_schema=False)
router.include_router(profile_pages.router)


class RevalidatedStatic(StaticFiles):
    """Static files that browsers keep and revalidate (ETag → 304) rather than fetch again
    whole: `no-cache`, since the URLs carry no content hash yet (a long max-age would mix
    modules of two versions after a deploy)."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers.setdefault("Cache-Control", "no-cache")
        return response


def mount_static(app: FastAPI) -> None:
    """Serve `web/static` at `/static`."""
    app.mount("/static", RevalidatedStatic(directory=str(WEB_DIR / "static")), name="static")


def not_found_page(request: Request) -> HTMLResponse:
    """The page a browser gets for an address that does not exist (French or English)."""
    return render(request, "home.html", {"page": "home"}, status_code=404)


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    return render(request, "home.html", {"page": "home"})


@router.get("/r/{code}", response_class=HTMLResponse)
def room(request: Request, code: str) -> Response:
    """The room page under its one address: another spelling of a code (case, spaces,
    dashes) is sent to the canonical one, so a seat is always remembered under one code."""
    canonical = normalize_code(code)
    if not is_code(canonical):
        return not_found_page(request)
    if canonical != code:
        return RedirectResponse(f"/r/{canonical}", status_code=301)
    return render(request, "room.html", {"page": "room", "code": canonical})


@router.get("/regles", response_class=HTMLResponse)
def rules(request: Request) -> HTMLResponse:
    return render(request, "regles.html", {"page": "rules", "questions": questions_html()})


@router.get("/lang/{lang}")
def switch_lang(lang: str, next: str = "/") -> Response:
    """Set the language cookie and go back to the page (same site only)."""
    parts = urlsplit(next)
    target = next if not parts.scheme and not parts.netloc and next.startswith("/") else "/"
    response = RedirectResponse(target, status_code=303)
    if lang in LANGS:
        response.set_cookie(COOKIE, lang, max_age=365 * 24 * 3600, samesite="lax")
    return response


# --- QUESTIONS.md, rendered at request time (a tiny, escaping Markdown subset) ---

_INLINE = [
    (re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
    (re.compile(r"\*\*([^*]+)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"(?<![\w*])\*([^*\n]+)\*(?!\w)"), r"<em>\1</em>"),
]


def _inline(text: str) -> str:
    out = html.escape(text, quote=False)
    for pattern, repl in _INLINE:
        out = pattern.sub(repl, out)
    return out


def markdown_html(source: str) -> str:
    """Headings, paragraphs, bullet and numbered lists, tables, code spans; all text escaped."""
    out: list[str] = []
    para: list[str] = []
    list_kind: str | None = None
    table: list[list[str]] = []

    def flush_para() -> None:
        if para:
            out.append("<p>" + _inline(" ".join(para)) + "</p>")
            para.clear()

    def close_list() -> None:
        nonlocal list_kind
        if list_kind:
            out.append(f"</{list_kind}>")
            list_kind = None

    def flush_table() -> None:
        if not table:
            return
        rows = [r for r in table if not all(re.fullmatch(r":?-{2,}:?", c.strip()) for c in r)]
        out.append('<div class="table-wrap"><table>')
        for i, row in enumerate(rows):
            tag = "th" if i == 0 else "td"
            out.append("<tr>" + "".join(f"<{tag}>{_inline(c.strip())}</{tag}>" for c in row)
                       + "</tr>")
        out.append("</table></div>")
        table.clear()

    for raw in source.splitlines():
        line = raw.rstrip()
        stripped = line.strip()
        if stripped.startswith("|") and stripped.endswith("|") and len(stripped) > 1:
            flush_para()
            close_list()
            table.append(stripped[1:-1].split("|"))
            continue
        flush_table()
        if not stripped:
            flush_para()
            close_list()
            continue
        heading = re.match(r"^(#{1,6})\s+(.*)$", stripped)
        bullet = re.match(r"^[-*]\s+(.*)$", stripped)
        number = re.match(r"^\d+[.)]\s+(.*)$", stripped)
        if heading:
            flush_para()
            close_list()
            level = min(len(heading.group(1)) + 1, 6)
            out.append(f"<h{level}>{_inline(heading.group(2))}</h{level}>")
        elif bullet or number:
            flush_para()
            kind = "ul" if bullet else "ol"
            if list_kind != kind:
                close_list()
                out.append(f"<{kind}>")
                list_kind = kind
            item = (bullet or number).group(1)  # type: ignore[union-attr]
            out.append(f"<li>{_inline(item)}</li>")
        elif list_kind and raw.startswith((" ", "\t")) and out and out[-1].endswith("</li>"):
            out[-1] = out[-1][: -len("</li>")] + " " + _inline(stripped) + "</li>"
        else:
            close_list()
            para.append(stripped)
    flush_para()
    close_list()
    flush_table()
    return "\n".join(out)


def questions_html(path: Path | None = None) -> Markup | None:
    path = path or QUESTIONS_FILE
    try:
        source = path.read_text(encoding="utf-8")
    except OSError:
        return None
    return Markup(markdown_html(source))
