"""Diagnostic: where difficile departs from moyen, which of the two choices was better?

    PYTHONPATH=. python bench/decision_regret.py --matches 300 --seed 31 --rollouts 10
    PYTHONPATH=. python bench/decision_regret.py --headroom --matches 60 --seed 41

difficile plays three moyen. At each of its decisions where the search overrode moyen's
choice, both actions are replayed from the TRUE state `--rollouts` times (the pile's unknown
part reshuffled and the chance reseeded alike for both), every seat then played by copies of
the real moyen bots, trackers included; the gain is the paired difference of the seat's
manche score against the others' mean. It prints the mean true gain next to the search's own
estimate, by decision kind and other slices. Stop 14 found with it that the search's gain is
real but about a quarter of what it predicts, and (with `--headroom`: the best legal action
on fresh rollouts against moyen's, per decision kind) that moyen's 4 asks had the most room.

It reads the true state on purpose: a measuring tool, never a player. Gains are in points
per decision; times decisions per manche, they give points per manche (with `--headroom`, turns
and draws are sampled at 8% and 15%, so their counts per manche are that much smaller).
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import multiprocessing
import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from yanniv.games.yanniv.bots import difficile
from yanniv.games.yanniv.bots.base import Bot
from yanniv.games.yanniv.bots.moyen import Moyen, decide_moyen
from yanniv.games.yanniv.bots.registry import make_bot
from yanniv.games.yanniv.bots.situation import situation
from yanniv.games.yanniv.rules import MatchConfig, apply, redact, start_match, view
from yanniv.games.yanniv.rules.actions import Action, AskFour, KingSwap
from yanniv.games.yanniv.rules.state import MatchState

#: The override just made by difficile: its estimated gain, z-score and plan count.
_LAST: dict[str, float] = {}
_original = difficile.better_than_first


def _spy(results: list[list[float]], z: float) -> int:
    index = _original(results, z)
    n = len(results[0])
    diffs = [b - a for a, b in zip(results[0], results[index], strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    _LAST.update(pred=mean, z=mean / math.sqrt(var / n) if var > 0 else 0.0)
    return index


def _reshuffled(state: MatchState, k: int) -> MatchState:
    """A copy whose pile cards no seat knows are shuffled, and whose chance is reseeded."""
    s = state.copy()
    known = frozenset().union(*s.pile_known)
    pile = list(s.pile)
    free = [i for i, c in enumerate(pile) if c not in known]
    moved = [pile[i] for i in free]
    random.Random(k).shuffle(moved)
    for i, card in zip(free, moved, strict=True):
        pile[i] = card
    s.pile = tuple(pile)
    s.seed = f"{state.seed}/regret{k}"
    return s


def rollout(state: MatchState, action: Action, bots: Sequence[Bot], seat: int, k: int) -> float:
    """`seat`'s manche score against the others' mean after `action`, the bots playing on."""
    s, events = apply(_reshuffled(state, k), action)
    manche = state.manche
    while True:
        for t, bot in enumerate(bots):
            bot.observe([redact(e, t) for e in events])
        if s.finished or s.manche != manche:
            break
        t = s.to_act
        assert t is not None
        s, events = apply(s, bots[t].decide(view(s, t)))
    result = s.manche_history[-1]
    others = [result.deltas[t] for t in result.participants if t != seat]
    return sum(others) / len(others) - result.deltas[seat]


def _scores(
    state: MatchState, action: Action, snapshot: list[Bot], seat: int, ks: Iterable[int]
) -> list[float]:
    out = []
    for k in ks:
        bots = copy.deepcopy(snapshot)
        self_bot = Moyen(seat, 0)
        self_bot.tracker = bots[seat].tracker
        bots[seat] = self_bot
        out.append(rollout(state, action, bots, seat, k))
    return out


def describe(action: Action) -> str:
    if isinstance(action, AskFour):
        return f"AskFour/{action.target}/{action.rank}"
    if isinstance(action, KingSwap):
        return f"KingSwap/{action.card}/{action.target}"
    cards = getattr(action, "cards", None) or [getattr(action, "card", None)]
    return "/".join([type(action).__name__, *(str(c) for c in cards if c is not None)])


Probe = Callable[[MatchState, Action, Action, list[Bot], int], dict[str, Any] | None]


def _regret_probe(rollouts: int) -> Probe:
    def probe(
        state: MatchState, mine: Action, prior: Action, snapshot: list[Bot], seat: int
    ) -> dict[str, Any] | None:
        if "pred" not in _LAST or mine == prior:
            return None
        a = _scores(state, prior, snapshot, seat, range(rollouts))
        b = _scores(state, mine, snapshot, seat, range(rollouts))
        return {"gain": sum(y - x for x, y in zip(a, b, strict=True)) / rollouts, **_LAST}

    return probe


def _headroom_probe(rollouts: int, rng: random.Random) -> Probe:
    rates = {"turn": 0.08, "draw": 0.15}

    def probe(
        state: MatchState, mine: Action, prior: Action, snapshot: list[Bot], seat: int
    ) -> dict[str, Any] | None:
        assert state.pending is not None
        if rng.random() >= rates.get(state.pending.kind, 1.0):
            return None
        legal = list(view(state, seat).legal_actions)
        rng.shuffle(legal)
        options = list(dict.fromkeys([prior, mine, *legal]))[:14]
        picked = max(options, key=lambda a: sum(_scores(state, a, snapshot, seat, range(6))))
        fresh = range(1000, 1000 + rollouts)
        base = _scores(state, prior, snapshot, seat, fresh)
        best = _scores(state, picked, snapshot, seat, fresh)
        return {"gain": sum(y - x for x, y in zip(base, best, strict=True)) / rollouts,
                "best": describe(picked)}

    return probe


def play(job: tuple[int, int, int, bool]) -> list[dict[str, Any]]:
    """One match, difficile at seat `index % 4`; a record per probed decision."""
    index, seed, rollouts, headroom = job
    difficile.better_than_first = _spy
    names = ("difficile", "moyen", "moyen", "moyen")
    seat_name = [names[(s - index) % 4] for s in range(4)]
    match_seed = f"{seed}/{index}"
    bots = [make_bot(seat_name[s], s, f"{match_seed}/{s}") for s in range(4)]
    me = seat_name.index("difficile")
    probe = (_headroom_probe(rollouts, random.Random(f"{seed}/{index}")) if headroom
             else _regret_probe(rollouts))
    state, events = start_match(MatchConfig(seats=4, manches=6), match_seed)
    records: list[dict[str, Any]] = []
    while True:
        for s, bot in enumerate(bots):
            bot.observe([redact(e, s) for e in events])
        if state.finished:
            return records
        s = state.to_act
        assert s is not None
        seen = view(state, s)
        if s != me or len(seen.legal_actions) < 2:
            state, events = apply(state, bots[s].decide(seen))
            continue
        _LAST.clear()
        snapshot = copy.deepcopy(bots)
        mine = bots[s].decide(seen)
        prior = decide_moyen(
            seen, situation(seen), copy.deepcopy(snapshot[s].tracker), random.Random(0), 1.0
        )
        found = probe(state, mine, prior, snapshot, s)
        if found is not None:
            assert seen.pending is not None
            lap = seen.yanniv_caller is not None and seen.yanniv_caller != s
            records.append({"kind": seen.pending.kind, "lap": lap, "cards": len(seen.hand or ()),
                            "mine": describe(mine), "moyen": describe(prior), **found})
        state, events = apply(state, mine)


def report(records: list[dict[str, Any]], manches: int) -> None:
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        groups["all"].append(r)
        groups[f"kind {r['kind']}"].append(r)
        groups["last lap" if r["lap"] else "other turns"].append(r)
    for label, rows in sorted(groups.items(), key=lambda item: (item[0] != "all", item[0])):
        n = len(rows)
        gain = sum(r["gain"] for r in rows) / n
        se = math.sqrt(sum((r["gain"] - gain) ** 2 for r in rows) / max(1, n - 1) / n)
        line = f"{label:24s} n={n:5d} ({n / manches:.2f}/manche)  true gain {gain:+.3f} ± {se:.3f}"
        if "pred" in rows[0]:
            line += f"  search's estimate {sum(r['pred'] for r in rows) / n:+.3f}"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--rollouts", type=int, default=10)
    parser.add_argument("--headroom", action="store_true")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", help="also write every record as JSON lines here")
    args = parser.parse_args()
    jobs = [(i, args.seed, args.rollouts, args.headroom) for i in range(args.matches)]
    with multiprocessing.Pool(args.workers) as pool:
        records = [r for batch in pool.imap_unordered(play, jobs) for r in batch]
    if args.out:
        with open(args.out, "w") as f:
            f.writelines(json.dumps(r) + "\n" for r in records)
    if records:
        report(records, args.matches * 6)


if __name__ == "__main__":
    main()
