"""Diagnostic: a tournament where difficile's sampled worlds are the true one.

    PYTHONPATH=. python bench/oracle_screen.py --hands-only --seed 101 --matches 600 \
        --policies difficile,moyen,moyen,moyen

It cheats on purpose, to measure what information is worth to the search: the opponents'
true unknown cards (and, without `--hands-only`, the pile's true order) replace the sampled
ones. Stop 12 measured, vs three moyen: true world 52.3% wins (gap -3.27 pt/manche), true
hands with the pile shuffled 33.7% (-1.29), honest 27.3% (-0.33). Every other argument is
`yanniv tournament`'s; workers are forked after the patch, so they see it.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable

import yanniv.games.yanniv.bots.search as search
import yanniv.tools.tournament as tournament
from yanniv.cli import main as yanniv_main
from yanniv.games.yanniv.bots.tracker import Tracker
from yanniv.games.yanniv.rules import view as engine_view
from yanniv.games.yanniv.rules.cards import Card
from yanniv.games.yanniv.rules.state import MatchState
from yanniv.games.yanniv.rules.view import MatchView

_TRUE: dict[str, MatchState] = {}


def _spy_view(state: MatchState, seat: int) -> MatchView:
    _TRUE["state"] = state
    return engine_view(state, seat)


Hidden = tuple[dict[int, list[Card]], list[Card]]


def _oracle(shuffle_pile: bool) -> Callable[[MatchView, Tracker | None, random.Random], Hidden]:
    def sample_hidden(v: MatchView, tracker: Tracker | None, rng: random.Random) -> Hidden:
        state = _TRUE["state"]
        hidden = {
            p.seat: [c for c in state.hands[p.seat] if c not in p.known_cards]
            for p in v.players if p.seat != v.viewer
        }
        rest = [c for c in state.pile if c not in v.pile_known]
        if shuffle_pile:
            rng.shuffle(rest)
        return hidden, rest

    return sample_hidden


def main(argv: list[str]) -> int:
    hands_only = "--hands-only" in argv
    tournament.view = _spy_view  # type: ignore[attr-defined]
    search.sample_hidden = _oracle(hands_only)  # type: ignore[attr-defined]
    return yanniv_main(["tournament", *(a for a in argv if a != "--hands-only")])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
