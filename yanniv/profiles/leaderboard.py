"""Ratings as shown to players, and the per-game leaderboard queries.

Every leaderboard sort of a game reads one range of one index of `profile_games` (see
models.py): the page's ids come from an index-only scan with LIMIT/OFFSET, then only those 50
rows are fetched (a "deferred join", so deep pages do not read every skipped row). The number
of pages comes from the game's row of `profile_game_counts`, not from a COUNT.
"""

from __future__ import annotations

import math

from sqlalchemy import func, literal_column, select, text
from sqlalchemy.orm import Session

from yanniv.games import DEFAULT_GAME
from yanniv.profiles.links import profile_url
from yanniv.profiles.models import MIN_RATED_MATCHES, Profile, ProfileCounts, ProfileGame
from yanniv.profiles.schemas import LeaderboardEntry, LeaderboardPage, RatingOut, SortKey

PER_PAGE = 50

_ORDER = {
    "rating": (ProfileGame.ordinal.desc(), ProfileGame.profile_id),
    "wins": (ProfileGame.matches_won.desc(), ProfileGame.profile_id),
    "matches": (ProfileGame.matches_played.desc(), ProfileGame.profile_id),
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


def _filter(game: str, sort: SortKey) -> list:
    # Same predicate as the partial index ix_profile_games_rating, as a literal rather than a
    # bound parameter: SQLite only uses a partial index when it can prove the WHERE implies it.
    at_least = literal_column(str(MIN_RATED_MATCHES))
    rated = [ProfileGame.matches_played >= at_least] if sort == "rating" else []
    return [ProfileGame.game == game, *rated]


def _total(session: Session, game: str, sort: SortKey) -> int:
    counts = session.get(ProfileCounts, game)
    if counts is None:  # no profile has played this game yet (the row comes with the first)
        where = _filter(game, sort)
        return session.execute(
            select(func.count()).select_from(ProfileGame).where(*where)
        ).scalar_one()
    return counts.rated_profiles if sort == "rating" else counts.profiles


def leaderboard(
    session: Session,
    sort: SortKey = "rating",
    page: int = 1,
    per_page: int = PER_PAGE,
    *,
    game: str = DEFAULT_GAME,
) -> LeaderboardPage:
    """One page of `game`'s leaderboard; `page` is 1-based and clamped to at least 1."""
    page = max(page, 1)
    total = _total(session, game, sort)
    ids = (
        select(ProfileGame.profile_id)
        .where(*_filter(game, sort))
        .order_by(*_ORDER[sort])
        .limit(per_page)
        .offset((page - 1) * per_page)
        .subquery()
    )
    rows = session.execute(
        select(
            Profile.pseudo,
            ProfileGame.mu,
            ProfileGame.sigma,
            ProfileGame.ordinal,
            ProfileGame.matches_played,
            ProfileGame.matches_won,
        )
        .join(ids, ids.c.profile_id == ProfileGame.profile_id)
        .join(Profile, Profile.id == ProfileGame.profile_id)
        .where(ProfileGame.game == game)
        .order_by(*_ORDER[sort])
    ).all()
    first = (page - 1) * per_page + 1
    return LeaderboardPage(
        game=game,
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


def rating_position(session: Session, row: ProfileGame) -> int | None:
    """Place of a profile in its game's rating leaderboard (None below the minimum of matches).

    Counts the rows ahead of it in the partial index: an index-only range scan.
    """
    if row.matches_played < MIN_RATED_MATCHES:
        return None
    # Two range conditions rather than one OR, so each is an index-only count.
    if session.get_bind().dialect.name == "sqlite":
        # SQLite's planner may otherwise pick ix_profile_games_matches and read the game's rows.
        ahead = session.execute(
            text(
                "SELECT COUNT(*) FROM profile_games INDEXED BY ix_profile_games_rating "
                f"WHERE game = :g AND matches_played >= {MIN_RATED_MATCHES} AND ordinal > :o"
            ),
            {"g": row.game, "o": row.ordinal},
        ).scalar_one()
    else:
        ahead = session.execute(
            select(func.count())
            .select_from(ProfileGame)
            .where(*_filter(row.game, "rating"), ProfileGame.ordinal > row.ordinal)
        ).scalar_one()
    tied = session.execute(
        select(func.count())
        .select_from(ProfileGame)
        .where(
            *_filter(row.game, "rating"),
            ProfileGame.ordinal == row.ordinal,
            ProfileGame.profile_id < row.profile_id,
        )
    ).scalar_one()
    return ahead + tied + 1
