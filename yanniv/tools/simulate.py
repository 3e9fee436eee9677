"""`yanniv simulate`: full matches between built-in policies, and figures about them.

This is the engine benchmark: matches/s and actions/s include the policies' decisions and
one `view` per decision, as a real seat would need, all through the game's interface
(`--game`, YANNIV by default). Each game adds its own figures (`Game.simulation_figures`); the
calls and the share lost (Yaniv's Assaf rate) come from any game's outcome.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

from yanniv.games import get_game


def run_simulation(
    seats: int, matches: int, seed: int, manches: int = 6, policies: list[str] | None = None,
    game_id: str = "yanniv", options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Play `matches` matches of `game_id` between scripted policies, through the game's
    interface as the server does, and sum up what happened."""
    try:
        game = get_game(game_id)
    except KeyError as exc:
        raise SystemExit(str(exc)) from None
    names = policies or ["greedy"]
    if len(names) == 1:
        names = names * seats
    if len(names) != seats:
        raise SystemExit(f"--policies needs 1 or {seats} names")
    known = game.policy_names()
    unknown = [name for name in names if name not in known]
    if unknown:
        raise SystemExit(f"unknown policies {unknown}; choose from {sorted(known)}")
    try:
        settings = game.settings_with(manches=manches, **(options or {}))
    except ValueError as exc:  # pydantic's ValidationError is a ValueError
        raise SystemExit(f"bad --option: {exc}") from None
    config = game.match_config(settings, seats, None)
    to_act, apply, view, is_over, step = (
        game.to_act, game.apply, game.view, game.is_over, game.step)

    counts: Counter = Counter()
    noted, note = game.simulation_noted, game.simulation_note
    wins: Counter[str] = Counter()
    actions = 0
    started = time.perf_counter()
    cpu_started = time.process_time()
    for index in range(matches):
        match_seed = f"{seed}/{index}"
        players = [game.scripted_policy(name, f"{match_seed}/{seat}")
                   for seat, name in enumerate(names)]
        state, _ = game.new_match(config, match_seed)
        while not is_over(state):
            seat = to_act(state)
            state, events = apply(state, players[seat](view(state, seat)))
            # Inlined: a call per action is a measurable share of this loop.
            for event in events:
                kind = type(event)
                counts[kind] += 1
                if kind in noted:
                    note(event, kind, counts)
        actions += step(state)
        game.simulation_finished(state, counts)
        outcome = game.outcome(state)
        assert outcome is not None
        wins[names[outcome.ranking[0]]] += 1
        counts["manches"] += len(outcome.manches)
        for result in outcome.manches:  # any game's calls, from its outcome
            if result.caller is not None:
                counts["calls"] += 1
                counts["calls_lost"] += result.caller_won is False
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    return {
        "game": game.id,
        "options": options or {},
        "seats": seats,
        "matches": matches,
        "seed": seed,
        "policies": names,
        "seconds": round(elapsed, 3),
        "cpu_seconds": round(cpu, 3),
        "matches_per_s": round(matches / elapsed, 1),
        # CPU time of this one process: steadier than wall time on a busy machine.
        "matches_per_cpu_s": round(matches / cpu, 1) if cpu else None,
        "actions_per_s": round(actions / elapsed, 1),
        "mean_manches": round(counts["manches"] / matches, 3),
        "mean_actions_per_match": round(actions / matches, 2),
        # From every game's outcome: manches ended by a call, and the share of those the
        # caller lost (YANNIV: beaten at the reveal; Yaniv: Assaf).
        "calls": counts["calls"],
        "calls_lost_rate": round(counts["calls_lost"] / counts["calls"], 4)
        if counts["calls"] else 0.0,
        "wins_by_policy": dict(wins),
        **game.simulation_figures(counts, matches),
    }
