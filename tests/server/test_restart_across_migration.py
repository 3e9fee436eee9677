"""A match stored before migration 0005 (no game, no rules stored with it) is restored after
the migration exactly as it was played: under the "yanniv-1" rules (optional powers, the old
last lap), not under today's defaults.

The stored log is one recorded by the code before the rule set (`tests/games/yanniv/fixtures/
legacy_replays.json`, with a digest of the state after every action), cut in the middle so
that the match is still in play; the restored state must have the digest recorded then.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import text

from bench.legacy_replay_fixture import state_digest
from yanniv.db.migrate import upgrade
from yanniv.db.session import Database
from yanniv.games import get_game
from yanniv.games.yanniv.rules import MatchConfig, apply, start_match
from yanniv.games.yanniv.rules.ruleset import LEGACY_YANNIV

FIXTURE = json.loads(
    (Path(__file__).parents[1] / "games" / "yanniv" / "fixtures" /
    "legacy_replays.json").read_text())


def _differs_under_todays_rules(match: dict[str, Any], cut: int) -> bool:
    """Whether today's default rules would refuse or change this log before `cut`."""
    game = get_game("yanniv")
    state, _ = start_match(MatchConfig(seats=match["seats"], manches=match["manches"]),
                           match["seed"])
    for index, data in enumerate(match["actions"][:cut], start=1):
        try:
            state, _ = apply(state, game.decode_action(data).action)
        except Exception:
            return True
        if state_digest(state) != match["steps"][index]["state"]:
            return True
    return False


def _store_old_match(url: str, match: dict[str, Any], cut: int) -> None:
    """The rows as the code before 0005 wrote them, in a database at revision 0004."""
    db = Database(url)
    try:
        upgrade(db.engine, "0004")
        now = datetime.now(UTC)
        settings = {"public": False, "manches": match["manches"], "first_player": "random",
                    "show_known_cards": True, "log_visible": True, "timer_seconds": None}
        with db.engine.begin() as conn:
            conn.execute(text(
                "INSERT INTO rooms (code, public, status, host_seat, settings, version, "
                "created_at, updated_at) VALUES ('OLDRUL', false, 'playing', 0, :s, :v, :t, :t)"
            ), {"s": json.dumps(settings), "v": cut + 3, "t": now})
            for seat in range(match["seats"]):
                conn.execute(text(
                    "INSERT INTO room_seats (room_code, seat, pseudo, token_hash, owner_hash, "
                    "joined_at, bot_level) VALUES ('OLDRUL', :seat, :p, :h, NULL, :t, NULL)"
                ), {"seat": seat, "p": f"Joueur{seat}", "h": f"{seat:064x}", "t": now})
            conn.execute(text(
                "INSERT INTO room_matches (id, room_code, seed, seats, manches, first_player, "
                "pseudos, status, started_at) VALUES (1, 'OLDRUL', :seed, :n, :m, NULL, :ps, "
                "'playing', :t)"
            ), {"seed": match["seed"], "n": match["seats"], "m": match["manches"], "t": now,
                "ps": json.dumps([f"Joueur{s}" for s in range(match["seats"])])})
            for step, data in enumerate(match["actions"][:cut]):
                conn.execute(text(
                    "INSERT INTO room_actions (match_id, step, seat, version, action, client_id,"
                    " by_timer, created_at) VALUES (1, :step, 0, :v, :a, NULL, true, :t)"
                ), {"step": step, "v": step + 4, "a": json.dumps(data), "t": now})
    finally:
        db.close()


@pytest.mark.parametrize("url_fixture", ["sqlite_url", "postgres_url"])
def test_a_match_stored_before_the_migration_replays_identically(
        url_fixture: str, request: pytest.FixtureRequest,
        app_factory: Callable[..., FastAPI]) -> None:
    url = request.getfixturevalue(url_fixture)
    # A log whose replay under today's rules would differ, cut while the match is in play.
    chosen = next(
        (m, len(m["actions"]) * 3 // 4) for m in FIXTURE["matches"]
        if _differs_under_todays_rules(m, len(m["actions"]) * 3 // 4)
    )
    match, cut = chosen
    _store_old_match(url, match, cut)
    app = app_factory(url)
    with TestClient(app):
        room = app.state.rooms.get("OLDRUL")
        assert room is not None, "the old room was not restored"
        assert room.match is not None
        assert room.match.rules_version == "yanniv-1"
        assert room.match.config.rules.mandatory_powers is False
        assert room.match.state.step == cut
        assert state_digest(room.match.state) == match["steps"][cut]["state"]
    with Database(url).engine.connect() as conn:
        game, version, config = conn.execute(text(
            "SELECT game, rules_version, config FROM room_matches WHERE id = 1")).one()
        seats = conn.execute(text("SELECT count(*) FROM room_seats")).scalar_one()
        actions = conn.execute(text("SELECT count(*) FROM room_actions")).scalar_one()
    config = json.loads(config) if isinstance(config, str) else config
    assert (game, version) == ("yanniv", "yanniv-1")
    assert config["rules"] == LEGACY_YANNIV.to_dict()
    # Adding the columns kept every dependent row (no table rebuilt, no cascade).
    assert seats == match["seats"] and actions == cut
