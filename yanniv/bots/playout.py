"""A fast policy for simulated continuations inside a sampled world (reads the world's state
directly: every card there is a guess already, so nothing real leaks)."""

from __future__ import annotations

from yanniv.bots.hands import best_dump
from yanniv.engine.actions import (
    Action,
    AskFour,
    CallYanniv,
    ChoosePower,
    DrawPile,
    GiveCard,
    KingSwap,
    Play,
    QueenKeep,
    Skip,
    TakeDiscard,
    UseQueen,
)
from yanniv.engine.rules import legal_actions
from yanniv.engine.state import MatchState

_POWER_PREFERENCE = (8, 12, 11, 7, 6, 4, 9, 13)


def fast_action(s: MatchState) -> Action:
    """Greedy but sensible: heaviest play, small or pairing discards, powers on the caller."""
    legal = legal_actions(s)
    if len(legal) == 1:
        return legal[0]
    pending = s.pending
    assert pending is not None
    kind = pending.kind
    seat = pending.seat
    hand = s.hands[seat]
    if kind == "turn":
        if CallYanniv() in legal:
            return CallYanniv()
        best: Action | None = None
        best_value = -1
        for action in legal:
            if isinstance(action, Play):
                total = 0
                for card in action.cards:
                    total += card.value
                if total > best_value:
                    best, best_value = action, total
        if best is not None:
            return best
        return _draw(s, legal, hand)
    if kind == "draw":
        if UseQueen() in legal:
            return UseQueen()
        return _draw(s, legal, hand)
    if kind in ("play_drawn", "four_play_received"):
        return legal[0]
    if kind == "choose_power":
        ranks = [a.rank for a in legal if isinstance(a, ChoosePower)]
        return ChoosePower(min(ranks, key=_POWER_PREFERENCE.index))
    if kind == "queen_keep":
        return min(
            (a for a in legal if isinstance(a, QueenKeep)),
            key=lambda a: (a.keep.value, -a.order[0].value),
        )
    if kind == "four_ask":
        return _four(s, seat, hand)
    if kind in ("four_give", "four_exchange"):
        return max((a for a in legal if isinstance(a, GiveCard)), key=lambda a: a.card.value)
    if kind == "king":
        target = _victim(s, seat)
        if target is None or not hand:
            return Skip()
        return KingSwap(max(hand, key=lambda c: c.value), target)
    return legal[0]


def _draw(s: MatchState, legal: tuple[Action, ...], hand: tuple) -> Action:
    ranks = {c.rank for c in hand}
    best: Action = DrawPile()
    best_score = 4.0
    for action in legal:
        if isinstance(action, TakeDiscard):
            card = action.card
            score = card.value - (card.value + 1 if card.rank in ranks else 0)
            if score < best_score:
                best, best_score = action, score
    return best if best in legal else legal[0]


def _victim(s: MatchState, seat: int) -> int | None:
    """The caller if any, else the opponent with the lightest hand."""
    others = [t for t in range(s.config.seats) if t != seat and s.active[t]]
    if not others:
        return None
    if s.yanniv_caller in others:
        return s.yanniv_caller
    return min(others, key=lambda t: sum(c.value for c in s.hands[t]))


def _four(s: MatchState, seat: int, hand: tuple) -> Action:
    """Ask the victim for its lowest rank (inside a sampled world the hands are guesses)."""
    target = _victim(s, seat)
    if target is None or not s.hands[target]:
        return Skip()
    low = min(s.hands[target], key=lambda c: c.value)
    if hand and max(c.value for c in hand) <= low.value and s.yanniv_caller != target:
        return Skip()
    return AskFour(target, low.rank)


def hand_weight(hand: tuple, dump_weight: float) -> float:
    return sum(c.value for c in hand) - dump_weight * best_dump(hand)
