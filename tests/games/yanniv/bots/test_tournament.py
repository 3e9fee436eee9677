"""The tournament command runs end to end on a tiny number of matches."""

from __future__ import annotations

import pytest

from yanniv.cli import main
from yanniv.tools.tournament import MatchStats, _gaps, _mean_se, run_tournament, wilson


def test_wilson_interval() -> None:
    low, high = wilson(40, 100)
    assert 0.30 < low < 0.40 < high < 0.50
    assert wilson(0, 10)[0] == 0.0


def test_tournament_command(capsys: pytest.CaptureFixture[str]) -> None:
    code = main([
        "tournament", "--seats", "3", "--matches", "3", "--manches", "1",
        "--policies", "moyen,facile,facile", "--seed", "4", "--workers", "1",
    ])
    assert code == 0
    out = capsys.readouterr().out
    assert "moyen" in out and "facile" in out and "95% CI" in out and "vs others" in out
    assert "p50 ms" in out


def test_tournament_rotates_seats_and_counts_every_match() -> None:
    report = run_tournament(["facile", "moyen"], matches=4, seed=2, manches=1, workers=2)
    rows = report["by_policy"]
    assert rows["facile"]["wins"] + rows["moyen"]["wins"] == 4
    assert rows["moyen"]["decisions"] > 0 and rows["moyen"]["p99_ms"] >= 0
    moyen = rows["moyen"]
    assert 0 <= moyen["p50_ms"] <= moyen["p99_ms"] <= moyen["max_ms"]
    assert 0 <= moyen["cpu_p50_ms"] <= moyen["cpu_p99_ms"]
    # Paired per-match difference: with two policies, one's gap is the other's negated.
    facile_gap, facile_se = rows["facile"]["points_vs_others"]
    moyen_gap, moyen_se = rows["moyen"]["points_vs_others"]
    assert facile_gap == pytest.approx(-moyen_gap)
    assert facile_se == pytest.approx(moyen_se) and moyen_se > 0


def test_gap_compares_a_policy_with_the_pooled_others() -> None:
    result = MatchStats("a", deltas={"a": [-5, 1], "b": [10, 20, 4, 6]})
    assert _gaps(result) == {"a": pytest.approx(-2 - 10), "b": pytest.approx(10 + 2)}
    assert _mean_se([1.0]) is None and _mean_se([1.0, 3.0]) == (2.0, 1.0)


def test_tournament_reports_the_search_work_of_a_searching_policy() -> None:
    """difficile's work per decision is reported (3 worlds per search in the tests, so its
    playouts are multiples of 3); moyen does not search and has none."""
    report = run_tournament(["difficile", "moyen"], matches=2, seed=3, manches=1, workers=1)
    hard, plain = report["by_policy"]["difficile"], report["by_policy"]["moyen"]
    assert 0 < hard["searched"] <= 1 and hard["mean_playouts"] > 0 and hard["mean_steps"] > 0
    assert hard["max_playouts"] % 3 == 0 and hard["max_playouts"] >= 6
    assert hard["cpu_p99_ms"] >= 0
    assert plain["mean_playouts"] is None and plain["searched"] is None


def test_tournament_takes_a_game_and_its_rule_options() -> None:
    """`--game` and `--option` reach the matches: the same seed under the optional powers of
    the old rules plays other matches than under today's mandatory ones."""
    mandatory = run_tournament(["moyen", "facile"], 3, 11, manches=1, workers=1)
    optional = run_tournament(["moyen", "facile"], 3, 11, manches=1, workers=1,
                              game_id="yanniv", options={"mandatory_powers": False})
    assert mandatory["by_policy"] != optional["by_policy"]
    with pytest.raises(SystemExit):
        run_tournament(["moyen", "facile"], 1, 1, game_id="belote")
    with pytest.raises(SystemExit):
        run_tournament(["moyen", "facile"], 1, 1, options={"mandatory_powers": "oui"})


def test_the_report_header_says_how_a_match_of_its_game_ends(
        capsys: pytest.CaptureFixture[str]) -> None:
    """YANNIV is played to a number of manches, classic Yaniv to a points threshold (the
    header said "6 manches" for Yaniv too): the header takes the game's end condition."""
    base = ["tournament", "--seats", "2", "--matches", "1", "--policies", "facile",
            "--seed", "5", "--workers", "1"]
    assert main([*base, "--manches", "2"]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert "2 manches" in header
    assert main([*base, "--game", "yaniv", "--option", "threshold=60"]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert "manches" not in header and "a total over 60 points" in header
    assert main([*base, "--game", "yaniv", "--option", "threshold=60",
                 "--option", "elimination=true"]) == 0
    assert "elimination over 60 points" in capsys.readouterr().out.splitlines()[0]
