"""Simple built-in players: `random_policy` and `greedy_policy`, both deciding from a seat's view.

They power `yanniv simulate` (the engine benchmark) and the server's timer fallback
(`default_action`). They see exactly what a human in the seat sees: a `MatchView`.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from yanniv.engine import (
    Action,
    AskFour,
    CallYanniv,
    ChooseColour,
    ChoosePower,
    DrawPile,
    GiveCard,
    KingSwap,
    MatchState,
    Play,
    PlayAtOnce,
    QueenKeep,
    Skip,
    TakeDiscard,
    UseQueen,
    view,
)
from yanniv.engine.cards import DECK, JACK, QUEEN
from yanniv.engine.combos import all_combinations
from yanniv.engine.view import MatchView

Policy = Callable[[MatchView], Action]

#: Preferred power when a run holds several: no draw first, then the ones that lower the hand.
_POWER_PREFERENCE = (8, QUEEN, JACK, 7, 6, 4, 9, 13)


def random_policy(seed: int | str) -> Policy:
    """Uniformly random among the legal actions (its own seeded generator)."""
    rng = random.Random(f"random-policy/{seed}")

    def decide(v: MatchView) -> Action:
        return rng.choice(v.legal_actions)

    return decide


def _opponents(v: MatchView) -> list[int]:
    return [p.seat for p in v.players if p.seat != v.viewer and p.active]


def greedy(v: MatchView) -> Action:
    """Lower the hand as fast as possible; call YANNIV as soon as it may."""
    legal = v.legal_actions
    pending = v.pending
    assert pending is not None and legal
    kind = pending.kind
    hand = v.hand or ()
    if kind == "turn":
        if _CALL in legal:
            return _CALL
        plays = [a for a in legal if type(a) is Play]
        if plays:
            # A mandatory Jack brings a card back: only then (a Jack among the plays and a
            # card in its reach) is the ranking other than `_heaviest`.
            try:  # the key read in C: every well-formed play is in the table
                best = max(plays, key=_PLAY_KEYS.__getitem__)
            except KeyError:
                best = max(plays, key=_heaviest)
            # Only a Jack among the best plays can lose its place to what it brings back
            # (any other play keeps its points, every Jack play loses ≥ 1), so the full
            # ranking runs only then; its result is the same either way.
            if v.rules.mandatory_powers and _with_jack(best):
                back = _jack_take_back(v)
                if back is not None:
                    return max(plays, key=lambda a: _net(a, back))
            return best
        return _draw(legal)
    if kind == "draw":
        if _QUEEN in legal:
            return _QUEEN
        return _draw(legal)
    if kind == "choose_power":
        ranks = [a.rank for a in legal if isinstance(a, ChoosePower)]
        return ChoosePower(min(ranks, key=lambda r: _POWER_PREFERENCE.index(r)))
    if kind == "choose_colour":
        return ChooseColour("red")
    if kind in ("play_drawn", "four_play_received"):
        return next(a for a in legal if isinstance(a, PlayAtOnce))
    if kind == "queen_keep":
        keeps = [a for a in legal if isinstance(a, QueenKeep)]
        return min(keeps, key=lambda a: a.keep.value)
    if kind == "four_ask":
        target = max(_opponents(v), key=lambda seat: v.players[seat].card_count)
        return AskFour(target, 1)
    if kind in ("four_give", "four_exchange"):
        gives = [a for a in legal if isinstance(a, GiveCard)]
        return max(gives, key=lambda a: (a.card.value, a.card))
    if kind == "king":
        if not hand:
            return Skip()
        target = min(_opponents(v), key=lambda seat: v.players[seat].card_count)
        return KingSwap(max(hand, key=lambda c: (c.value, c)), target)
    return legal[0]


_CALL = CallYanniv()
_QUEEN = UseQueen()
_PILE = DrawPile()
_PLAY_KEYS: dict[Play, tuple[int, int]] = {}


def _heaviest(play: Play) -> tuple[int, int]:
    """Points then size of a play, memoized per (interned) play: this ranks every turn."""
    key = _PLAY_KEYS.get(play)
    if key is None:
        key = (sum(c.value for c in play.cards), len(play.cards))
        if len(_PLAY_KEYS) < 4096:  # well-formed plays are a few hundred
            _PLAY_KEYS[play] = key
    return key


for _cards in all_combinations(DECK):  # every well-formed play, ranked in advance
    _heaviest(Play(_cards))
del _cards

_PLAY_JACK: dict[Play, bool] = {}


def _with_jack(play: Play) -> bool:
    """Whether a play holds a Jack, memoized per (interned) play like `_heaviest`."""
    found = _PLAY_JACK.get(play)
    if found is None:
        found = any(c.rank == JACK for c in play.cards)
        if len(_PLAY_JACK) < 4096:
            _PLAY_JACK[play] = found
    return found


def _jack_take_back(v: MatchView) -> int | None:
    """Points of the lightest card a Jack played now would have to take back (mandatory
    powers), from the newest non-empty packets within its reach; None if there is none."""
    found: list[int] = []
    packets = 0
    for packet in reversed(v.discard):
        if packets == v.rules.jack_reach:
            break
        if packet.cards:
            found.extend(c.value for c in packet.cards)
            packets += 1
    return min(found) if found else None


def _net(play: Play, back: int | None) -> tuple[int, int]:
    """`_heaviest`, minus what a mandatory Jack brings back: without it two greedy players
    could play a Jack and take the other's back forever."""
    points, size = _heaviest(play)
    if back is not None and _with_jack(play):
        points -= back
    return points, size


#: Points of the card each take brings (a take is one interned object per card).
_TAKE_VALUE: dict[Action, int] = {TakeDiscard(card): card.value for card in DECK}


def _draw(legal: tuple[Action, ...]) -> Action:
    takes = [a for a in legal if type(a) is TakeDiscard]
    if takes:
        best = min(takes, key=_TAKE_VALUE.__getitem__)
        if best.card.value <= 3:
            return best
    return _PILE if _PILE in legal else legal[0]


def greedy_policy(seed: int | str = 0) -> Policy:
    return greedy


POLICIES: dict[str, Callable[[int | str], Policy]] = {
    "random": random_policy,
    "greedy": greedy_policy,
}


def default_action(state: MatchState) -> Action:
    """What the server plays for a seat whose timer ran out: the greedy choice, from that
    seat's own view only."""
    seat = state.to_act
    assert seat is not None
    return greedy(view(state, seat))
