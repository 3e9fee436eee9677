"""Replicas starting together on one fresh PostgreSQL database (docker-compose.yml's `app`
scaled to 3) each upgrade the schema at start: all of them must come up, none failing on
tables another one is creating at the same moment."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text

ROOT = Path(__file__).resolve().parents[2]
REPLICAS = 3
#: One replica's start, as `yanniv serve` does it (`Database.upgrade` in the app's lifespan),
#: held until a common instant so that the upgrades overlap.
REPLICA = """
import sys, time
from sqlalchemy import text
from yanniv.db.session import Database
db = Database(sys.argv[1])
with db.engine.connect() as conn:
    conn.execute(text("SELECT 1"))
time.sleep(max(0.0, float(sys.argv[2]) - time.time()))
db.upgrade()
db.close()
"""


@pytest.mark.postgres
def test_replicas_upgrading_at_once_all_start(postgres_url: str) -> None:
    start_at = time.time() + 4.0  # every replica imported and connected by then
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    replicas = [subprocess.Popen([sys.executable, "-c", REPLICA, postgres_url, str(start_at)],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 cwd=ROOT, env=env)
                for _ in range(REPLICAS)]
    outcomes = [(replica.wait(timeout=120), replica.communicate()[1]) for replica in replicas]
    failed = [next((line for line in reversed(err.splitlines()) if "Error" in line), err)
              for code, err in outcomes if code != 0]
    assert not failed, failed
    engine = create_engine(postgres_url)
    try:
        with engine.connect() as conn:
            versions = conn.execute(text("SELECT version_num FROM alembic_version")).all()
            tables = set(inspect(conn).get_table_names())
    finally:
        engine.dispose()
    assert len(versions) == 1
    assert {"rooms", "room_leases", "room_actions"} <= tables
