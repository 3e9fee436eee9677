"""The migrations build exactly the server's tables as the models declare them, and carry
existing rows over."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

import yanniv.server.store.models  # noqa: F401  (tables on Base.metadata)
from yanniv.db.base import Base
from yanniv.db.migrate import upgrade
from yanniv.db.session import Database
from yanniv.profiles.identity import hash_secret

SERVER_TABLES = {"rooms", "room_seats", "room_matches", "room_actions", "room_leases"}


def _table_of(diff: object) -> str | None:
    item = diff[0] if isinstance(diff, list) else diff
    for part in item[1:] if isinstance(item, tuple) else ():
        name = getattr(part, "name", None) if not isinstance(part, str) else part
        table = getattr(part, "table", None)
        if table is not None and getattr(table, "name", None):
            return table.name
        if name in SERVER_TABLES:
            return name
    return None


def test_models_match_migrations(sqlite_url: str) -> None:
    db = Database(sqlite_url)
    try:
        db.upgrade()
        with db.engine.connect() as conn:
            diffs = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        ours = [d for d in diffs if _table_of(d) in SERVER_TABLES]
        assert ours == []
    finally:
        db.close()


@pytest.mark.parametrize("url_fixture", ["sqlite_url", "postgres_url"])
def test_owner_secrets_become_hashes(url_fixture: str, request: pytest.FixtureRequest) -> None:
    """0004 replaces each seat's raw owner secret by its hash (the one profiles store)."""
    db = Database(request.getfixturevalue(url_fixture))
    try:
        upgrade(db.engine, "0003")
        now = datetime.now(UTC)
        with db.engine.begin() as conn:
            conn.execute(text(
                "INSERT INTO rooms (code, public, status, host_seat, settings, version, "
                "created_at, updated_at) VALUES ('ABCDEF', false, 'waiting', 0, '{}', 1, :t, :t)"
            ), {"t": now})
            for seat, secret in enumerate(["secret-of-lea", None]):
                conn.execute(text(
                    "INSERT INTO room_seats (room_code, seat, pseudo, token_hash, owner_secret, "
                    "joined_at) VALUES ('ABCDEF', :seat, :pseudo, :token, :secret, :t)"
                ), {"seat": seat, "pseudo": f"p{seat}", "token": f"h{seat}", "secret": secret,
                    "t": now})
        upgrade(db.engine)
        with db.engine.connect() as conn:
            rows = conn.execute(
                text("SELECT seat, owner_hash FROM room_seats ORDER BY seat")
            ).all()
            columns = {c["name"] for c in inspect(conn).get_columns("room_seats")}
        assert [tuple(r) for r in rows] == [(0, hash_secret("secret-of-lea")), (1, None)]
        assert "owner_secret" not in columns
    finally:
        db.close()


_OLD_PROFILE = (
    "INSERT INTO profiles (id, pseudo, pseudo_key, created_at, last_played_at, mu, sigma, "
    "ordinal, matches_played, matches_won, manches_played, manches_won, points_sum, "
    "yanniv_calls, yanniv_successes, best_total) VALUES (:id, :pseudo, :key, :t, :t, :mu, "
    ":sigma, :ordinal, :played, :won, :mp, :mw, :points, :calls, :ok, :best)"
)


def _downgrade(engine: object, revision: str) -> None:
    from alembic import command

    from yanniv.db.migrate import alembic_config

    config = alembic_config()
    with engine.begin() as connection:  # type: ignore[attr-defined]
        config.attributes["connection"] = connection
        command.downgrade(config, revision)


