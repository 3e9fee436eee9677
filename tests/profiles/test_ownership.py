"""Pseudos belong to the browser that made them; a password lets the owner use another device."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from tests.profiles import scripted as S
from yanniv.profiles.models import Profile
from yanniv.profiles.password import NotOwnerError, ProfileNotFoundError, login, set_password
from yanniv.profiles.record import check_pseudo, record_finished_match
from yanniv.profiles.stats import profile_stats


@pytest.fixture
def recorded(session: Session) -> Session:
    record_finished_match(session, S.M1)
    session.commit()
    return session


def test_a_new_pseudo_is_free_for_anyone(recorded: Session) -> None:
    assert check_pseudo(recorded, "Nouveau", None) is None
    assert check_pseudo(recorded, "Nouveau", "any") is None


def test_the_owner_may_use_its_pseudo_in_any_case(recorded: Session) -> None:
    for spelling in ("Léa", "léa", "LÉA", " Léa "):
        assert check_pseudo(recorded, spelling, S.LEA) is None


@pytest.mark.parametrize("spelling", ["Léa", "léa", "LÉA"])
@pytest.mark.parametrize("secret", [None, "another-browser", S.BOB])
def test_another_browser_is_refused_case_insensitively(
    recorded: Session, spelling: str, secret: str | None
) -> None:
    message = check_pseudo(recorded, spelling, secret)
    assert message is not None
    assert "« Léa » appartient déjà à un autre joueur" in message
    assert "mot de passe" not in message  # no password yet: nothing to log in with


def test_an_impostor_seat_does_not_touch_the_owner(recorded: Session) -> None:
    before = profile_stats(recorded, "Bob")
    record_finished_match(recorded, S.IMPOSTOR)  # seat 1 plays "bob" from another browser
    recorded.commit()
    after = profile_stats(recorded, "Bob")
    assert before is not None and after is not None
    assert after.games == before.games
    assert [g.matches_played for g in after.games] == [1]


def test_password_flow(recorded: Session) -> None:
    with pytest.raises(NotOwnerError):
        set_password(recorded, "Léa", "another-browser", "motdepasse")
    with pytest.raises(NotOwnerError):
        set_password(recorded, "Léa", None, "motdepasse")
    with pytest.raises(ProfileNotFoundError):
        set_password(recorded, "Personne", S.LEA, "motdepasse")
    set_password(recorded, "LÉA", S.LEA, "motdepasse")
    recorded.commit()
    stored = recorded.execute(select(Profile.password_hash).where(Profile.pseudo == "Léa"))
    assert stored.scalar_one().startswith("$argon2id$")

    # Now the refusal tells the owner how to get in.
    message = check_pseudo(recorded, "léa", "phone")
    assert message is not None and "mot de passe" in message

    assert login(recorded, "Léa", "mauvais", None) is None
    assert login(recorded, "Inconnu", "motdepasse", None) is None
    assert login(recorded, "Bob", "motdepasse", None) is None  # Bob has no password

    # A device without a cookie gets a fresh secret; one with a cookie keeps its own.
    fresh = login(recorded, "léa", "motdepasse", None)
    assert fresh and fresh != S.LEA
    assert login(recorded, "Léa", "motdepasse", "phone") == "phone"
    recorded.commit()
    for secret in (fresh, "phone", S.LEA):
        assert check_pseudo(recorded, "LÉA", secret) is None
    assert check_pseudo(recorded, "Léa", "yet-another") is not None
    # The phone is an owner: it may change the password, and its matches count for Léa.
    set_password(recorded, "Léa", "phone", "nouveaumotdepasse")
    assert login(recorded, "Léa", "motdepasse", None) is None
    m = S.match(
        9, [("Léa", "phone"), ("Bob", S.BOB)], [S.manche(1, 0, True, 0, (1, 7), (-5, 7))], (0, 1)
    )
    record_finished_match(recorded, m)
    recorded.commit()
    lea = profile_stats(recorded, "Léa", "phone")
    assert lea is not None and lea.owned
    assert [(g.matches_played, g.matches_won) for g in lea.games] == [(2, 2)]


def test_an_unowned_profile_is_claimed_by_the_first_browser(session: Session) -> None:
    """A pseudo first finished without any cookie (no secret) goes to the next browser using it."""
    m = S.match(
        1, [("Anon", None), ("Bob", S.BOB)], [S.manche(1, 0, True, 0, (1, 7), (-5, 7))], (0, 1)
    )
    record_finished_match(session, m)
    session.commit()
    assert check_pseudo(session, "anon", "first") is None
    m2 = S.match(
        2, [("Anon", "first"), ("Bob", S.BOB)], [S.manche(1, 0, True, 0, (1, 7), (-5, 7))], (0, 1)
    )
    record_finished_match(session, m2)
    session.commit()
    assert check_pseudo(session, "anon", "first") is None
    assert check_pseudo(session, "anon", "second") is not None
