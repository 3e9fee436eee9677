"""JSON shapes of the profiles API (also what the pages render), documented in OpenAPI."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

SortKey = Literal["rating", "wins", "matches"]


class RatingOut(BaseModel):
    """An openskill rating: skill `mu`, uncertainty `sigma`, conservative `ordinal` = mu − 3σ."""

    mu: float
    sigma: float
    ordinal: float
    #: e.g. "27.6 ± 24.6" (mu ± 3σ: the range the true skill very probably lies in).
    display: str


class LeaderboardEntry(BaseModel):
    position: int = Field(description="1-based place in this sort order")
    pseudo: str
    url: str = Field(
        description="profile page: /profil/{pseudo percent-encoded, '/' as %2F}, "
        "or /profil?pseudo=. and /profil?pseudo=.. (browsers resolve those in a path)"
    )
    rating: RatingOut
    matches_played: int
    matches_won: int
    win_rate: float | None = Field(description="won / played, 0..1")


class LeaderboardPage(BaseModel):
    game: str = Field(description="the game ranked (its id in GET /api/games)")
    sort: SortKey
    page: int
    per_page: int
    total: int = Field(description="profiles listed in this sort order, over all pages")
    pages: int
    min_matches: int = Field(description="matches needed to appear when sorted by rating")
    entries: list[LeaderboardEntry]


class MatchPlayerOut(BaseModel):
    seat: int
    pseudo: str
    profile_url: str | None = Field(description="None for bots and unlinked seats")
    is_bot: bool
    total: int
    rank: int = Field(description="1 = winner")
    rating_change: float | None = Field(description="change of the ordinal in this match")


class MatchSummary(BaseModel):
    id: int
    url: str = Field(description="match page, /match/{id}")
    game: str
    finished_at: datetime
    manches: int
    rated: bool
    players: list[MatchPlayerOut]


class ProfileGameOut(BaseModel):
    """A profile's rating and statistics in one game."""

    game: str = Field(description="the game's id")
    name_fr: str
    name_en: str
    rating: RatingOut
    leaderboard_position: int | None = Field(
        description="place in this game's rating leaderboard; None below the minimum of matches"
    )
    matches_played: int
    matches_won: int
    win_rate: float | None
    manches_played: int
    manches_won: int
    mean_points_per_manche: float | None = Field(
        description="mean score change per manche played (lower is better)"
    )
    calls: int = Field(description="manche-ending calls made (YANNIV in YANNIV)")
    calls_won: int = Field(description="calls that succeeded")
    call_success_rate: float | None
    best_total: int | None = Field(description="lowest final total of a match")


class ProfileOut(BaseModel):
    pseudo: str
    url: str
    created_at: datetime
    last_played_at: datetime | None
    min_matches: int
    games: list[ProfileGameOut] = Field(
        description="one entry per game the profile played, in the site's order of games"
    )
    has_password: bool
    owned: bool = Field(description="whether the requesting browser owns this profile")
    last_matches: list[MatchSummary] = Field(description="of every game, newest first")


class MancheOut(BaseModel):
    number: int
    tiebreak: bool
    caller: int | None
    caller_won: bool | None
    winner: int | None
    played: list[bool] = Field(description="per seat: took part (False: sat out a tiebreak)")
    points: list[int] = Field(description="per seat: hand value at the end of the manche")
    deltas: list[int] = Field(description="per seat: score change")
    totals: list[int] = Field(description="per seat: running total after this manche")


class MatchOut(BaseModel):
    id: int
    url: str
    game: str
    room_code: str
    started_at: datetime
    finished_at: datetime
    rated: bool
    players: list[MatchPlayerOut]
    manches: list[MancheOut]


class PasswordIn(BaseModel):
    #: Request bodies: no unknown field, no conversion (as the server's own bodies).
    model_config = ConfigDict(extra="forbid", strict=True)

    password: str = Field(min_length=8, max_length=200)


class LoginIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    pseudo: str = Field(min_length=1, max_length=40)
    password: str = Field(min_length=1, max_length=200)


class OkOut(BaseModel):
    ok: bool = True
    message: str
    profile_url: str | None = None
