"""Per-profile statistics and match records, read with a fixed number of indexed queries.

The headline numbers come from the counters `record_finished_match` keeps on `profile_games`
(one row per game the profile played);
"last matches" is one range scan of ix_finished_match_players_profile_recent plus one query
for the players of those matches, never a query per row.
"""

from __future__ import annotations

from collections import defaultdict

from sqlalchemy import select
from sqlalchemy.orm import Session

from yanniv.games import GAMES
from yanniv.profiles.identity import hash_secret, pseudo_key
from yanniv.profiles.leaderboard import rating_out, rating_position, ratio
from yanniv.profiles.links import profile_url
from yanniv.profiles.models import (
    MIN_RATED_MATCHES,
    FinishedMancheRow,
    FinishedMatchPlayer,
    FinishedMatchRow,
    Profile,
    ProfileGame,
    ProfileOwner,
)
from yanniv.profiles.schemas import (
    MancheOut,
    MatchOut,
    MatchPlayerOut,
    MatchSummary,
    ProfileGameOut,
    ProfileOut,
)

LAST_MATCHES = 20


def match_url(match_id: int) -> str:
    return f"/match/{match_id}"


def find_profile(session: Session, pseudo: str) -> Profile | None:
    return session.execute(
        select(Profile).where(Profile.pseudo_key == pseudo_key(pseudo))
    ).scalar_one_or_none()


def _player_out(p: FinishedMatchPlayer) -> MatchPlayerOut:
    before, after = p.ordinal_before, p.ordinal_after
    return MatchPlayerOut(
        seat=p.seat,
        pseudo=p.pseudo,
        profile_url=profile_url(p.pseudo) if p.profile_id is not None else None,
        is_bot=p.is_bot,
        total=p.total,
        rank=p.rank,
        rating_change=None if before is None or after is None else round(after - before, 3),
    )


def last_matches(
    session: Session, profile_id: int, limit: int = LAST_MATCHES, offset: int = 0
) -> list[MatchSummary]:
    """The profile's most recent matches, newest first, with every player's total and rank."""
    ids = (
        session.execute(
            select(FinishedMatchPlayer.match_id)
            .where(FinishedMatchPlayer.profile_id == profile_id)
            .order_by(FinishedMatchPlayer.finished_at.desc())
            .limit(limit)
            .offset(offset)
        )
        .scalars()
        .all()
    )
    if not ids:
        return []
    matches = {
        m.id: m
        for m in session.execute(
            select(
                FinishedMatchRow.id,
                FinishedMatchRow.game,
                FinishedMatchRow.finished_at,
                FinishedMatchRow.manches,
                FinishedMatchRow.rated,
            ).where(FinishedMatchRow.id.in_(ids))
        )
    }
    players: dict[int, list[MatchPlayerOut]] = defaultdict(list)
    for p in session.execute(
        select(FinishedMatchPlayer)
        .where(FinishedMatchPlayer.match_id.in_(ids))
        .order_by(FinishedMatchPlayer.match_id, FinishedMatchPlayer.rank, FinishedMatchPlayer.seat)
    ).scalars():
        players[p.match_id].append(_player_out(p))
    return [
        MatchSummary(
            id=i,
            url=match_url(i),
            game=matches[i].game,
            finished_at=matches[i].finished_at,
            manches=matches[i].manches,
            rated=matches[i].rated,
            players=players[i],
        )
        for i in ids
    ]


def owns(session: Session, profile_id: int, owner_secret: str | None) -> bool:
    if not owner_secret:
        return False
    return (
        session.execute(
            select(ProfileOwner.id).where(
                ProfileOwner.profile_id == profile_id,
                ProfileOwner.secret_hash == hash_secret(owner_secret),
            )
        ).first()
        is not None
    )


def _game_out(session: Session, g: ProfileGame) -> ProfileGameOut:
    known = GAMES.get(g.game)  # a game no longer offered keeps its statistics, under its id
    return ProfileGameOut(
        game=g.game,
        name_fr=known.name_fr if known else g.game,
        name_en=known.name_en if known else g.game,
        rating=rating_out(g.mu, g.sigma, g.ordinal),
        leaderboard_position=rating_position(session, g),
        matches_played=g.matches_played,
        matches_won=g.matches_won,
        win_rate=ratio(g.matches_won, g.matches_played),
        manches_played=g.manches_played,
        manches_won=g.manches_won,
        mean_points_per_manche=(
            round(g.points_sum / g.manches_played, 4) if g.manches_played else None
        ),
        calls=g.calls,
        calls_won=g.calls_won,
        call_success_rate=ratio(g.calls_won, g.calls),
        best_total=g.best_total,
    )


def game_rows(session: Session, profile_id: int) -> list[ProfileGame]:
    """The profile's rows of `profile_games`, in the registry's order of games (then by id)."""
    order = {game_id: n for n, game_id in enumerate(GAMES)}
    rows = session.execute(
        select(ProfileGame).where(ProfileGame.profile_id == profile_id)
    ).scalars().all()
    return sorted(rows, key=lambda g: (order.get(g.game, len(order)), g.game))


def profile_stats(
    session: Session, pseudo: str, owner_secret: str | None = None, limit: int = LAST_MATCHES
) -> ProfileOut | None:
    """Everything the profile page shows, or None for an unknown pseudo."""
    p = find_profile(session, pseudo)
    if p is None:
        return None
    return ProfileOut(
        pseudo=p.pseudo,
        url=profile_url(p.pseudo),
        created_at=p.created_at,
        last_played_at=p.last_played_at,
        min_matches=MIN_RATED_MATCHES,
        games=[_game_out(session, g) for g in game_rows(session, p.id)],
        has_password=p.password_hash is not None,
        owned=owns(session, p.id, owner_secret),
        last_matches=last_matches(session, p.id, limit),
    )


def match_detail(session: Session, match_id: int) -> MatchOut | None:
    """A finished match with its players and the manche-by-manche score sheet."""
    m = session.get(FinishedMatchRow, match_id)
    if m is None:
        return None
    players = (
        session.execute(
            select(FinishedMatchPlayer)
            .where(FinishedMatchPlayer.match_id == match_id)
            .order_by(FinishedMatchPlayer.seat)
        )
        .scalars()
        .all()
    )
    rows = (
        session.execute(
            select(FinishedMancheRow)
            .where(FinishedMancheRow.match_id == match_id)
            .order_by(FinishedMancheRow.number, FinishedMancheRow.seat)
        )
        .scalars()
        .all()
    )
    by_number: dict[int, list[FinishedMancheRow]] = defaultdict(list)
    for r in rows:
        by_number[r.number].append(r)
    manches: list[MancheOut] = []
    running = [0] * m.seats
    for number in sorted(by_number):
        line = by_number[number]
        deltas = [r.delta for r in line]
        running = [a + d for a, d in zip(running, deltas, strict=True)]
        caller = next((r for r in line if r.called), None)
        winner = next((r.seat for r in line if r.won), None)
        manches.append(
            MancheOut(
                number=number,
                tiebreak=line[0].tiebreak,
                caller=caller.seat if caller else None,
                caller_won=caller.call_won if caller else None,
                winner=winner,
                played=[r.played for r in line],
                points=[r.points for r in line],
                deltas=deltas,
                totals=list(running),
            )
        )
    return MatchOut(
        id=m.id,
        url=match_url(m.id),
        game=m.game,
        room_code=m.room_code,
        started_at=m.started_at,
        finished_at=m.finished_at,
        rated=m.rated,
        players=[_player_out(p) for p in sorted(players, key=lambda p: (p.rank, p.seat))],
        manches=manches,
    )
