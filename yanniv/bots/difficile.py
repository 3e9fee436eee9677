"""`difficile`: `moyen`'s judgement plus information-set Monte Carlo (determinization) during
another player's last lap, where the manche's outcome is decided.

There it samples worlds consistent with all its seat knows (`determinize`: the caller's hidden
cards are drawn among hands of 5 points or less, as his call proves), plays each candidate
action in every world (the same worlds for all candidates: common random numbers) and
continues with a fast policy until the manche ends, scoring the real manche deltas relative
to the opponents. A time budget and a cap on worlds bound each decision.

Measured and left out: searching every turn, or turns where an opponent is close to calling,
with continuations cut at the seat's next turn and scored by hand weights, or run to the end
of the manche within the budget. Both lost points against `moyen`'s own evaluation (too few
worlds for a full manche, and cut continuations compare unlike leaves), so elsewhere it plays
like `moyen` (which calls YANNIV at every chance, as it also does).
"""

from __future__ import annotations

import time

from yanniv.bots.determinize import determinize
from yanniv.bots.moyen import CALL_BONUS, Moyen, decide_moyen, play_score
from yanniv.bots.playout import fast_action, hand_weight
from yanniv.bots.situation import Situation, situation
from yanniv.engine.actions import Action, CallYanniv, Play
from yanniv.engine.events import MancheEnded
from yanniv.engine.rules import apply, legal_actions
from yanniv.engine.state import MatchState
from yanniv.engine.view import MatchView

BUDGET_S = 0.08
MAX_WORLDS = 200
MIN_WORLDS = 6
TOP_PLAYS = 8
#: Actions in one continuation before it is cut and scored from the hands.
MAX_STEPS = 60


class Difficile(Moyen):
    level = "difficile"
    budget_s = BUDGET_S
    max_worlds = MAX_WORLDS

    def decide(self, v: MatchView) -> Action:
        legal = v.legal_actions
        assert v.pending is not None and legal
        if len(legal) == 1:
            return legal[0]
        if CallYanniv() in legal:  # calling is cheap here: a beaten caller scores his <= 5
            return CallYanniv()
        sit = situation(v)
        candidates = self._candidates(v, sit)
        if len(candidates) < 2:
            return decide_moyen(v, sit, self.tracker, self.rng, self.call_risk)
        return self._search(v, sit, candidates)

    def _critical(self, v: MatchView, sit: Situation) -> bool:
        """Another player's last lap: the continuations are short and end the manche."""
        return sit.caller is not None and sit.caller != v.viewer

    def _candidates(self, v: MatchView, sit: Situation) -> list[Action]:
        assert v.pending is not None
        if v.pending.kind != "turn" or not self._critical(v, sit):
            return []
        plays = [a for a in v.legal_actions if isinstance(a, Play)]
        plays.sort(key=lambda a: play_score(v, sit, self.tracker, a.cards), reverse=True)
        result: list[Action] = list(plays[:TOP_PLAYS])
        if CallYanniv() in v.legal_actions:
            result.append(CallYanniv())
        return result

    def _search(self, v: MatchView, sit: Situation, candidates: list[Action]) -> Action:
        seat = v.viewer
        assert seat is not None
        deadline = time.perf_counter() + self.budget_s
        totals = [0.0] * len(candidates)
        worlds = 0
        while worlds < self.max_worlds and (
            worlds < MIN_WORLDS or time.perf_counter() < deadline
        ):
            world = determinize(v, self.tracker, self.rng)
            for index, action in enumerate(candidates):
                totals[index] += _continue(world, action, seat, sit.dw)
            worlds += 1
        best = max(range(len(candidates)), key=lambda i: totals[i])
        return candidates[best]


def _continue(world: MatchState, action: Action, seat: int, dw: float) -> float:
    """Play `action`, continue until the manche ends or `seat`'s next turn; score for `seat`:
    the opponents' mean (points or hand weight) minus its own."""
    state, events = apply(world, action)
    steps = 0
    left_turn = False
    while True:
        for event in events:
            if type(event) is MancheEnded:
                assert isinstance(event, MancheEnded)
                return _relative(seat, list(event.deltas), event_participants(state, event))
        pending = state.pending
        if pending is None:
            return 0.0
        if pending.seat != seat:
            left_turn = True
        elif steps >= MAX_STEPS or (
            left_turn
            and pending.kind == "turn"
            # Back to us: a hand of 5 or less calls (play on to the end of the last lap),
            # otherwise stop and compare the hands.
            and (state.yanniv_caller is not None or CallYanniv() not in legal_actions(state))
        ):
            break
        state, events = apply(state, fast_action(state))
        steps += 1
    scores = [leaf_weight(hand, dw) for hand in state.hands]
    return _relative(seat, scores, [t for t in range(state.config.seats) if state.active[t]])


def leaf_weight(hand: tuple, dw: float) -> float:
    """A hand's cost when a continuation is cut: its weight, less the YANNIV bonus when it
    is 5 points or less (its holder calls next turn)."""
    points = sum(c.value for c in hand)
    return hand_weight(hand, dw) - (CALL_BONUS if points <= 5 else 0.0)


def event_participants(state: MatchState, event: MancheEnded) -> list[int]:
    return list(state.last_result.participants) if state.last_result else []


def _relative(seat: int, points: list[float], participants: list[int]) -> float:
    others = [points[t] for t in participants if t != seat]
    if not others:
        return 0.0
    return sum(others) / len(others) - points[seat]
