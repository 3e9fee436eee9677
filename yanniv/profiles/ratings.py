"""Ratings as shown to players, and the leaderboard queries.

Every leaderboard sort reads one index of `profiles` (see models.py): the page's ids come from
an index-only scan with LIMIT/OFFSET, then only those 50 rows are fetched (a "deferred join",
so deep pages do not read every skipped row). The number of pages comes from the one-row
`profile_counts`, not from a COUNT over every profile.
"""

from __future__ import annotations

import math

from sqlalchemy import func, literal_column, select, text
from sqlalchemy.orm import Session

from yanniv.profiles.links import profile_url
from yanniv.profiles.models import MIN_RATED_MATCHES, Profile, ProfileCounts
from yanniv.profiles.schemas import LeaderboardEntry, LeaderboardPage, RatingOut, SortKey

PER_PAGE = 50

_ORDER = {
    "rating": (Profile.ordinal.desc(), Profile.id),
    "wins": (Profile.matches_won.desc(), Profile.id),
    "matches": (Profile.matches_played.desc(), Profile.id),
}


def rating_out(mu: float, sigma: float, ordinal: float) -> RatingOut:
    """Skill with its uncertainty: "mu ± 3σ" reads as the range the true skill lies in."""
    return RatingOut(
        mu=round(mu, 3),
        sigma=round(sigma, 3),
        ordinal=round(ordinal, 3),
        display=f"{mu:.1f} ± {3 * sigma:.1f}",
    )


def ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _filter(sort: SortKey) -> list:
    # Same predicate as the partial index ix_profiles_rating, as a literal rather than a bound
    # parameter: SQLite only uses a partial index when it can prove the WHERE implies it.
    at_least = literal_column(str(MIN_RATED_MATCHES))
    return [Profile.matches_played >= at_least] if sort == "rating" else []


def _total(session: Session, sort: SortKey) -> int:
    counts = session.get(ProfileCounts, 1)
    if counts is None:  # not expected: migration 0002 inserts the row
        where = _filter(sort)
        return session.execute(select(func.count()).select_from(Profile).where(*where)).scalar_one()
    return counts.rated_profiles if sort == "rating" else counts.profiles


def leaderboard(
    session: Session, sort: SortKey = "rating", page: int = 1, per_page: int = PER_PAGE
) -> LeaderboardPage:
    """One page of the leaderboard; `page` is 1-based and clamped to at least 1."""
    page = max(page, 1)
    total = _total(session, sort)
    ids = (
        select(Profile.id)
        .where(*_filter(sort))
        .order_by(*_ORDER[sort])
        .limit(per_page)
        .offset((page - 1) * per_page)
        .subquery()
    )
    rows = session.execute(
        select(
            Profile.pseudo,
            Profile.mu,
            Profile.sigma,
            Profile.ordinal,
            Profile.matches_played,
            Profile.matches_won,
        )
        .join(ids, ids.c.id == Profile.id)
        .order_by(*_ORDER[sort])
    ).all()
    first = (page - 1) * per_page + 1
    return LeaderboardPage(
        sort=sort,
        page=page,
        per_page=per_page,
        total=total,
        pages=max(1, math.ceil(total / per_page)),
        min_matches=MIN_RATED_MATCHES,
        entries=[
            LeaderboardEntry(
                position=first + i,
                pseudo=r.pseudo,
                url=profile_url(r.pseudo),
                rating=rating_out(r.mu, r.sigma, r.ordinal),
                matches_played=r.matches_played,
                matches_won=r.matches_won,
                win_rate=ratio(r.matches_won, r.matches_played),
            )
            for i, r in enumerate(rows)
        ],
    )


def rating_position(session: Session, profile: Profile) -> int | None:
    """Place of `profile` in the rating leaderboard (None below the minimum of matches).

    Counts the rows ahead of it in the partial index: an index-only range scan.
    """
    if profile.matches_played < MIN_RATED_MATCHES:
        return None
    # Two range conditions rather than one OR, so each is an index-only count.
    if session.get_bind().dialect.name == "sqlite":
        # SQLite's planner otherwise picks ix_profiles_matches and reads the whole table.
        ahead = session.execute(
            text(
                "SELECT COUNT(*) FROM profiles INDEXED BY ix_profiles_rating "
                f"WHERE matches_played >= {MIN_RATED_MATCHES} AND ordinal > :o"
            ),
            {"o": profile.ordinal},
        ).scalar_one()
    else:
        ahead = session.execute(
            select(func.count())
            .select_from(Profile)
            .where(*_filter("rating"), Profile.ordinal > profile.ordinal)
        ).scalar_one()
    tied = session.execute(
        select(func.count())
        .select_from(Profile)
        .where(*_filter("rating"), Profile.ordinal == profile.ordinal, Profile.id < profile.id)
    ).scalar_one()
    return ahead + tied + 1
