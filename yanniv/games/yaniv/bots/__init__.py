"""Computer players of classic Yaniv: `facile` and `moyen`, and the scripted policies of
`yanniv simulate`.

Each decides from its seat's view only (the hand, the public discard, the cards everybody
saw taken, card counts), deterministic for a seed; the work per decision is bounded by the
hand (at most the plays of 7 cards, each scored with one pass over the hand), not by time.

- facile: a beginner. Calls Yaniv as soon as it may, puts down its costliest single card or
  combination, takes a discard card only if it is worth 2 points or less.
- moyen: weighs each play with the draw that would follow (keep what builds a set or a
  run), and calls Yaniv only when its count is below what the others can plausibly hold;
  in a manche that has gone on too long (`PATIENCE`) it plays like facile.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from yanniv.games.yaniv.rules.cards import JOKER, YCard, hand_value
from yanniv.games.yaniv.rules.model import CallYaniv, DrawPile, MatchView, Play, TakeDiscard

#: Mean value of an unseen card (54-card deck: 340 points over 54 cards).
UNSEEN_MEAN = 340 / 54
#: How much of a hand's best multi-card shed `moyen` counts as already gone.
SHED_WEIGHT = 0.5
#: Packets on the discard per seat dealt after which `moyen` plays like `facile` (sheds its
#: costliest, draws from the pile, calls as soon as it may): weighing each play by the draw
#: after it, moyen tables could pass the same low cards back and forth for ever, each hand
#: kept at five cards and over 7 points (three moyen, seed "1/0", manche 11).
PATIENCE = 8


def _shed(hand: Iterable[YCard]) -> int:
    """Points the best set or joker-free run of `hand` would put down in one turn."""
    cards = [card for card in hand if card.rank != JOKER]
    best = 0
    for rank, count in Counter(card.rank for card in cards).items():
        if count >= 2:
            best = max(best, count * min(rank, 10))
    by_suit: dict[str, set[int]] = {}
    for card in cards:
        by_suit.setdefault(card.suit, set()).add(card.rank)
    for ranks in by_suit.values():
        run: list[int] = []
        for rank in range(1, 15):
            if rank in ranks:
                run.append(rank)
                continue
            if len(run) >= 3:
                best = max(best, sum(min(r, 10) for r in run))
            run = []
    return best


def _score(hand: Iterable[YCard]) -> float:
    """What `moyen` thinks a hand will cost: its points, less part of its next shed."""
    cards = tuple(hand)
    return hand_value(cards) - SHED_WEIGHT * _shed(cards)


def _without(hand: tuple[YCard, ...], cards: tuple[YCard, ...]) -> tuple[YCard, ...]:
    return tuple(card for card in hand if card not in cards)


def _opponent_floor(view: MatchView) -> float:
    """The lowest count `moyen` expects among the others: known cards plus a share per
    unseen card (a low share: an unseen card may be a joker or an Ace)."""
    floors = [
        hand_value(p.known_cards) + 2.0 * (p.card_count - len(p.known_cards))
        for p in view.players if p.seat != view.viewer and p.dealt
    ]
    return min(floors) if floors else 99.0


def _dealt(view: MatchView) -> int:
    return sum(1 for p in view.players if p.dealt)


class YanivBot:
    """One seat's computer player. Its memory is the view; `observe` keeps nothing more."""

    def __init__(self, level: str, seat: int, seed: str) -> None:
        self.level = level
        self.seat = seat
        self.rng = random.Random(f"{seed}/yaniv-{level}")

    def observe(self, events: Iterable[Any]) -> None:
        """The view already holds all a seat may know (the discard, known cards)."""

    def work_spent(self) -> None:
        """What `yanniv tournament` reports of a searching bot's work: these do not search."""
        return None

    def decide(self, view: MatchView) -> Any:
        legal = view.legal_actions
        choose = _moyen if self.level == "moyen" else _facile
        action = choose(view)
        return action if action in legal else legal[0]


def _facile(view: MatchView) -> Any:
    assert view.hand is not None and view.pending is not None
    legal = view.legal_actions
    if view.pending.kind == "turn":
        if CallYaniv() in legal:
            return CallYaniv()
        plays = [a for a in legal if isinstance(a, Play)]
        return max(plays, key=lambda p: (hand_value(p.cards), len(p.cards), p.cards))
    cheap = [a for a in legal if isinstance(a, TakeDiscard) and a.card.value <= 2]
    if cheap:
        return min(cheap, key=lambda a: (a.card.value, a.card))
    return DrawPile() if DrawPile() in legal else legal[0]


def _draw_value(rest: tuple[YCard, ...], takeable: tuple[YCard, ...],
                pile: bool) -> tuple[float, YCard | None]:
    """The best draw after a play leaving `rest`: a discard end (None: the pile)."""
    best: tuple[float, YCard | None] = (
        (_score(rest) + UNSEEN_MEAN, None) if pile else (float("inf"), None))
    for card in takeable:
        score = _score((*rest, card))
        if score < best[0]:
            best = (score, card)
    return best


def _moyen(view: MatchView) -> Any:
    assert view.hand is not None and view.pending is not None
    legal = view.legal_actions
    hand = view.hand
    if len(view.discard) >= PATIENCE * _dealt(view):
        return _facile(view)
    pile = view.pile_count > 0 or len(view.discard) > 1
    if view.pending.kind == "turn":
        value = hand_value(hand)
        if CallYaniv() in legal and (value <= 1 or value < _opponent_floor(view) - 1):
            return CallYaniv()
        plays = [a for a in legal if isinstance(a, Play)]
        return min(plays, key=lambda p: (
            _draw_value(_without(hand, p.cards), view.takeable, pile)[0], p.cards))
    draws = [a for a in legal if isinstance(a, TakeDiscard)]
    _, card = _draw_value(hand, tuple(a.card for a in draws), DrawPile() in legal)
    if card is None:
        return DrawPile() if DrawPile() in legal else legal[0]
    return TakeDiscard(card)


LEVELS = ("facile", "moyen")


def default_action(view: MatchView) -> Any:
    """What the timer plays for a seat out of time: the beginner's choice, from its view."""
    return _facile(view)


def scripted_policies() -> dict[str, Callable[[str], Callable[[MatchView], Any]]]:
    """`random` (any legal action) and `greedy` (the beginner), for `yanniv simulate`."""

    def random_policy(seed: str) -> Callable[[MatchView], Any]:
        rng = random.Random(f"{seed}/yaniv-random")
        return lambda view: rng.choice(view.legal_actions)

    def greedy(seed: str) -> Callable[[MatchView], Any]:
        return _facile

    return {"random": random_policy, "greedy": greedy}


def bot_delay(view: MatchView, rng: random.Random | None) -> float:
    """Seconds a bot seems to think: longer to choose what to put down than to draw (the
    server passes no generator: a pause is not part of the match, it need not replay)."""
    rng = rng or random.Random()
    if len(view.legal_actions) <= 1:
        return 0.4
    if view.pending is not None and view.pending.kind == "turn":
        return 1.0 + 1.5 * rng.random()
    return 0.6 + 0.8 * rng.random()
