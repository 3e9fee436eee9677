"""Tables for profiles, their owners and finished matches.

Pages must stay fast with 100,000 profiles and 1,000,000 matches, so every number the
leaderboard or a profile header shows is a denormalized counter, kept up to date by
`record_finished_match`: the identity (pseudo, password, owners) is on `profiles`, the rating
and statistics of each game the profile played on `profile_games` (one row per profile and
game: a YANNIV rating says nothing about classic Yaniv). The per-match tables only feed "last
matches" and match pages, through indexes on (profile, finished_at) and the match id.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    SmallInteger,
    String,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from yanniv.db.base import Base

#: Matches a profile needs before it appears in the rating leaderboard (a fresh rating says
#: nothing). Baked into a partial index, so changing it needs a migration.
MIN_RATED_MATCHES = 5
MU0 = 25.0
SIGMA0 = 25.0 / 3.0

# Integer primary keys that autoincrement on both SQLite (INTEGER) and PostgreSQL (BIGINT).
BigId = BigInteger().with_variant(Integer(), "sqlite")


class Profile(Base):
    """A pseudo that finished at least one rated match: its identity, whatever the game."""

    __tablename__ = "profiles"

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    pseudo: Mapped[str] = mapped_column(String(40))
    #: `pseudo.casefold()`, unique: "Léa" and "LÉA" are the same profile.
    pseudo_key: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(200), default=None)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: Last rated match of any game.
    last_played_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)


def _rated(column: str) -> Any:
    return text(f"{column} >= {MIN_RATED_MATCHES}")


class ProfileGame(Base):
    """A profile's rating and counters in one game, created by its first rated match of it.

    `calls` / `calls_won` count the manche-ending calls the player made and those that
    succeeded: YANNIV in YANNIV, "Yaniv" in classic Yaniv (every game of the family has one).
    """

    __tablename__ = "profile_games"

    profile_id: Mapped[int] = mapped_column(
        ForeignKey("profiles.id", ondelete="CASCADE"), primary_key=True
    )
    #: The game's registry id (`yanniv.games.GAMES`).
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float, default=MU0)
    sigma: Mapped[float] = mapped_column(Float, default=SIGMA0)
    #: mu - 3 sigma, the conservative estimate the leaderboard sorts by.
    ordinal: Mapped[float] = mapped_column(Float, default=MU0 - 3 * SIGMA0)
    matches_played: Mapped[int] = mapped_column(Integer, default=0)
    matches_won: Mapped[int] = mapped_column(Integer, default=0)
    manches_played: Mapped[int] = mapped_column(Integer, default=0)
    manches_won: Mapped[int] = mapped_column(Integer, default=0)
    #: Sum of score changes over the manches played (for the mean points per manche).
    points_sum: Mapped[int] = mapped_column(Integer, default=0)
    calls: Mapped[int] = mapped_column(Integer, default=0)
    calls_won: Mapped[int] = mapped_column(Integer, default=0)
    #: Lowest final total over all matches (lower is better in the Yaniv family).
    best_total: Mapped[int | None] = mapped_column(Integer, default=None)

    # Each leaderboard of a game is one range of one index: (game, sort key, profile id).
    # The rating one also carries matches_played, its WHERE column, so that SQLite reads it
    # as a covering index (it otherwise fetches every row to re-check the predicate).
    __table_args__ = (
        Index(
            "ix_profile_games_rating",
            game,
            ordinal.desc(),
            profile_id,
            matches_played,
            postgresql_where=_rated("matches_played"),
            sqlite_where=_rated("matches_played"),
        ),
        Index("ix_profile_games_wins", game, matches_won.desc(), profile_id),
        Index("ix_profile_games_matches", game, matches_played.desc(), profile_id),
    )


class ProfileCounts(Base):
    """Per game: how many profiles played it and how many are rated (enough matches).

    Kept by `record_finished_match` (a row appears with a game's first profile) so leaderboard
    pages need no COUNT over 100,000 rows.
    """

    __tablename__ = "profile_game_counts"

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    profiles: Mapped[int] = mapped_column(Integer, default=0)
    rated_profiles: Mapped[int] = mapped_column(Integer, default=0)


class ProfileOwner(Base):
    """One browser secret (hashed) proving ownership of a profile; a profile may have several."""

    __tablename__ = "profile_owners"

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    profile_id: Mapped[int] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"))
    #: sha256 hex of the `yanniv_owner` cookie: the secret is random, a fast hash suffices.
    secret_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        Index("uq_profile_owners_profile_secret", "profile_id", "secret_hash", unique=True),
        Index("ix_profile_owners_secret_hash", "secret_hash"),
    )


class FinishedMatchRow(Base):
    """One finished match, kept for match pages and replays."""

    __tablename__ = "finished_matches"

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    room_code: Mapped[str] = mapped_column(String(16))
    seed: Mapped[str] = mapped_column(String(64))
    #: Its game, rules code version and config (`Game.config_to_data`), to replay `actions`.
    #: (Server defaults: see migration 0005; the server always writes all three.)
    game: Mapped[str] = mapped_column(String(32), server_default="yanniv")
    rules_version: Mapped[str] = mapped_column(String(32), server_default="yanniv-1")
    config: Mapped[dict[str, Any]] = mapped_column(JSON, server_default=text("'{}'"))
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    seats: Mapped[int] = mapped_column(SmallInteger)
    manches: Mapped[int] = mapped_column(SmallInteger)
    rated: Mapped[bool] = mapped_column(Boolean, default=True)
    actions: Mapped[list | None] = mapped_column(JSON, default=None)


class FinishedMatchPlayer(Base):
    """A seat of a finished match: who played it, final total and rank, rating change."""

    __tablename__ = "finished_match_players"

    match_id: Mapped[int] = mapped_column(
        ForeignKey("finished_matches.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    #: None for bots and for unrated matches.
    profile_id: Mapped[int | None] = mapped_column(
        ForeignKey("profiles.id", ondelete="SET NULL"), default=None
    )
    pseudo: Mapped[str] = mapped_column(String(40))
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    total: Mapped[int] = mapped_column(Integer)
    #: 1 for the winner.
    rank: Mapped[int] = mapped_column(SmallInteger)
    #: Copied from the match so "last matches of a profile" is one index range scan.
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ordinal_before: Mapped[float | None] = mapped_column(Float, default=None)
    ordinal_after: Mapped[float | None] = mapped_column(Float, default=None)

    __table_args__ = (
        Index("ix_finished_match_players_profile_recent", "profile_id", finished_at.desc()),
    )


class FinishedMancheRow(Base):
    """One player's line of one manche: hand points, score change, YANNIV call, win."""

    __tablename__ = "finished_manches"

    match_id: Mapped[int] = mapped_column(
        ForeignKey("finished_matches.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    seat: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    tiebreak: Mapped[bool] = mapped_column(Boolean, default=False)
    #: False for a seat sitting out a tiebreak manche.
    played: Mapped[bool] = mapped_column(Boolean, default=True)
    points: Mapped[int] = mapped_column(SmallInteger)
    delta: Mapped[int] = mapped_column(SmallInteger)
    called: Mapped[bool] = mapped_column(Boolean, default=False)
    #: For the caller: whether the YANNIV succeeded; None for the others.
    call_won: Mapped[bool | None] = mapped_column(Boolean, default=None)
    won: Mapped[bool] = mapped_column(Boolean, default=False)
