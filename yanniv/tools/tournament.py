"""`yanniv tournament`: bots play full matches, seats rotating, and we measure them.

Match `i` seats policy `j` at seat `(j + i) % seats`, so every policy starts from every seat
equally often. Each bot only gets its seat's view and its seat's redacted events. Matches run
on a `multiprocessing` pool (one worker per core by default). Decision times are measured for
the report only (no bot reads the clock); a searching bot's work per decision (worlds x
candidates played out, simulated turns) is reported beside them, the same on any machine.
"""

from __future__ import annotations

import math
import multiprocessing
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from yanniv.games import get_game
from yanniv.games.interface import parse_options


@dataclass(slots=True)
class MatchStats:
    """One match, by policy name: the winner, manche deltas, decision times (seconds, on the
    wall clock and in CPU time: on a busy machine the first also counts waiting), and for a
    searching policy the playouts (worlds x candidates) and simulated turns of each
    decision."""

    winner: str
    deltas: dict[str, list[int]] = field(default_factory=dict)
    times: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)
    playouts: dict[str, list[int]] = field(default_factory=dict)
    steps: dict[str, list[int]] = field(default_factory=dict)


def play_match(names: tuple[str, ...], index: int, seed: int, manches: int,
               game_id: str = "yanniv", options: dict[str, Any] | None = None) -> MatchStats:
    """Play match `index` of `game_id` (seats rotated by `index`) to the end, under the game's
    default rules with `options` changed."""
    game = get_game(game_id)
    n = len(names)
    seat_name = [names[(seat - index) % n] for seat in range(n)]
    match_seed = f"{seed}/{index}"
    bots = [game.make_bot(seat_name[seat], seat, f"{match_seed}/{seat}") for seat in range(n)]
    config = game.match_config(game.settings_with(manches=manches, **(options or {})), n, None)
    state, events = game.new_match(config, match_seed)
    times: dict[str, list[float]] = defaultdict(list)
    cpu: dict[str, list[float]] = defaultdict(list)
    playouts: dict[str, list[int]] = defaultdict(list)
    steps: dict[str, list[int]] = defaultdict(list)
    while True:
        for seat, bot in enumerate(bots):
            bot.observe([game.redact(event, seat) for event in events])
        if game.is_over(state):
            break
        seat = game.to_act(state)
        assert seat is not None
        seen = game.view(state, seat)
        started, started_cpu = time.perf_counter(), time.thread_time()
        action = bots[seat].decide(seen)
        times[seat_name[seat]].append(time.perf_counter() - started)
        cpu[seat_name[seat]].append(time.thread_time() - started_cpu)
        spent = bots[seat].work_spent()  # type: ignore[attr-defined]
        if spent is not None:
            playouts[seat_name[seat]].append(spent.playouts)
            steps[seat_name[seat]].append(spent.steps)
        state, events = game.apply(state, action)
    outcome = game.outcome(state)
    assert outcome is not None
    deltas: dict[str, list[int]] = defaultdict(list)
    for result in outcome.manches:
        for seat in result.participants:
            deltas[seat_name[seat]].append(result.deltas[seat])
    return MatchStats(
        winner=seat_name[outcome.ranking[0]], deltas=dict(deltas), times=dict(times),
        cpu=dict(cpu), playouts=dict(playouts), steps=dict(steps),
    )


def _play(job: tuple[Any, ...]) -> MatchStats:
    return play_match(*job)


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (sound near 0 and 1, unlike p ± 2σ)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def _gaps(result: MatchStats) -> dict[str, float]:
    """Per policy, its mean points per manche in this match minus the other policies' (the
    paired difference: a match's luck in the deal counts on both sides)."""
    means = {name: sum(d) / len(d) for name, d in result.deltas.items() if d}
    gaps: dict[str, float] = {}
    for name, mine in means.items():
        others = [x for other, d in result.deltas.items() if other != name for x in d]
        if others:
            gaps[name] = mine - sum(others) / len(others)
    return gaps


def _mean_se(values: list[float]) -> tuple[float, float] | None:
    """Mean and standard error, None without at least two values."""
    n = len(values)
    if n < 2:
        return None
    mean = sum(values) / n
    return mean, math.sqrt(sum((x - mean) ** 2 for x in values) / (n - 1) / n)


