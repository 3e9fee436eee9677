"""YANNIV's figures in `yanniv simulate`: the powers put to use and how calls went, tallied
from the events as they happen (the simulate loop counts every event by type and hands the
types of `NOTED` to `note`)."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

from yanniv.games.yanniv.rules.cards import Card
from yanniv.games.yanniv.rules.events import (
    FourAsked,
    KingSwapped,
    MancheEnded,
    Played,
    PowerChosen,
    QueenDrew,
    TurnStarted,
    YannivCalled,
    YannivChecked,
)
from yanniv.games.yanniv.rules.ruleset import YANNIV

POWER_NAMES = {4: "4", 6: "6", 7: "7", 8: "8", 9: "9", 11: "valet", 12: "dame", 13: "roi"}

#: The event types `note` looks into; every other one is only counted by type.
NOTED = frozenset({Played, PowerChosen, YannivChecked, MancheEnded})


def note(event: Any, kind: type, counts: Counter) -> None:
    """Tally what an event of a `NOTED` type tells: the powers put to use, failed calls."""
    if kind is Played:
        if not event.at_once:
            rank = _single_power(event.cards)
            if rank is not None:
                counts["power", rank] += 1
    elif kind is PowerChosen:
        counts["power", event.rank] += 1
    elif kind is YannivChecked:
        if not event.holds:
            counts["yanniv_failed"] += 1
    elif kind is MancheEnded and event.caller is not None and event.winner != event.caller:
        counts["caller_beaten"] += 1


def figures(counts: Counter, matches: int) -> dict[str, Any]:
    calls = counts[YannivCalled]
    return {
        "mean_turns_per_match": round(counts[TurnStarted] / matches, 2),
        "powers_played": {name: counts["power", rank] for rank, name in POWER_NAMES.items()},
        "powers_used": {
            "4_asks": counts[FourAsked],
            "roi_swaps": counts[KingSwapped],
            "dame_draws": counts[QueenDrew],
        },
        "yanniv_calls": calls,
        "yanniv_failed_check": counts["yanniv_failed"],
        "yanniv_caller_beaten": counts["caller_beaten"],
        "yanniv_failure_rate": round(
            (counts["yanniv_failed"] + counts["caller_beaten"]) / calls, 4
        ) if calls else 0.0,
    }


@lru_cache(maxsize=1024)
def _single_power(cards: tuple[Card, ...]) -> int | None:
    """The power a packet carries when it holds one power rank (several need a choice)."""
    ranks = {card.rank for card in cards if card.rank in YANNIV.power_ranks}
    return ranks.pop() if len(ranks) == 1 else None