@pytest.mark.parametrize("url_fixture", ["sqlite_url", "postgres_url"])
def test_profile_ratings_move_to_their_yanniv_row(
    url_fixture: str, request: pytest.FixtureRequest
) -> None:
    """0006 moves each profile's rating and counters to a `yanniv` row of profile_games and
    drops them from profiles, without losing owners or the players of finished matches."""
    db = Database(request.getfixturevalue(url_fixture))
    try:
        upgrade(db.engine, "0005")
        now = datetime.now(UTC)
        lea = {"id": 1, "pseudo": "Léa", "key": "léa", "mu": 31.5, "sigma": 2.25,
               "ordinal": 24.75, "played": 7, "won": 4, "mp": 30, "mw": 12, "points": 95,
               "calls": 9, "ok": 7, "best": -15, "t": now}
        bob = {**lea, "id": 2, "pseudo": "Bob", "key": "bob", "mu": 20.0, "sigma": 7.0,
               "ordinal": -1.0, "played": 1, "won": 0, "mp": 3, "mw": 1, "points": 40,
               "calls": 1, "ok": 0, "best": 40}
        with db.engine.begin() as conn:
            conn.execute(text(_OLD_PROFILE), [lea, bob])
            conn.execute(text(
                "INSERT INTO profile_owners (profile_id, secret_hash, created_at) "
                "VALUES (1, :h, :t)"
            ), {"h": hash_secret("secret-of-lea"), "t": now})
            conn.execute(text(
                "INSERT INTO finished_matches (id, room_code, seed, started_at, finished_at, "
                "seats, manches, rated) VALUES (1, 'ABCDEF', '1', :t, :t, 2, 3, true)"
            ), {"t": now})
            conn.execute(text(
                "INSERT INTO finished_match_players (match_id, seat, profile_id, pseudo, is_bot, "
                "total, rank, finished_at) VALUES (1, 0, 1, 'Léa', false, -15, 1, :t), "
                "(1, 1, 2, 'Bob', false, 40, 2, :t)"
            ), {"t": now})
            conn.execute(text("UPDATE profile_counts SET profiles = 2, rated_profiles = 1"))
        upgrade(db.engine)
        with db.engine.connect() as conn:
            games = conn.execute(text(
                "SELECT profile_id, game, mu, sigma, ordinal, matches_played, matches_won, "
                "manches_played, manches_won, points_sum, calls, calls_won, best_total "
                "FROM profile_games ORDER BY profile_id"
            )).all()
            owners = conn.execute(text("SELECT profile_id FROM profile_owners")).all()
            players = conn.execute(text(
                "SELECT seat, profile_id FROM finished_match_players ORDER BY seat"
            )).all()
            counts = conn.execute(text("SELECT * FROM profile_game_counts")).all()
            inspector = inspect(conn)
            columns = {c["name"] for c in inspector.get_columns("profiles")}
            tables = set(inspector.get_table_names())
            names = conn.execute(text("SELECT pseudo FROM profiles ORDER BY id")).scalars().all()
        assert [tuple(r) for r in games] == [
            (p["id"], "yanniv", p["mu"], p["sigma"], p["ordinal"], p["played"], p["won"],
             p["mp"], p["mw"], p["points"], p["calls"], p["ok"], p["best"])
            for p in (lea, bob)
        ]
        assert [tuple(r) for r in owners] == [(1,)]
        assert [tuple(r) for r in players] == [(0, 1), (1, 2)]
        assert [tuple(r) for r in counts] == [("yanniv", 2, 1)]
        assert names == ["Léa", "Bob"]
        assert columns == {"id", "pseudo", "pseudo_key", "password_hash", "created_at",
                           "last_played_at"}
        assert "profile_counts" not in tables

        _downgrade(db.engine, "0005")  # and back: the yanniv rows return to profiles
        with db.engine.connect() as conn:
            back = conn.execute(text(
                "SELECT id, mu, matches_played, yanniv_calls, yanniv_successes, best_total "
                "FROM profiles ORDER BY id"
            )).all()
            owners = conn.execute(text("SELECT profile_id FROM profile_owners")).all()
            old_counts = conn.execute(text("SELECT profiles, rated_profiles FROM profile_counts"))
            assert [tuple(r) for r in old_counts] == [(2, 1)]
        assert [tuple(r) for r in back] == [
            (p["id"], p["mu"], p["played"], p["calls"], p["ok"], p["best"]) for p in (lea, bob)
        ]
        assert [tuple(r) for r in owners] == [(1,)]
    finally:
        db.close()

