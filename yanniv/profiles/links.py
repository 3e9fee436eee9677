"""Where a profile lives: its page and JSON API addresses, for any accepted pseudo.

A pseudo goes into a path as one percent-encoded segment (`AC/DC` -> `/profil/AC%2FDC`; the
routes take a `{pseudo:path}` so the decoded slash still matches). Browsers resolve the
segments `.` and `..` (and their `%2E` spellings) before sending anything (WHATWG URL
parsing), so those two pseudos cannot be carried in a path: their addresses put the pseudo
in the `pseudo` query parameter instead, which every route also accepts.
"""

from __future__ import annotations

from urllib.parse import quote

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
