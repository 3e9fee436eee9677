"""Storing finished matches and guarding pseudos: the two calls the server makes into profiles.

Both run inside the caller's session and never commit: the server records the match in the
same transaction that marks it finished, so a crash cannot count a match twice or lose it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import insert, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from yanniv.profiles.identity import hash_secret, pseudo_key
from yanniv.profiles.links import profile_url
from yanniv.profiles.models import (
    MIN_RATED_MATCHES,
    MU0,
    SIGMA0,
    FinishedMancheRow,
    FinishedMatchPlayer,
    FinishedMatchRow,
    Profile,
    ProfileCounts,
    ProfileGame,
    ProfileOwner,
)
from yanniv.profiles.rating_model import ordinal, rate
from yanniv.profiles.texts import tr
from yanniv.profiles.types import FinishedManche, FinishedMatch, FinishedPlayer

__all__ = [
    "FinishedManche",
    "FinishedMatch",
    "FinishedPlayer",
    "check_pseudo",
    "match_ranks",
    "played_seats",
    "record_finished_match",
]

log = logging.getLogger(__name__)


def _owned_by(session: Session, profile_id: int, owner_hash: str | None) -> bool:
    if not owner_hash:
        return False
    found = session.execute(
        select(ProfileOwner.id).where(
            ProfileOwner.profile_id == profile_id,
            ProfileOwner.secret_hash == owner_hash,
        )
    ).first()
    return found is not None


def _has_owner(session: Session, profile_id: int) -> bool:
    found = session.execute(
        select(ProfileOwner.id).where(ProfileOwner.profile_id == profile_id).limit(1)
    ).first()
    return found is not None


def _claimable(session: Session, profile: Profile, owner_hash: str | None) -> bool:
    """May this browser play as `profile`? Yes if it holds a secret, or nobody holds one yet."""
    if _owned_by(session, profile.id, owner_hash):
        return True
    return profile.password_hash is None and not _has_owner(session, profile.id)


def pseudo_refusal(session: Session, pseudo: str,
                   owner_secret: str | None) -> tuple[str, str] | None:
    """None if this browser may play under `pseudo`, else why not, in French and English
    (naming the owning profile's pseudo, and its login page if it has a password).

    Case-insensitive: "LÉA" is refused to whoever does not own "Léa".
    """
    profile = session.execute(
        select(Profile).where(Profile.pseudo_key == pseudo_key(pseudo))
    ).scalar_one_or_none()
    owner_hash = hash_secret(owner_secret) if owner_secret else None
    if profile is None or _claimable(session, profile, owner_hash):
        return None
    key = "pseudo.owned" if profile.password_hash is None else "pseudo.owned_login"
    # `url` first: it is percent-encoded, so no `{pseudo}` can appear in it.
    url = profile_url(profile.pseudo)
    return (tr("fr", key, url=url, pseudo=profile.pseudo),
            tr("en", key, url=url, pseudo=profile.pseudo))


def check_pseudo(session: Session, pseudo: str, owner_secret: str | None) -> str | None:
    """`pseudo_refusal` in French only (None: this browser may play under `pseudo`)."""
    refusal = pseudo_refusal(session, pseudo, owner_secret)
    return None if refusal is None else refusal[0]


def played_seats(match: FinishedMatch) -> list[frozenset[int]]:
    """Seats that took part in each manche, as the game's result recorded them."""
    return [frozenset(manche.participants) for manche in match.manches]


def match_ranks(match: FinishedMatch) -> dict[int, int]:
    """Seat -> rank (1 = winner). The winner is `ranking[0]`; other equal totals share a rank."""
    ranks: dict[int, int] = {}
    for position, seat in enumerate(match.ranking):
        previous = match.ranking[position - 1] if position else None
        if position > 1 and match.totals[seat] == match.totals[previous]:
            ranks[seat] = ranks[previous]
        else:
            ranks[seat] = position + 1
    return ranks


@dataclass
class _SeatStats:
    manches_played: int = 0
    manches_won: int = 0
    points_sum: int = 0
    calls: int = 0
    successes: int = 0
    rows: list[dict] = field(default_factory=list)


def _manche_rows(match: FinishedMatch, match_id: int) -> dict[int, _SeatStats]:
    stats = {p.seat: _SeatStats() for p in match.players}
    for manche, playing in zip(match.manches, played_seats(match), strict=True):
        for seat, st in stats.items():
            played = seat in playing
            called = manche.caller == seat
            won = manche.winner == seat
            st.rows.append(
                {
                    "match_id": match_id,
                    "number": manche.number,
                    "seat": seat,
                    "tiebreak": manche.tiebreak,
                    "played": played,
                    "points": manche.points[seat],
                    "delta": manche.deltas[seat],
                    "called": called,
                    "call_won": manche.caller_won if called else None,
                    "won": won,
                }
            )
            if played:
                st.manches_played += 1
                st.manches_won += won
                st.points_sum += manche.deltas[seat]
                st.calls += called
                st.successes += bool(called and manche.caller_won)
    return stats


def _get_or_create(session: Session, player: FinishedPlayer, now: datetime) -> Profile:
    """The profile for a pseudo, created on its first finished match; row-locked for update."""
    key = pseudo_key(player.pseudo)
    query = select(Profile).where(Profile.pseudo_key == key).with_for_update()
    profile = session.execute(query).scalar_one_or_none()
    if profile is not None:
        return profile
    try:
        with session.begin_nested():
            profile = Profile(pseudo=player.pseudo.strip(), pseudo_key=key, created_at=now)
            session.add(profile)
            session.flush()
    except IntegrityError:  # another match created it concurrently
        profile = session.execute(query).scalar_one()
    return profile


def _link_profiles(session: Session, match: FinishedMatch, now: datetime) -> dict[int, Profile]:
    """Seat -> profile for the humans entitled to their pseudo; others stay unlinked."""
    linked: dict[int, Profile] = {}
    humans = sorted(
        (p for p in match.players if not p.is_bot), key=lambda p: pseudo_key(p.pseudo)
    )  # lock in a fixed order so concurrent records cannot deadlock
    for player in humans:
        profile = _get_or_create(session, player, now)
        if any(p.id == profile.id for p in linked.values()):
            log.warning("pseudo %r twice in match %s", player.pseudo, match.room_code)
            continue
        if not _claimable(session, profile, player.owner_hash):
            # check_pseudo ran at join; refusing here keeps an impostor off the owner's stats.
            log.warning("seat %d does not own pseudo %r", player.seat, player.pseudo)
            continue
        if player.owner_hash and not _owned_by(session, profile.id, player.owner_hash):
            session.add(
                ProfileOwner(
                    profile_id=profile.id,
                    secret_hash=player.owner_hash,
                    created_at=now,
                )
            )
        linked[player.seat] = profile
    return linked


def _game_rows(session: Session, linked: dict[int, Profile], game: str) -> dict[int, ProfileGame]:
    """Seat -> the linked profile's row for `game`, created for its first match of the game.

    The profile rows are locked (`_get_or_create`), so no concurrent record creates these.
    """
    ids = [p.id for p in linked.values()]
    if not ids:
        return {}
    found = {
        g.profile_id: g
        for g in session.execute(
            select(ProfileGame).where(ProfileGame.profile_id.in_(ids), ProfileGame.game == game)
        ).scalars()
    }
    rows: dict[int, ProfileGame] = {}
    for seat, profile in linked.items():
        row = found.get(profile.id)
        if row is None:
            row = ProfileGame(profile_id=profile.id, game=game, mu=MU0, sigma=SIGMA0,
                              ordinal=ordinal(MU0, SIGMA0), matches_played=0, matches_won=0,
                              manches_played=0, manches_won=0, points_sum=0, calls=0,
                              calls_won=0, best_total=None)
            session.add(row)
        rows[seat] = row
    session.flush()
    return rows


def _count(session: Session, game: str, created: int, promoted: int) -> None:
    """Add to the game's leaderboard counts; its row appears with the game's first profile.

    One upsert (both supported databases have ON CONFLICT), so two first matches of a new
    game cannot both insert the row.
    """
    make = pg_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert
    stmt = make(ProfileCounts).values(game=game, profiles=created, rated_profiles=promoted)
    session.execute(stmt.on_conflict_do_update(
        index_elements=[ProfileCounts.game],
        set_={"profiles": ProfileCounts.profiles + created,
              "rated_profiles": ProfileCounts.rated_profiles + promoted},
    ))


def record_finished_match(session: Session, match: FinishedMatch) -> int:
    """Store `match`, update the profiles' counters and ratings in its game; returns the id.

    Bots never get a profile. An unrated match is stored (for its page and replay) but touches
    no profile.
    """
    now = datetime.now(UTC)
    row = FinishedMatchRow(
        room_code=match.room_code,
        seed=str(match.seed),
        game=match.game,
        rules_version=match.rules_version,
        config=match.config,
        started_at=match.started_at,
        finished_at=match.finished_at,
        seats=len(match.players),
        manches=len(match.manches),
        rated=match.rated,
        actions=list(match.actions) or None,
    )
    session.add(row)
    session.flush()
    stats = _manche_rows(match, row.id)
    ranks = match_ranks(match)
    linked = _link_profiles(session, match, now) if match.rated else {}
    session.flush()
    games = _game_rows(session, linked, match.game)
    created = sum(g.matches_played == 0 for g in games.values())
    promoted = sum(g.matches_played == MIN_RATED_MATCHES - 1 for g in games.values())

    rated_seats = sorted(games)
    before = {s: games[s].ordinal for s in rated_seats}
    if len(rated_seats) >= 2:
        new = rate(
            [(games[s].mu, games[s].sigma) for s in rated_seats], [ranks[s] for s in rated_seats]
        )
        for seat, (mu, sigma) in zip(rated_seats, new, strict=True):
            g = games[seat]
            g.mu, g.sigma, g.ordinal = mu, sigma, ordinal(mu, sigma)
    for seat, g in games.items():
        st = stats[seat]
        g.matches_played += 1
        g.matches_won += ranks[seat] == 1
        g.manches_played += st.manches_played
        g.manches_won += st.manches_won
        g.points_sum += st.points_sum
        g.calls += st.calls
        g.calls_won += st.successes
        total = match.totals[seat]
        g.best_total = total if g.best_total is None else min(g.best_total, total)
        linked[seat].last_played_at = match.finished_at

    session.execute(
        insert(FinishedMatchPlayer),
        [
            {
                "match_id": row.id,
                "seat": p.seat,
                "profile_id": linked[p.seat].id if p.seat in linked else None,
                "pseudo": p.pseudo.strip(),
                "is_bot": p.is_bot,
                "total": match.totals[p.seat],
                "rank": ranks[p.seat],
                "finished_at": match.finished_at,
                "ordinal_before": before.get(p.seat),
                "ordinal_after": games[p.seat].ordinal if p.seat in games else None,
            }
            for p in match.players
        ],
    )
    if created or promoted:
        _count(session, match.game, created, promoted)
    manche_rows = [r for st in stats.values() for r in st.rows]
    if manche_rows:
        session.execute(insert(FinishedMancheRow), manche_rows)
    session.flush()
    return row.id
