"""difficile's search is bounded by work, not time: the same seeds and views give the same
decisions (and the same work) run after run, while another thread competes for the CPU, and
in another process with another hash seed (other memory addresses, other string hashes).
Nothing here is timed: a wall-clock budget would fail these comparisons under load."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from yanniv.games.yanniv.bots import difficile
from yanniv.games.yanniv.bots.registry import make_bot
from yanniv.games.yanniv.rules import MatchConfig, apply, redact, start_match, view

ROOT = Path(__file__).resolve().parents[4]
LEVELS = ("difficile", "difficile", "moyen", "moyen")


def decisions(seed: str = "determinism/1", manches: int = 1) -> list[list[object]]:
    """Play a short match (difficile at seats 0 and 1, with its real search) and list each
    difficile decision: step, seat, the action's repr, and the worlds, playouts and simulated
    turns it searched."""
    state, events = start_match(MatchConfig(seats=4, manches=manches), seed)
    bots = [make_bot(level, seat, f"{seed}/{seat}") for seat, level in enumerate(LEVELS)]
    made: list[list[object]] = []
    while True:
        for seat, bot in enumerate(bots):
            bot.observe([redact(event, seat) for event in events])
        if state.finished:
            return made
        seat = state.to_act
        assert seat is not None
        bot = bots[seat]
        action = bot.decide(view(state, seat))
        spent = bot.work_spent()
        if spent is not None:
            made.append([state.step, seat, repr(action), spent.worlds, spent.playouts,
                         spent.steps])
        state, events = apply(state, action)


@pytest.fixture
def real_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Undo conftest's tiny search (its patches are on this same `monkeypatch`): these
    decisions use difficile's own budget, as the subprocess does."""
    monkeypatch.undo()
    assert difficile.Difficile.work == difficile.WORK


def _burn(stop: threading.Event) -> None:
    """Keep a CPU busy (and the interpreter's lock contended) until `stop` is set."""
    x = 0
    while not stop.is_set():
        for i in range(10_000):
            x ^= i * i


@pytest.mark.usefixtures("real_search")
def test_same_seed_same_states_same_decisions_under_load() -> None:
    first = decisions()
    searched = [d for d in first if d[4]]
    assert len(searched) >= 10  # the match really exercised the search
    assert len({d[3] for d in searched}) > 1  # the number of worlds follows the work done
    assert decisions() == first
    stop = threading.Event()
    burner = threading.Thread(target=_burn, args=(stop,), daemon=True)
    burner.start()
    try:
        loaded = decisions()
    finally:
        stop.set()
        burner.join()
    assert loaded == first


@pytest.mark.usefixtures("real_search")
def test_another_process_with_another_hash_seed_decides_the_same() -> None:
    here = decisions()
    env = {**os.environ, "PYTHONHASHSEED": "12345", "PYTHONPATH": str(ROOT)}
    code = (
        "import json; from tests.games.yanniv.bots.test_determinism import decisions; "
        "print(json.dumps(decisions()))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
        check=True, timeout=300,
    ).stdout
    assert json.loads(out) == here
