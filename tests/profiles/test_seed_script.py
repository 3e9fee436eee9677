"""The benchmark's seeding script writes rows the app reads back with consistent counters."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, select

from yanniv.profiles.leaderboard import leaderboard
from yanniv.profiles.models import FinishedMancheRow, FinishedMatchPlayer, ProfileGame
from yanniv.profiles.stats import match_detail, profile_stats

ROOT = Path(__file__).resolve().parents[2]


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_seed_small_database(db_url: str) -> None:
    pytest.importorskip("numpy")
    seed = load("seed_leaderboard")
    assert seed.main(["--database-url", db_url, "--profiles", "60", "--matches", "300"]) == 0
    engine = create_engine(db_url)
    from sqlalchemy.orm import Session

    with Session(engine) as s:
        seats = s.execute(select(func.count()).select_from(FinishedMatchPlayer)).scalar_one()
        played = s.execute(select(func.sum(ProfileGame.matches_played))).scalar_one()
        assert seats == played
        wins = s.execute(select(func.count()).where(FinishedMatchPlayer.rank == 1)).scalar_one()
        assert s.execute(select(func.sum(ProfileGame.matches_won))).scalar_one() == wins == 300
        manches = s.execute(select(func.count()).select_from(FinishedMancheRow)).scalar_one()
        assert manches == seats * 6
        board = leaderboard(s, "rating")
        assert board.entries and board.entries[0].position == 1
        top = profile_stats(s, board.entries[0].pseudo)
        assert top is not None and [g.game for g in top.games] == ["yanniv"]
        assert top.games[0].leaderboard_position == 1
        assert len(top.last_matches) == min(20, top.games[0].matches_played)
        assert board.total == s.execute(
            select(func.count()).where(ProfileGame.matches_played >= 5)
        ).scalar_one()
        detail = match_detail(s, 1)
        assert detail is not None
        for i, p in enumerate(sorted(detail.players, key=lambda p: p.seat)):
            assert detail.manches[-1].totals[i] == p.total
    engine.dispose()
