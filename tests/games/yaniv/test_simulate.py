"""`yanniv simulate --game yaniv`: 2 to 8 seats, its JSON summary with the Assaf rate."""

from __future__ import annotations

import json

import pytest

from yanniv.cli import main


@pytest.mark.parametrize("seats", [2, 8])
def test_simulate_yaniv_prints_its_summary(capsys, seats: int) -> None:  # type: ignore[no-untyped-def]
    args = ["simulate", "--game", "yaniv", "--seats", str(seats), "--matches", "2",
            "--seed", "3", "--option", "threshold=60"]
    assert main(args) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["game"] == "yaniv" and summary["seats"] == seats
    assert summary["calls"] >= 2 * summary["mean_manches"] > 0
    assert 0 <= summary["calls_lost_rate"] <= 1
    # Yaniv's own figures, and none of YANNIV's (its powers and YANNIV calls).
    assert summary["assafs"] <= summary["calls"]
    assert summary["assaf_rate"] == round(summary["assafs"] / summary["calls"], 4)
    assert summary["assaf_rate"] == summary["calls_lost_rate"]
    assert {"brought_down", "eliminated"} <= set(summary)
    assert not {"powers_played", "yanniv_calls", "mean_turns_per_match"} & set(summary)
    assert sum(summary["wins_by_policy"].values()) == 2
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out)["calls"] == summary["calls"]
