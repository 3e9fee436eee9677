"""Flat Monte Carlo over sampled worlds with the fast simulator (`fastsim`).

Each world is dealt consistently with the seat's view (`determinize.sample_hidden`: the
tracker's facts, the caller's hand under 5 points); every candidate is played in the same
worlds (common random numbers) and the manche is played to its end; a candidate scores the
opponents' mean manche delta minus its own, or what the caller's `standing.Utility` makes of
the manche's deltas (`difficile`: its chance of winning the match).

The search stops on work done, never on the clock: a wall-clock budget made the bot's
strength depend on the machine's load and no decision repeatable. Work is counted in
simulated turns plus a charge per sampled world and per playout (`Work.units`), which follows
CPU time where a count of playouts alone would not (a playout in another player's last lap
is a few turns, one at a manche's start dozens).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from math import sqrt

from yanniv.games.yanniv.bots.determinize import sample_hidden
from yanniv.games.yanniv.bots.fastsim import (
    FREE,
    PACKETS,
    SEVEN,
    SIX_BLACK,
    SIX_RED,
    Sim,
    World,
    deltas,
)
from yanniv.games.yanniv.bots.standing import Utility, points_utility
from yanniv.games.yanniv.bots.tracker import Tracker
from yanniv.games.yanniv.rules.view import MatchView

#: Work units charged per sampled world and per playout on top of its simulated turns (one
#: unit each), so that units follow CPU time in every kind of decision. Measured vs three
#: moyen, seed 2026, 6 matches: 77, 75, 79 and 81 units per ms at turns, last-lap turns, draws
#: and powers, where turns alone gave 65, 38, 61, 65 and playouts alone 3.2, 12, 4.9, 5.6.
WORLD_UNITS = 4
PLAYOUT_UNITS = 2


@dataclass(slots=True)
class Work:
    """What searches spent: sampled worlds, playouts (worlds x plans) and simulated turns."""

    worlds: int = 0
    playouts: int = 0
    steps: int = 0

    @property
    def units(self) -> int:
        """The budget's measure: about one simulated turn's CPU time each."""
        return self.steps + WORLD_UNITS * self.worlds + PLAYOUT_UNITS * self.playouts


@dataclass(frozen=True, slots=True)
class Plan:
    """A candidate turn: call YANNIV, or play `play` (card keys) then draw `take` (a discard
    card key, `PILE`, `QUEEN_DRAW`, None to let the rollout policy choose); with `drawing`,
    the cards are already down and only `take` is chosen; with `power`, the turn is at a
    King, a 4 or a Queen's draw: swap `king` (card key, target), ask `ask` (target, rank),
    `keep` (card key, the others' keys top first), or none of them (skip)."""

    play: tuple[int, ...] = ()
    take: int | None = None
    call: bool = False
    drawing: bool = False
    power: bool = False
    king: tuple[int, int] | None = None
    ask: tuple[int, int] | None = None
    keep: tuple[int, tuple[int, ...]] | None = None


def constraint_code(v: MatchView) -> int:
    c = v.constraint
    if c is None:
        return FREE
    if c.kind == "seven":
        return SEVEN
    return SIX_RED if c.colour == "red" else SIX_BLACK


def sample_world(v: MatchView, tracker: Tracker | None, rng: random.Random) -> World:
    """A world this seat's view cannot tell apart from the real one, at the turn's start."""
    hidden, rest = sample_hidden(v, tracker, rng)
    hands: list[list[int]] = []
    for p in v.players:
        if p.seat == v.viewer:
            hands.append(sorted(c.key for c in v.hand or ()))
        elif not p.active:
            hands.append([])
        else:
            hands.append(sorted([c.key for c in p.known_cards] + [c.key for c in hidden[p.seat]]))
    pile = [c.key for c in rest] + [c.key for c in reversed(v.pile_known)]
    discard = v.discard
    split = max(0, len(discard) - PACKETS)
    dead = [c.key for packet in discard[:split] for c in packet.cards]
    packets = [[c.key for c in packet.cards] for packet in discard[split:]]
    prev = None
    if v.previous_packet is not None:
        if v.previous_packet == len(discard) - 1 and packets:
            prev = packets[-1]
        else:
            prev = [c.key for c in discard[v.previous_packet].cards]
    return World(
        hands, pile, packets, dead, prev, v.turn, v.direction, v.yanniv_caller,
        constraint_code(v), [p.active for p in v.players], set(v.last_lap), v.rules,
    )


def evaluate(
    v: MatchView, tracker: Tracker | None, rng: random.Random, plans: Sequence[Plan],
    budget: int, max_worlds: int, min_worlds: int = 8, spent: Work | None = None,
    utility: Utility | None = None,
) -> list[list[float]]:
    """Score of each plan in each of the same sampled worlds, by `utility` of the manche's
    deltas (default: the relative points score): at least `min_worlds` and at most
    `max_worlds` worlds, a new one only while this call's work is under `budget` units (so
    the same `rng` state gives the same worlds on any machine); the work is added to
    `spent`."""
    seat = v.viewer
    assert seat is not None
    score = utility or points_utility(seat)
    sim = _CountingSim(random.Random(0))
    results: list[list[float]] = [[] for _ in plans]
    power = v.turn_power or 0
    count = sum(1 for c in v.turn_play if c.rank == power)
    remaining = max(0, v.pending.remaining - 1) if v.pending is not None else 0
    work = Work()
    while work.worlds < max_worlds and (work.worlds < min_worlds or work.units < budget):
        base = sample_world(v, tracker, rng)
        world_seed = rng.getrandbits(32)
        for index, plan in enumerate(plans):
            w = base.copy()
            sim.rng.seed(world_seed)
            if plan.power:
                over = _power_step(sim, w, plan, power, remaining)
            elif plan.drawing:
                over = sim.after_play(w, w.packets[-1], power, count, plan.take)
            else:
                over = sim.turn(w, list(plan.play) or None, plan.take, plan.call)
            if not over:
                sim.finish(w)
            results[index].append(score(deltas(w), w.active))
        work.worlds += 1
        work.playouts += len(plans)
        work.steps = sim.turns
    if spent is not None:
        spent.worlds += work.worlds
        spent.playouts += work.playouts
        spent.steps += work.steps
    return results


class _CountingSim(Sim):
    """The simulator, counting the turns it plays (the search's work)."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.turns = 0

    def turn(
        self, w: World, play: list[int] | None = None, take: int | None = None,
        call: bool = False,
    ) -> bool:
        self.turns += 1
        return super().turn(w, play, take, call)


def _power_step(sim: Sim, w: World, plan: Plan, power: int, remaining: int) -> bool:
    """Carry out a King, 4 or Queen decision, then the rest of the turn (a skip ends it)."""
    if plan.keep is not None:
        card, order = plan.keep
        hand = w.hands[w.turn]
        hand.append(card)
        hand.sort()
        w.pile.extend(reversed(order))
    elif plan.king is not None:
        sim.king_swap(w, w.turn, *plan.king)
    elif plan.ask is not None:
        sim.four_ask(w, w.turn, *plan.ask)
    else:
        remaining = 0
    return sim.end_powers(w, power, remaining)


def better_than_first(results: list[list[float]], z: float) -> int:
    """Index of the plan to follow: the first (the prior's choice) unless another beats it
    in the same worlds by more than `z` standard errors of the paired difference."""
    first = results[0]
    n = len(first)
    best, best_gain = 0, 0.0
    if n < 2:
        return 0
    for index in range(1, len(results)):
        diffs = [b - a for a, b in zip(first, results[index], strict=True)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean > z * sqrt(var / n) and mean > best_gain:
            best, best_gain = index, mean
    return best
