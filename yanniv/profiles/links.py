"""Where a profile lives: its page and JSON API addresses, for any accepted pseudo.

A pseudo goes into a path as one percent-encoded segment (`AC/DC` -> `/profil/AC%2FDC`; the
routes take a `{pseudo:path}` so the decoded slash still matches). Browsers resolve the
segments `.` and `..` (and their `%2E` spellings) before sending anything (WHATWG URL
parsing), so those two pseudos cannot be carried in a path: their addresses put the pseudo
in the `pseudo` query parameter instead, which every route also accepts.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, unquote_to_bytes

PAGE_BASE = "/profil"
API_BASE = "/api/profiles"
#: Name of the query parameter that carries a pseudo the path cannot.
PSEUDO_PARAM = "pseudo"
#: Pseudos a browser would read as "this folder" / "the folder above" in a path.
DOT_SEGMENTS = frozenset({".", ".."})


def _address(base: str, pseudo: str, tail: str = "") -> str:
    encoded = quote(pseudo, safe="")
    if pseudo in DOT_SEGMENTS:
        return f"{base}{tail}?{PSEUDO_PARAM}={encoded}"
    return f"{base}/{encoded}{tail}"


def profile_url(pseudo: str) -> str:
    """The profile page: `/profil/L%C3%A9a`, or `/profil?pseudo=..` for a dot segment."""
    return _address(PAGE_BASE, pseudo)


def profile_api_url(pseudo: str, tail: str = "") -> str:
    """The profile's JSON address, `tail` (such as "/password") after the pseudo."""
    return _address(API_BASE, pseudo, tail)


def pseudo_of_request(from_path: str, request: Any, base: str, tail: str = "") -> str:
    """The pseudo a profile address carries: from the path (the route's `{pseudo:path}`,
    `from_path`), else from `?pseudo=` (how `.` and `..` travel). `base` and `tail` are the
    route's fixed parts (`API_BASE`, "/password").

    The path is decoded again from the raw bytes the client sent, so that the pseudo is
    percent-decoded exactly once whatever the server in front did (`100%2525` is `100%25`).
    """
    raw = request.scope.get("raw_path")
    head, end = f"{base}/".encode(), tail.encode()
    if isinstance(raw, bytes) and raw.startswith(head) and raw.endswith(end) \
            and len(raw) >= len(head) + len(end):
        segment = raw[len(head) : len(raw) - len(end)]
        from_path = unquote_to_bytes(segment).decode("utf-8", "replace")
    return from_path or request.query_params.get(PSEUDO_PARAM, "")
