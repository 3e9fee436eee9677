"""Diagnostic: how often fastsim's rollout policy picks moyen's action, per decision kind.

    PYTHONPATH=. python bench/rollout_fidelity.py --matches 30 --seed fid1

Four moyen play `--matches` matches (seeded `"{seed}/{i}"`); at each of their decisions with
a choice, a world is sampled from the acting seat's own view and tracker (as difficile's
search samples them) and the rollout policy decides in it. The table gives, per decision
kind (and in another player's last lap), how often the two agree and the commonest
disagreements. The rollouts stand for the opponents in difficile's search: the nearer their
choices are to the opponents', the truer its estimates.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter, defaultdict

from yanniv.games.yanniv.bots import fastsim
from yanniv.games.yanniv.bots.registry import make_bot
from yanniv.games.yanniv.bots.search import sample_world
from yanniv.games.yanniv.rules import MatchConfig, apply, redact, start_match, view
from yanniv.games.yanniv.rules.actions import (
    Action,
    AskFour,
    CallYanniv,
    KingSwap,
    Play,
    QueenKeep,
    TakeDiscard,
    UseQueen,
)
from yanniv.games.yanniv.rules.view import MatchView

KINDS = ("turn", "draw", "king", "four_ask", "queen_keep")


def _take(code: int) -> str:
    if code == fastsim.PILE:
        return "pile"
    return "queen" if code == fastsim.QUEEN_DRAW else f"discard {fastsim.VALUE[code]}"


def compare(v: MatchView, action: Action, w: fastsim.World, sim: fastsim.Sim) -> tuple[bool, str]:
    """Whether the rollout policy would take `action` in world `w`, and how it differs."""
    assert v.pending is not None and v.viewer is not None
    seat, hand, kind = v.viewer, w.hands[v.viewer], v.pending.kind
    if kind == "turn":
        call = (w.caller is None and w.constraint != fastsim.SEVEN
                and fastsim.hand_points(hand) <= w.rules.call_limit)
        if isinstance(action, CallYanniv):
            return call, "call" if call else "moyen calls"
        if not isinstance(action, Play):
            return False, type(action).__name__
        ours = sim.rollout_play(w, list(hand), w.constraint)
        mine = sorted(c.key for c in action.cards)
        if not call and sorted(ours) == mine:
            return True, "same"
        points = sum(fastsim.VALUE[k] for k in mine) - sum(fastsim.VALUE[k] for k in ours)
        return False, ("moyen lighter" if points < 0 else "moyen heavier" if points > 0
                       else "same points")
    if kind == "draw":
        power = v.turn_power or 0
        count = sum(1 for c in v.turn_play if c.rank == power)
        ours_take = sim.choose_take(w, list(hand), power, count, w.packets[-1])
        if isinstance(action, TakeDiscard):
            mine_take = action.card.key
        else:
            mine_take = fastsim.QUEEN_DRAW if isinstance(action, UseQueen) else fastsim.PILE
        if ours_take == mine_take:
            return True, "same"
        return False, f"moyen {_take(mine_take)}, rollout {_take(ours_take)}"
    if kind == "king":
        if not isinstance(action, KingSwap):
            return False, "moyen skips"
        target = sim.king_target(w, seat)
        if action.target != target:
            return False, "target differs"
        same = fastsim.VALUE[action.card.key] == fastsim.VALUE[hand[-1]]
        return same, "same" if same else "card differs"
    if kind == "four_ask":
        if not isinstance(action, AskFour):
            return False, "moyen skips"
        ask = sim.ask(w, seat)
        if ask is None or ask[0] != action.target:
            return False, "target differs"
        return (True, "same") if ask[1] == action.rank else (False, "rank differs")
    keep = min((c.key for c in v.pending.cards), key=fastsim.VALUE.__getitem__)
    same = isinstance(action, QueenKeep) and action.keep.key == keep
    return same, "same" if same else "other keep"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=30)
    parser.add_argument("--seed", default="fid1")
    args = parser.parse_args()
    agree: Counter[str] = Counter()
    total: Counter[str] = Counter()
    notes: defaultdict[str, Counter[str]] = defaultdict(Counter)
    for index in range(args.matches):
        match_seed = f"{args.seed}/{index}"
        bots = [make_bot("moyen", s, f"{match_seed}/{s}") for s in range(4)]
        state, events = start_match(MatchConfig(seats=4, manches=6), match_seed)
        rng = random.Random(index)
        while True:
            for s, bot in enumerate(bots):
                bot.observe([redact(e, s) for e in events])
            if state.finished:
                break
            seat = state.to_act
            assert seat is not None
            v = view(state, seat)
            action = bots[seat].decide(v)
            assert v.pending is not None
            if len(v.legal_actions) >= 2 and v.pending.kind in KINDS:
                lap = v.yanniv_caller is not None and v.yanniv_caller != seat
                label = v.pending.kind + (" (last lap)" if lap else "")
                w = sample_world(v, bots[seat].tracker, rng)
                same, note = compare(v, action, w, fastsim.Sim(random.Random(0)))
                total[label] += 1
                agree[label] += same
                notes[label][note] += 1
            state, events = apply(state, action)
    for label in sorted(total):
        common = ", ".join(f"{k}: {n}" for k, n in notes[label].most_common(5))
        share = agree[label] / total[label]
        print(f"{label:22s} n={total[label]:6d}  agree {share:6.1%}  {common}")


if __name__ == "__main__":
    main()
