"""`yanniv simulate`: plays full matches and prints a JSON summary."""

from __future__ import annotations

import json

from yanniv.cli import main


def test_simulate_prints_a_json_summary(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["simulate", "--seats", "3", "--matches", "4", "--seed", "7"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["matches"] == 4 and summary["seats"] == 3
    assert summary["matches_per_s"] > 0 and summary["actions_per_s"] > 0
    assert summary["mean_manches"] >= 6
    assert set(summary["powers_played"]) == {"4", "6", "7", "8", "9", "valet", "dame", "roi"}
    assert sum(summary["wins_by_policy"].values()) == 4


def test_simulate_is_deterministic_for_a_seed(capsys) -> None:  # type: ignore[no-untyped-def]
    args = ["simulate", "--seats", "2", "--matches", "3", "--seed", "5", "--policies", "random"]
    main(args)
    first = json.loads(capsys.readouterr().out)
    main(args)
    second = json.loads(capsys.readouterr().out)
    for key in ("mean_turns_per_match", "powers_played", "yanniv_calls", "mean_manches"):
        assert first[key] == second[key]


def test_simulate_takes_a_game_from_the_registry(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["simulate", "--game", "yanniv", "--seats", "2", "--matches", "2"]) == 0
    assert json.loads(capsys.readouterr().out)["game"] == "yanniv"
    try:
        main(["simulate", "--game", "belote", "--matches", "1"])
    except SystemExit as exc:
        assert "belote" in str(exc.code)
    else:
        raise AssertionError("an unknown game must be refused")
