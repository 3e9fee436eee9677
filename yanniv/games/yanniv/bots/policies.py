"""Simple built-in players: `random_policy` and `greedy_policy`, both deciding from a seat's view.

They power `yanniv simulate` (the engine benchmark) and the server's timer fallback
(`default_action`). They see exactly what a human in the seat sees: a `MatchView`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence

from yanniv.games.yanniv.rules import (
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
from yanniv.games.yanniv.rules.cards import DECK, JACK, QUEEN, card_value
from yanniv.games.yanniv.rules.combos import all_combinations
from yanniv.games.yanniv.rules.view import MatchView

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
        try:  # ranked over all of `legal`: a draw without playing ranks below every play
            best = _best_play(legal, v)
        except KeyError:  # an action outside the tables: never one `legal_actions` lists
            plays = [a for a in legal if type(a) is Play]
            _learn(plays)
            best = _best_play(plays, v) if plays else None
        return best if type(best) is Play else _draw(legal)
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
#: Points then size of each play, the ranking of every turn; `_JACK_PLAYS`: the plays that
#: hold a Jack; `_NET_KEYS[back]`: the ranking when a Jack must bring `back` points back.
#: Filled at import for every well-formed play (interned: `legal_actions` lists no other),
#: so that `max` reads its keys in C.
_PLAY_KEYS: dict[Action, tuple[int, int]] = {}
_JACK_PLAYS: set[Action] = set()
_NET_KEYS: dict[int, dict[Action, tuple[int, int]]] = {}


def _learn(plays: Iterable[Play]) -> None:
    """Rank `plays` (and drop the net rankings, rebuilt from the new table when asked)."""
    for play in plays:
        _PLAY_KEYS[play] = (sum(c.value for c in play.cards), len(play.cards))
        if any(c.rank == JACK for c in play.cards):
            _JACK_PLAYS.add(play)
    _NET_KEYS.clear()


_learn(Play(cards) for cards in all_combinations(DECK))
#: The other actions of a turn (a draw when no play is legal) rank below every play.
_PLAY_KEYS.update(dict.fromkeys((_PILE, *map(TakeDiscard, DECK)), (-1, 0)))


def _net_keys(back: int) -> dict[Action, tuple[int, int]]:
    """The ranking of plays minus what a mandatory Jack brings back: without it two greedy
    players could play a Jack and take the other's back forever."""
    keys = _NET_KEYS.get(back)
    if keys is None:
        keys = _NET_KEYS[back] = {
            play: (points - back, size) if play in _JACK_PLAYS else (points, size)
            for play, (points, size) in _PLAY_KEYS.items()
        }
    return keys


def _best_play(plays: Sequence[Action], v: MatchView) -> Action:
    """The heaviest play (points, then size; the first in legal order on a tie)."""
    best = max(plays, key=_PLAY_KEYS.__getitem__)
    # Only a Jack among the best plays can lose its place to what it brings back (any
    # other play keeps its points, every Jack play loses ≥ 1), so the full ranking runs
    # only then; its result is the same either way.
    if best in _JACK_PLAYS and v.rules.mandatory_powers:
        back = _jack_take_back(v)
        if back is not None:
            return max(plays, key=_net_keys(back).__getitem__)
    return best


def _jack_take_back(v: MatchView) -> int | None:
    """Points of the lightest card a Jack played now would have to take back (mandatory
    powers), from the newest non-empty packets within its reach; None if there is none."""
    back: int | None = None
    packets = 0
    reach = v.rules.jack_reach
    for packet in reversed(v.discard):
        if packets == reach:
            break
        if packet.cards:
            low = min(map(card_value, packet.cards))
            if back is None or low < back:
                back = low
            packets += 1
    return back


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
