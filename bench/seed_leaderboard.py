"""Fill a database with synthetic profiles and finished matches, for the leaderboard benchmark.

    python bench/seed_leaderboard.py --database-url postgresql+psycopg://postgres@127.0.0.1/yanniv_bench
    python bench/seed_leaderboard.py --database-url sqlite:///bench.sqlite3 --profiles 100000 \
        --matches 1000000

Matches are generated with numpy (`pip install numpy`; a dev-only need) and written with COPY
on PostgreSQL, `executemany` on SQLite. Every row is internally consistent: totals are the
sums of the manche deltas, ranks follow totals, and the counters of each profile's `yanniv`
row of `profile_games` are aggregated from the generated rows, so the profile pages show true
numbers (every generated match is YANNIV, the default of `finished_matches.game`). The
ratings are synthetic (mu from a hidden skill, sigma shrinking with matches played) instead of
replaying a million matches through openskill: the benchmark measures queries, not rating
arithmetic.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

try:
    import numpy as np
except ImportError:  # pragma: no cover
    sys.exit("this script needs numpy: pip install numpy")

from sqlalchemy import Engine, create_engine, text

from yanniv.db.migrate import upgrade
from yanniv.db.session import normalize_url

MANCHE_COLUMNS = (
    "match_id",
    "number",
    "seat",
    "tiebreak",
    "played",
    "points",
    "delta",
    "called",
    "call_won",
    "won",
)
PLAYER_COLUMNS = (
    "match_id",
    "seat",
    "profile_id",
    "pseudo",
    "is_bot",
    "total",
    "rank",
    "finished_at",
)
MATCH_COLUMNS = (
    "id",
    "room_code",
    "seed",
    "started_at",
    "finished_at",
    "seats",
    "manches",
    "rated",
)
PROFILE_COLUMNS = (
    "id",
    "pseudo",
    "pseudo_key",
    "created_at",
    "last_played_at",
)
GAME = "yanniv"
GAME_COLUMNS = (
    "profile_id",
    "game",
    "mu",
    "sigma",
    "ordinal",
    "matches_played",
    "matches_won",
    "manches_played",
    "manches_won",
    "points_sum",
    "calls",
    "calls_won",
    "best_total",
)
#: Secondary indexes rebuilt after the bulk load on PostgreSQL (faster than maintaining them).
SECONDARY = (
    "ix_profile_games_rating",
    "ix_profile_games_wins",
    "ix_profile_games_matches",
    "ix_finished_matches_finished_at",
    "ix_finished_match_players_profile_recent",
)
EPOCH = datetime(2024, 1, 1, tzinfo=UTC)


@dataclass
class Data:
    n_profiles: int
    n_matches: int
    manches: int
    seats: np.ndarray  # (M,) seats per match
    start: np.ndarray  # (M,) index of a match's first player row
    match_of: np.ndarray  # (P,) match of each player row
    seat_of: np.ndarray  # (P,)
    profile_of: np.ndarray  # (P,) 0-based profile index
    points: np.ndarray  # (P, K)
    deltas: np.ndarray  # (P, K)
    called: np.ndarray  # (P, K) bool
    call_won: np.ndarray  # (P, K) bool (meaningful where called)
    won: np.ndarray  # (P, K) bool
    totals: np.ndarray  # (P,)
    rank: np.ndarray  # (P,)
    finished_s: np.ndarray  # (M,) seconds after EPOCH
    skill: np.ndarray  # (N,)


def generate(n_profiles: int, n_matches: int, manches: int, seed: int) -> Data:
    """Random but consistent matches; low profile ids play more (a few regulars, many casuals)."""
    rng = np.random.default_rng(seed)
    seats = rng.integers(2, 5, n_matches).astype(np.int64)
    start = np.concatenate([[0], np.cumsum(seats)[:-1]])
    n_rows = int(seats.sum())
    match_of = np.repeat(np.arange(n_matches), seats)
    seat_of = np.arange(n_rows) - start[match_of]
    # Activity skew: u**1.6 puts more weight on low ids.
    profile_of = (rng.random(n_rows) ** 1.6 * n_profiles).astype(np.int64)
    while True:  # no profile twice in one match
        order = np.lexsort((profile_of, match_of))
        dup = np.zeros(n_rows, bool)
        same = (match_of[order][1:] == match_of[order][:-1]) & (
            profile_of[order][1:] == profile_of[order][:-1]
        )
        dup[order[1:][same]] = True
        if not dup.any():
            break
        profile_of[dup] = rng.integers(0, n_profiles, int(dup.sum()))
    skill = rng.normal(0.0, 1.0, n_profiles)
    k = manches
    points = np.clip(
        rng.integers(0, 26, (n_rows, k)) - np.round(3 * skill[profile_of])[:, None], 0, 40
    ).astype(np.int64)
    # Winner of each manche: the lowest hand (first seat on ties).
    low = np.minimum.reduceat(points, start, axis=0)
    row_idx = np.arange(n_rows)[:, None].repeat(k, axis=1)
    candidate = np.where(points == low[match_of], row_idx, n_rows)
    winner = np.minimum.reduceat(candidate, start, axis=0)  # (M, K) row index
    won = np.zeros((n_rows, k), bool)
    won[winner, np.arange(k)[None, :].repeat(n_matches, axis=0)] = True
    # The caller is usually the winner; sometimes another seat calls and fails.
    success = rng.random((n_matches, k)) < 0.85
    offset = winner - start[:, None]
    other = (offset + 1 + rng.integers(0, 3, (n_matches, k)) % (seats[:, None] - 1)) % seats[
        :, None
    ]
    caller = np.where(success, winner, start[:, None] + other)
    called = np.zeros((n_rows, k), bool)
    called[caller, np.arange(k)[None, :].repeat(n_matches, axis=0)] = True
    call_won = called & won
    deltas = np.where(won, -5, points) + np.where(called & ~won, 30, 0)
    totals = deltas.sum(axis=1)
    order = np.lexsort((seat_of, totals, match_of))
    rank = np.empty(n_rows, np.int64)
    rank[order] = np.arange(n_rows) - start[match_of[order]] + 1
    span = 2 * 365 * 24 * 3600
    finished_s = np.sort(rng.integers(0, span, n_matches))
    return Data(
        n_profiles,
        n_matches,
        k,
        seats,
        start,
        match_of,
        seat_of,
        profile_of,
        points,
        deltas,
        called,
        call_won,
        won,
        totals,
        rank,
        finished_s,
        skill,
    )


def profile_rows(d: Data) -> Iterator[tuple[tuple, tuple]]:
    """(profile, its `yanniv` row of profile_games) with counters aggregated from the rows."""
    n = d.n_profiles
    p = d.profile_of
    played = np.bincount(p, minlength=n)
    wins = np.bincount(p, weights=d.rank == 1, minlength=n).astype(np.int64)
    manches_won = np.bincount(p, weights=d.won.sum(axis=1), minlength=n).astype(np.int64)
    points_sum = np.bincount(p, weights=d.deltas.sum(axis=1), minlength=n).astype(np.int64)
    calls = np.bincount(p, weights=d.called.sum(axis=1), minlength=n).astype(np.int64)
    successes = np.bincount(p, weights=d.call_won.sum(axis=1), minlength=n).astype(np.int64)
    best = np.full(n, np.iinfo(np.int64).max)
    np.minimum.at(best, p, d.totals)
    last = np.zeros(n, np.int64)
    np.maximum.at(last, p, d.finished_s[d.match_of])
    mu = 25.0 + 4.0 * d.skill
    sigma = np.maximum(0.9, (25 / 3) / np.sqrt(1 + played / 4))
    ordinal = mu - 3 * sigma
    created = EPOCH - timedelta(days=1)
    for i in range(n):
        if not played[i]:
            continue
        pseudo = f"Joueur{i + 1:06d}"
        identity = (
            i + 1,
            pseudo,
            pseudo.casefold(),
            created,
            EPOCH + timedelta(seconds=int(last[i])),
        )
        yield identity, (
            i + 1,
            GAME,
            float(mu[i]),
            float(sigma[i]),
            float(ordinal[i]),
            int(played[i]),
            int(wins[i]),
            int(played[i]) * d.manches,
            int(manches_won[i]),
            int(points_sum[i]),
            int(calls[i]),
            int(successes[i]),
            int(best[i]),
        )


def match_rows(d: Data) -> Iterator[tuple]:
    for m in range(d.n_matches):
        done = EPOCH + timedelta(seconds=int(d.finished_s[m]))
        yield (
            m + 1,
            f"S{m:07d}",
            str(m),
            done - timedelta(minutes=20),
            done,
            int(d.seats[m]),
            d.manches,
            True,
        )


def player_rows(d: Data) -> Iterator[tuple]:
    finished = [EPOCH + timedelta(seconds=int(s)) for s in d.finished_s]
    for m, seat, prof, total, rank in zip(
        d.match_of.tolist(),
        d.seat_of.tolist(),
        d.profile_of.tolist(),
        d.totals.tolist(),
        d.rank.tolist(),
        strict=True,
    ):
        yield (m + 1, seat, prof + 1, f"Joueur{prof + 1:06d}", False, total, rank, finished[m])


def manche_chunks(d: Data, rows_per_chunk: int = 500_000) -> Iterator[list[tuple]]:
    """The per-player manche lines, by chunks of whole player rows (columns built by numpy)."""
    k = d.manches
    n_rows = len(d.match_of)
    step = max(1, rows_per_chunk // k)
    for lo in range(0, n_rows, step):
        hi = min(n_rows, lo + step)
        n = hi - lo
        match_id = np.repeat(d.match_of[lo:hi] + 1, k).tolist()
        number = np.tile(np.arange(1, k + 1), n).tolist()
        seat = np.repeat(d.seat_of[lo:hi], k).tolist()
        called = d.called[lo:hi].ravel()
        call_won = np.where(called, d.call_won[lo:hi].ravel(), False)
        cw = [None if not c else w for c, w in zip(called.tolist(), call_won.tolist(), strict=True)]
        yield list(
            zip(
                match_id,
                number,
                seat,
                [False] * (n * k),
                [True] * (n * k),
                d.points[lo:hi].ravel().tolist(),
                d.deltas[lo:hi].ravel().tolist(),
                called.tolist(),
                cw,
                d.won[lo:hi].ravel().tolist(),
                strict=True,
            )
        )


def manche_text(d: Data, rows_per_chunk: int = 500_000) -> Iterator[str]:
    """The same lines as `manche_chunks`, already in COPY text format (the PostgreSQL path)."""
    k = d.manches
    n_rows = len(d.match_of)
    step = max(1, rows_per_chunk // k)
    called_text = ["f\t\\N", "t\tf", "t\tt"]  # called, call_won
    flag = ["f", "t"]
    for lo in range(0, n_rows, step):
        hi = min(n_rows, lo + step)
        n = hi - lo
        match_id = np.repeat(d.match_of[lo:hi] + 1, k).tolist()
        number = np.tile(np.arange(1, k + 1), n).tolist()
        seat = np.repeat(d.seat_of[lo:hi], k).tolist()
        code = np.where(d.called[lo:hi], np.where(d.call_won[lo:hi], 2, 1), 0).ravel().tolist()
        won = d.won[lo:hi].ravel().astype(np.int64).tolist()
        yield "".join(
            f"{m}\t{j}\t{st}\tf\tt\t{p}\t{q}\t{called_text[c]}\t{flag[w]}\n"
            for m, j, st, p, q, c, w in zip(
                match_id,
                number,
                seat,
                d.points[lo:hi].ravel().tolist(),
                d.deltas[lo:hi].ravel().tolist(),
                code,
                won,
                strict=True,
            )
        )


def _copy_chunks(conn, table: str, columns: Iterable[str], chunks: Iterable[str]) -> int:
    """COPY in text format from preformatted chunks (much faster than write_row per row)."""
    n = 0
    cur = conn.connection.dbapi_connection.cursor()
    with cur.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        for chunk in chunks:
            copy.write(chunk)
            n += chunk.count("\n")
    return n


def _copy(conn, table: str, columns: Iterable[str], rows: Iterable[tuple]) -> int:
    n = 0
    cur = conn.connection.dbapi_connection.cursor()
    with cur.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)
            n += 1
    return n


def write_postgres(engine: Engine, d: Data) -> None:
    with engine.connect() as conn:
        ddl = {
            name: conn.execute(
                text("SELECT indexdef FROM pg_indexes WHERE indexname = :n"), {"n": name}
            ).scalar_one()
            for name in SECONDARY
        }
        for name in SECONDARY:
            conn.execute(text(f"DROP INDEX {name}"))
        # Skip foreign-key triggers during the load (superuser only; the data is consistent).
        conn.execute(text("SET session_replication_role = replica"))
        for table, cols, rows in (
            ("profiles", PROFILE_COLUMNS, (p for p, _ in profile_rows(d))),
            ("profile_games", GAME_COLUMNS, (g for _, g in profile_rows(d))),
            ("finished_matches", MATCH_COLUMNS, match_rows(d)),
            ("finished_match_players", PLAYER_COLUMNS, player_rows(d)),
            ("finished_manches", MANCHE_COLUMNS, None),
        ):
            t = time.perf_counter()
            if rows is None:
                n = _copy_chunks(conn, table, cols, manche_text(d))
            else:
                n = _copy(conn, table, cols, rows)
            print(f"  {table}: {n:,} rows in {time.perf_counter() - t:.1f} s", flush=True)
        conn.execute(text("SET session_replication_role = origin"))
        t = time.perf_counter()
        for sql in ddl.values():
            conn.execute(text(sql))
        for table in ("profiles", "finished_matches", "profile_owners"):
            conn.execute(
                text(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"(SELECT COALESCE(MAX(id), 0) + 1 FROM {table}), false)"
                )
            )
        conn.commit()
        print(f"  indexes rebuilt in {time.perf_counter() - t:.1f} s", flush=True)
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        t = time.perf_counter()
        conn.execute(text("VACUUM ANALYZE"))
        print(f"  VACUUM ANALYZE in {time.perf_counter() - t:.1f} s", flush=True)


def _batches(rows: Iterable[tuple], size: int = 50_000) -> Iterator[list[tuple]]:
    batch: list[tuple] = []
    for row in rows:
        batch.append(row)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def write_sqlite(engine: Engine, d: Data) -> None:
    raw = engine.raw_connection()
    try:
        cur = raw.cursor()
        cur.execute("PRAGMA journal_mode=OFF")
        cur.execute("PRAGMA synchronous=OFF")
        for table, cols, rows in (
            ("profiles", PROFILE_COLUMNS, (p for p, _ in profile_rows(d))),
            ("profile_games", GAME_COLUMNS, (g for _, g in profile_rows(d))),
            ("finished_matches", MATCH_COLUMNS, match_rows(d)),
            ("finished_match_players", PLAYER_COLUMNS, player_rows(d)),
            ("finished_manches", MANCHE_COLUMNS, None),
        ):
            t = time.perf_counter()
            sql = f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})"
            n = 0
            if rows is None:
                for chunk in manche_chunks(d):
                    cur.executemany(sql, chunk)
                    n += len(chunk)
            else:
                for batch in _batches(rows):
                    cur.executemany(sql, [_sqlite_row(r) for r in batch])
                    n += len(batch)
            raw.commit()
            print(f"  {table}: {n:,} rows in {time.perf_counter() - t:.1f} s", flush=True)
        cur.execute("ANALYZE")
        raw.commit()
    finally:
        raw.close()


def _sqlite_row(row: tuple) -> tuple:
    # Same text form SQLAlchemy uses for DateTime on SQLite, so ORDER BY stays chronological.
    return tuple(v.strftime("%Y-%m-%d %H:%M:%S.%f") if isinstance(v, datetime) else v for v in row)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--database-url", required=True)
    ap.add_argument("--profiles", type=int, default=100_000)
    ap.add_argument("--matches", type=int, default=1_000_000)
    ap.add_argument("--manches", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    url = normalize_url(args.database_url)
    engine = create_engine(url)
    upgrade(engine)
    with engine.connect() as conn:
        if conn.execute(text("SELECT COUNT(*) FROM profiles")).scalar_one():
            sys.exit("the database already has profiles: seed an empty one")
    t0 = time.perf_counter()
    d = generate(args.profiles, args.matches, args.manches, args.seed)
    print(
        f"generated {args.matches:,} matches ({len(d.match_of):,} seats) for "
        f"{args.profiles:,} profiles in {time.perf_counter() - t0:.1f} s",
        flush=True,
    )
    if engine.dialect.name == "postgresql":
        write_postgres(engine, d)
    else:
        write_sqlite(engine, d)
    with engine.begin() as conn:  # the leaderboard's page counts
        conn.execute(text("DELETE FROM profile_game_counts WHERE game = :g"), {"g": GAME})
        conn.execute(
            text(
                "INSERT INTO profile_game_counts (game, profiles, rated_profiles) "
                "SELECT game, COUNT(*), COUNT(CASE WHEN matches_played >= 5 THEN 1 END) "
                "FROM profile_games WHERE game = :g GROUP BY game"
            ),
            {"g": GAME},
        )
    print(f"done in {time.perf_counter() - t0:.1f} s")
    engine.dispose()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