def run_tournament(
    names: list[str], matches: int, seed: int, manches: int = 6, workers: int = 2,
    game_id: str = "yanniv", options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Play the matches and summarise per policy name (a name on k seats wins k/seats by
    chance; its win rate counts matches won by any of its seats)."""
    try:
        game = get_game(game_id)
    except KeyError as exc:
        raise SystemExit(str(exc)) from None
    levels = [b.key for b in game.bot_levels]
    unknown = [name for name in names if name not in levels]
    if unknown:
        raise SystemExit(f"unknown policies {unknown}; choose from {sorted(levels)}")
    if not game.min_seats <= len(names) <= game.max_seats:
        raise SystemExit(f"a match has {game.min_seats} to {game.max_seats} seats")
    try:
        settings = game.settings_with(manches=manches, **(options or {}))
    except ValueError as exc:  # pydantic's ValidationError is a ValueError
        raise SystemExit(f"bad --option: {exc}") from None
    jobs = [(tuple(names), index, seed, manches, game.id, options) for index in range(matches)]
    started = time.perf_counter()
    if workers > 1 and matches > 1:
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(workers) as pool:
            results = list(pool.imap_unordered(_play, jobs, chunksize=4))
    else:
        results = [_play(job) for job in jobs]
    return summarise(names, results, seed, manches, time.perf_counter() - started,
                     ends=game.end_condition(settings))


def summarise(
    names: list[str], results: list[MatchStats], seed: int, manches: int, elapsed: float,
    ends: str | None = None,
) -> dict[str, Any]:
    """The report over `results` (matches played in any order or in several runs); `ends`
    says how a match ends (the game's `end_condition`), "`manches` manches" if not given."""
    matches = len(results)
    wins: dict[str, int] = defaultdict(int)
    deltas: dict[str, list[int]] = defaultdict(list)
    times: dict[str, list[float]] = defaultdict(list)
    cpu: dict[str, list[float]] = defaultdict(list)
    gaps: dict[str, list[float]] = defaultdict(list)
    playouts: dict[str, list[int]] = defaultdict(list)
    steps: dict[str, list[int]] = defaultdict(list)
    for result in results:
        wins[result.winner] += 1
        for name, gap in _gaps(result).items():
            gaps[name].append(gap)
        for name, values in result.deltas.items():
            deltas[name].extend(values)
        for name, values in result.times.items():
            times[name].extend(values)
        for name, values in result.cpu.items():
            cpu[name].extend(values)
        for name, counts in result.playouts.items():
            playouts[name].extend(counts)
        for name, counts in result.steps.items():
            steps[name].extend(counts)
    summary: dict[str, Any] = {}
    for name in dict.fromkeys(names):
        low, high = wilson(wins[name], matches)
        summary[name] = {
            "seats": names.count(name),
            "chance": names.count(name) / len(names),
            "wins": wins[name],
            "win_rate": wins[name] / matches if matches else 0.0,
            "ci95": (low, high),
            "mean_points_per_manche": (
                sum(deltas[name]) / len(deltas[name]) if deltas[name] else 0.0
            ),
            "points_vs_others": _mean_se(gaps[name]),
            "decisions": len(times[name]),
            "mean_ms": 1000 * sum(times[name]) / len(times[name]) if times[name] else 0.0,
            "p50_ms": 1000 * _percentile(times[name], 0.5),
            "p99_ms": 1000 * _percentile(times[name], 0.99),
            "max_ms": 1000 * max(times[name], default=0.0),
            "cpu_mean_ms": 1000 * sum(cpu[name]) / len(cpu[name]) if cpu[name] else 0.0,
            "cpu_p50_ms": 1000 * _percentile(cpu[name], 0.5),
            "cpu_p99_ms": 1000 * _percentile(cpu[name], 0.99),
            **_work(playouts[name], steps[name]),
        }
    return {
        "seats": len(names),
        "matches": matches,
        "seed": seed,
        "manches": manches,
        "ends": ends or f"{manches} manches",
        "policies": names,
        "seconds": round(elapsed, 1),
        "by_policy": summary,
    }


def _work(playouts: list[int], steps: list[int]) -> dict[str, float | None]:
    """Work per decision of a searching policy (None for the others): mean playouts (worlds x
    candidates), their maximum, mean simulated turns, and the share of decisions searched."""
    if not playouts:
        return {"mean_playouts": None, "max_playouts": None, "mean_steps": None,
                "searched": None}
    return {
        "mean_playouts": sum(playouts) / len(playouts),
        "max_playouts": max(playouts),
        "mean_steps": sum(steps) / len(steps),
        "searched": sum(1 for p in playouts if p) / len(playouts),
    }


def format_report(report: dict[str, Any]) -> str:
    lines = [
        f"{report['matches']} matches, {report['seats']} seats, "
        f"{report.get('ends') or str(report['manches']) + ' manches'}, "
        f"seed {report['seed']}, policies {','.join(report['policies'])} "
        f"({report['seconds']} s)",
        f"{'policy':<10} {'seats':>5} {'wins':>6} {'win rate':>9} {'95% CI':>17} "
        f"{'chance':>7} {'pts/manche':>10} {'vs others':>13} {'mean ms':>8} {'p50 ms':>8} "
        f"{'p99 ms':>8} {'max ms':>8} {'cpu p99':>8} {'playouts':>8} {'turns':>7}",
    ]
    for name, row in report["by_policy"].items():
        low, high = row["ci95"]
        gap = row["points_vs_others"]
        versus = f"{gap[0]:+.2f}±{gap[1]:.2f}" if gap else "-"
        searched = row["mean_playouts"] is not None
        work = f"{row['mean_playouts']:>8.1f} {row['mean_steps']:>7.0f}" if searched else (
            f"{'-':>8} {'-':>7}"
        )
        lines.append(
            f"{name:<10} {row['seats']:>5} {row['wins']:>6} {100 * row['win_rate']:>8.1f}% "
            f"[{100 * low:5.1f}%, {100 * high:5.1f}%] {100 * row['chance']:>6.1f}% "
            f"{row['mean_points_per_manche']:>10.2f} {versus:>13} {row['mean_ms']:>8.2f} "
            f"{row['p50_ms']:>8.2f} {row['p99_ms']:>8.2f} {row['max_ms']:>8.2f} "
            f"{row['cpu_p99_ms']:>8.2f} {work}"
        )
    lines.append(
        "ms: wall-clock time per decision; cpu p99: its CPU time; playouts: worlds x "
        "candidates played out, and turns: simulated turns, per decision (mean)"
    )
    return "\n".join(lines)


def cli_tournament(args: Any) -> int:
    """`yanniv tournament` entry point (arguments parsed in `yanniv.cli`)."""
    import json
    import sys

    names = args.policies.split(",")
    if len(names) == 1:
        names = names * args.seats
    if len(names) != args.seats:
        raise SystemExit(f"--policies needs 1 or {args.seats} names")
    options = parse_options(args.option)
    report = run_tournament(names, args.matches, args.seed, args.manches, args.workers,
                            args.game, options)
    report["game"], report["options"] = args.game, options
    if args.json:
        json.dump(report, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(format_report(report) + "\n")
    return 0
