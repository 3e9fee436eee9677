"""A Yaniv table set by hand (chosen hands, pile and previous packet) for scenario tests,
and a quick player for the tests that play whole matches over the wire."""

from __future__ import annotations

import random
from typing import Any

from yanniv.games.yaniv.rules import YanivConfig, start_match, ycards
from yanniv.games.yaniv.rules.model import Packet, Pending, YanivState


def table(*hands: str, pile: str = "KS KH KD", offer: str = "9C", turn: int = 0,
          scores: tuple[int, ...] | None = None, **config: object) -> YanivState:
    """Seat `turn` to play, `hands` by seat, the previous packet `offer` (laid in that
    order), `pile` with its top card last."""
    cfg = YanivConfig(seats=len(hands), first_player=turn, **config)  # type: ignore[arg-type]
    state, _ = start_match(cfg, "scenario")
    return state.evolve(
        hands=tuple(tuple(sorted(ycards(h))) for h in hands), pile=ycards(pile),
        discard=(Packet(None, ycards("2S")), Packet((turn - 1) % len(hands), ycards(offer))),
        offer=1, pending=Pending("turn", turn),
        scores=scores if scores is not None else (0,) * len(hands))


def quick_choice(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A player of wire actions who ends matches fast: Yaniv whenever it may, mostly its
    biggest play, else any action."""
    calls = [a for a in legal if a["type"] == "CallYaniv"]
    plays = [a for a in legal if a["type"] == "Play"]
    if calls:
        return calls[0]
    if plays and rng.random() < 0.8:
        return max(plays, key=lambda a: len(a["cards"]))
    return rng.choice(legal)
