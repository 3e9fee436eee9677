"""Passwords on profiles, so a player can use a profile from another device.

The owning browser sets the password (argon2id via argon2-cffi); another device logs in with
pseudo + password and its `yanniv_owner` secret becomes one more owner of the profile.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from limits import RateLimitItemPerSecond
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter
from sqlalchemy.orm import Session

from yanniv.profiles.identity import hash_secret, new_secret, pseudo_key
from yanniv.profiles.models import Profile, ProfileOwner
from yanniv.profiles.stats import find_profile, owns

HASHER = PasswordHasher()
#: Verified against when the pseudo is unknown, so timing does not reveal which pseudos exist.
_DUMMY_HASH = HASHER.hash("not a password")


class NotOwnerError(Exception):
    """The browser does not hold a secret of the profile."""


class ProfileNotFoundError(Exception):
    pass


def set_password(session: Session, pseudo: str, owner_secret: str | None, password: str) -> None:
    """Set or replace the password of a profile this browser owns."""
    profile = find_profile(session, pseudo)
    if profile is None:
        raise ProfileNotFoundError(pseudo)
    if not owns(session, profile.id, owner_secret):
        raise NotOwnerError(pseudo)
    profile.password_hash = HASHER.hash(password)
    session.flush()


def verify_login(session: Session, pseudo: str, password: str) -> Profile | None:
    """The profile if `password` is its password, else None (same cost either way)."""
    profile = find_profile(session, pseudo)
    stored = profile.password_hash if profile is not None else None
    try:
        HASHER.verify(stored or _DUMMY_HASH, password)
    except (VerificationError, InvalidHashError):
        return None
    if profile is None or stored is None:
        return None
    if HASHER.check_needs_rehash(stored):
        profile.password_hash = HASHER.hash(password)
    return profile


def login(session: Session, pseudo: str, password: str, owner_secret: str | None) -> str | None:
    """Log a device in: returns the owner secret to put in its cookie, or None if refused.

    A browser that already has a secret keeps it (so it keeps its other profiles); one without
    gets a fresh secret.
    """
    profile = verify_login(session, pseudo, password)
    if profile is None:
        return None
    secret = owner_secret or new_secret()
    if not owns(session, profile.id, secret):
        session.add(
            ProfileOwner(
                profile_id=profile.id, secret_hash=hash_secret(secret), created_at=datetime.now(UTC)
            )
        )
        session.flush()
    return secret


class LoginThrottle:
    """At most `limit` failed logins per pseudo in `window` seconds, counted in the `limits`
    storage `storage_uri` names: `memory://` (this process) or `redis://…`, shared by the
    processes of a cluster so a guesser spread over them still gets the limit once
    (docs/cluster.md). argon2 already makes each guess slow; this caps online guessing of
    one profile. A success clears the count; counts expire with their window."""

    def __init__(self, limit: int = 10, window: float = 300.0,
                 storage_uri: str = "memory://") -> None:
        self.storage = storage_from_string(storage_uri)
        self.strategy = MovingWindowRateLimiter(self.storage)
        self.item = RateLimitItemPerSecond(limit, max(1, math.ceil(window)))

    def blocked(self, pseudo: str) -> bool:
        return not self.strategy.test(self.item, "login-failures", pseudo_key(pseudo))

    def failed(self, pseudo: str) -> None:
        self.strategy.hit(self.item, "login-failures", pseudo_key(pseudo))

    def succeeded(self, pseudo: str) -> None:
        self.strategy.clear(self.item, "login-failures", pseudo_key(pseudo))
