"""Random complete matches for the leak oracle: a policy that seeks Queens, 4s and Kings, and
the engine-side runner that yields what each recipient was sent after every action."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from tests.games.yanniv.oracle.knowledge_model import Truth

#: Actions the leak needs (two Queens in a manche) or that move cards privately.
_EAGER = {"UseQueen": 0.95, "AskFour": 0.85, "KingSwap": 0.85, "CallYanniv": 0.5}


def choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Pick among wire-form legal actions, putting down Queens (alone, to keep them coming)
    and using every power far more often than a random player would."""
    queens = [a for a in legal if a["type"] == "Play" and any(c[0] == "Q" for c in a["cards"])]
    if queens and rng.random() < 0.8:
        return rng.choice(queens)
    for kind, share in _EAGER.items():
        options = [a for a in legal if a["type"] == kind]
        if options and rng.random() < share:
            return rng.choice(options)
    return rng.choice(legal)


def truth_of(state: Any) -> Truth:
    """The true card positions of an engine state, as codes (read straight off the state)."""
    pending = state.pending
    return Truth(
        hands=[[c.code for c in hand] for hand in state.hands],
        pile=[c.code for c in reversed(state.pile)],
        discard={c.code for packet in state.discard for c in packet.cards},
        pending_seat=None if pending is None else pending.seat,
        pending_kind=None if pending is None else pending.kind,
        pending_cards=[] if pending is None else [c.code for c in pending.cards],
    )


@dataclass
class Step:
    before: Truth
    after: Truth
    #: The events of this action, unredacted, as wire dicts (the truth).
    events: list[dict[str, Any]]
    #: recipient (seat index or None) -> (view, events) exactly as the server encodes them.
    sent: dict[int | None, tuple[dict[str, Any], list[dict[str, Any]]]]


def engine_match(seed: int, seats: int, manches: int, max_actions: int = 20_000) -> Iterator[Step]:
    """Play one match through the engine, encoding every recipient's message with the server's
    own encoders (what a socket would carry)."""
    from tests.games.yanniv.oracle.wire_oracle import to_wire
    from yanniv.games import get_game
    from yanniv.games.yanniv.rules import MatchConfig, apply, legal_actions, start_match, view

    game = get_game("yanniv")

    rng = random.Random(seed)
    state, events = start_match(MatchConfig(seats=seats, manches=manches), seed)
    encoder = game.view_encoder()
    recipients: list[int | None] = [*range(seats), None]
    before = truth_of(state)
    for _ in range(max_actions):
        after = truth_of(state)
        yield Step(
            before, after, [to_wire(e) for e in events],
            {r: (encoder.view(view(state, r)), game.encode_events(events, r)) for r in recipients},
        )
        if state.finished:
            return
        action = choose([to_wire(a) for a in legal_actions(state)], rng)
        before = after
        state, events = apply(state, game.decode_action(action).action)
    raise AssertionError("the match did not end")
