"""What a seat may put down in classic Yaniv (a single card, a set of any size, a run of 3+ of
one suit from Ace to King, jokers wild in runs) and which cards of a packet the next seat may
take (its two ends). The forms themselves are the kit's (`yanniv.kit.combos`).
"""

from __future__ import annotations

from yanniv.games.yaniv.rules.cards import YCard
from yanniv.kit.combos import RunRule, ends, run_form, runs_in, set_form, sets_in

Cards = tuple[YCard, ...]

#: A run: three or more consecutive ranks of one suit, Ace low, King high.
RUN = RunRule(same_suit=True, lowest=1, highest=13, min_length=3)


def canonical_play(cards: Cards) -> Cards | None:
    """The packet `cards` (in the order given) form, in its one stored form; None if they
    form none (duplicates included)."""
    if not cards or len(set(cards)) != len(cards):
        return None
    if len(cards) == 1:
        return cards
    if len({card.rank for card in cards}) == 1:
        return set_form(cards)
    return run_form(cards, RUN)


def plays_of(hand: Cards) -> tuple[Cards, ...]:
    """Every packet `hand` can put down, each once, in its stored form."""
    return (*((card,) for card in hand), *sets_in(hand, largest=len(hand), jokers=True),
            *runs_in(hand, RUN))


__all__ = ["RUN", "canonical_play", "ends", "plays_of"]
