"""The language a request asks for: the `lang` cookie, French otherwise.

Below every package that answers requests: the profiles API words its confirmations in it and
the web pages render in it, and neither may import the other's layer to learn it.
"""

from __future__ import annotations

from typing import Any

LANGS = ("fr", "en")
DEFAULT_LANG = "fr"
#: Name of the cookie the language switch sets (`/lang/{lang}`).
COOKIE = "lang"


def lang_of(request: Any) -> str:
    """The language asked by the `lang` cookie, French otherwise."""
    if request is None:
        return DEFAULT_LANG
    value = request.cookies.get(COOKIE, DEFAULT_LANG)
    return value if value in LANGS else DEFAULT_LANG
