"""Time the leaderboard, profile and match pages on a seeded database (median and p95).

    python bench/seed_leaderboard.py --database-url URL     # first, on an empty database
    python bench/bench_leaderboard.py --database-url URL [--runs 200]

Two levels: "query" calls the functions the API uses (SQL + building the response models);
"http" requests the real routes (JSON and HTML pages) through the ASGI app in-process, so it
adds FastAPI and Jinja2 but no network. A benchmark, not a test: it prints, it asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select, text

from yanniv.db.session import Database
from yanniv.profiles.api import router
from yanniv.profiles.leaderboard import PER_PAGE, leaderboard
from yanniv.profiles.models import FinishedMatchRow, Profile
from yanniv.profiles.stats import match_detail, profile_stats


def timed(fn: Callable[[], object], runs: int) -> tuple[float, float]:
    """(median, p95) in milliseconds over `runs` calls, after two warm-up calls."""
    fn()
    fn()
    samples = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t) * 1000)
    samples.sort()
    return statistics.median(samples), samples[min(len(samples) - 1, int(len(samples) * 0.95))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--database-url", required=True)
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    db = Database(args.database_url)
    with db.sessions() as s:
        n_profiles = s.execute(select(func.count()).select_from(Profile)).scalar_one()
        n_matches = s.execute(select(func.max(FinishedMatchRow.id))).scalar_one() or 0
        max_profile = s.execute(select(func.max(Profile.id))).scalar_one() or 0
        version = s.execute(
            text("SELECT sqlite_version()" if db.is_sqlite else "SHOW server_version")
        ).scalar_one()
        pages = {sort: leaderboard(s, sort, 1).pages for sort in ("rating", "wins", "matches")}
    print(
        f"{db.engine.dialect.name} {version}: {n_profiles:,} profiles, {n_matches:,} matches; "
        f"{args.runs} runs each, {PER_PAGE} rows per leaderboard page"
    )

    def pseudo() -> str:
        while True:
            with db.sessions() as s:
                p = s.get(Profile, rng.randint(1, max_profile))
                if p is not None:
                    return p.pseudo

    pseudos = [pseudo() for _ in range(args.runs + 2)]
    match_ids = [rng.randint(1, n_matches) for _ in range(args.runs + 2)]

    def cycling(items: list) -> Callable[[], object]:
        it = iter(items * 2)
        return lambda: next(it)

    def query(fn: Callable) -> Callable[[], object]:
        def run() -> object:
            with db.sessions() as s:
                return fn(s)

        return run

    next_pseudo, next_match = cycling(pseudos), cycling(match_ids)
    cases: list[tuple[str, Callable[[], object]]] = []
    for sort in ("rating", "wins", "matches"):
        cases.append(
            (
                f"query leaderboard sort={sort} page=1",
                query(lambda s, so=sort: leaderboard(s, so, 1)),
            )
        )
    mid = max(1, pages["rating"] // 2)
    cases.append(
        (
            f"query leaderboard sort=rating page={mid} (middle)",
            query(lambda s: leaderboard(s, "rating", mid)),
        )
    )
    cases.append(
        (
            f"query leaderboard sort=rating page={pages['rating']} (last)",
            query(lambda s: leaderboard(s, "rating", pages["rating"])),
        )
    )
    cases.append(
        (
            "query profile (random profile, 20 last matches)",
            query(lambda s: profile_stats(s, next_pseudo())),
        )
    )
    cases.append(("query match (random match)", query(lambda s: match_detail(s, next_match()))))

    app = FastAPI()
    app.state.db = db
    app.include_router(router)
    client = TestClient(app)
    next_pseudo2, next_match2 = cycling(pseudos), cycling(match_ids)

    def get(path: str) -> object:
        res = client.get(path)
        if res.status_code != 200:
            raise SystemExit(f"GET {path} answered {res.status_code}")
        return res

    cases += [
        (
            "http GET /api/leaderboard?sort=rating&page=1",
            lambda: get("/api/leaderboard?sort=rating&page=1"),
        ),
        ("http GET /classement (HTML)", lambda: get("/classement")),
        ("http GET /api/profiles/{pseudo}", lambda: get(f"/api/profiles/{next_pseudo2()}")),
        ("http GET /profil/{pseudo} (HTML)", lambda: get(f"/profil/{next_pseudo2()}")),
        ("http GET /match/{id} (HTML)", lambda: get(f"/match/{next_match2()}")),
    ]
    # HTML pages need the web client's templates and i18n; skip them if they are not there.
    try:
        from yanniv.webapp import pages as web_pages

        app.include_router(web_pages.profile_pages.router)
        web_pages.mount_static(app)
    except Exception as exc:  # pragma: no cover
        print(f"(HTML pages skipped: {exc})")
        cases = [c for c in cases if "HTML" not in c[0]]

    width = max(len(name) for name, _ in cases)
    print(f"{'case':<{width}}  median ms    p95 ms")
    for name, fn in cases:
        median, p95 = timed(fn, args.runs)
        print(f"{name:<{width}}  {median:9.2f}  {p95:8.2f}", flush=True)
    db.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
