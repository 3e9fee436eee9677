"""Pseudo normalization and owner secrets, shared by recording, ownership checks and login."""

from __future__ import annotations

import hashlib
import secrets
import unicodedata
from typing import Any

#: Name of the HTTP-only cookie holding the browser's owner secret (see docs/CONTRACTS.md).
OWNER_COOKIE = "yanniv_owner"
#: The longest pseudo, in characters after trimming (the room's check, the profiles' key and
#: the pages' inputs all read it here, beside the normalisation that compares pseudos).
PSEUDO_MAX = 20


def pseudo_key(pseudo: str) -> str:
    """The unique key of a pseudo: NFKC, trimmed, case-folded, so "Léa" == "LÉA" == " léa "."""
    return unicodedata.normalize("NFKC", pseudo).strip().casefold()


def hash_secret(secret: str) -> str:
    """sha256 hex: owner secrets are 256-bit random tokens, so a slow hash buys nothing."""
    return hashlib.sha256(secret.encode()).hexdigest()


def new_secret() -> str:
    """A fresh owner secret, for a browser that logs in without one."""
    return secrets.token_urlsafe(32)


def request_owner_secret(request: Any) -> str | None:
    """This browser's owner secret: the one the server's cookie middleware put in force for
    this request (it may have just minted it), else the raw cookie."""
    return getattr(request.state, "owner_secret", None) or request.cookies.get(OWNER_COOKIE)
