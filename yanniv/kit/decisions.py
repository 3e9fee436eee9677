"""Who may act now: the decisions a game opens for a state (boardgame.io's `activePlayers`).

A game says, for each state, which decisions are open. Each belongs to one seat and has a kind
(the game's own word: "turn", "box", "spontanus"). A *required* decision is one the match
waits for: it has a clock and, when that runs out, the game's default action. An *optional*
one is a reaction a seat may make or let pass (a Spontanus), with no clock. A *concurrent*
decision stays open when another seat acts (a reaction does not take the turn player's draw
away); otherwise any other seat's action supersedes it. A *hidden* one is a simultaneous
choice: what the seat chose is kept from the others until all are in.

`key` tells one decision from the next of the same seat: while it is equal, an action the
seat's client prepared against an older version is still about the same decision, so it is
judged on its legality, not refused as stale.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from enum import StrEnum


class Dynamics(StrEnum):
    """How a game's decisions come: one seat at a time, with out-of-turn reactions, or
    several seats deciding at once. The server and the client may ask; neither needs to."""

    SEQUENTIAL = "sequential"
    REACTIONS = "reactions"
    SIMULTANEOUS = "simultaneous"


@dataclass(frozen=True, slots=True)
class Decision:
    seat: int
    kind: str
    key: Hashable
    required: bool = True
    concurrent: bool = False
    hidden: bool = False


def seats_of(decisions: tuple[Decision, ...]) -> tuple[int, ...]:
    """The seats that have an open decision, in seat order, each once."""
    return tuple(sorted({decision.seat for decision in decisions}))


def decision_of(decisions: tuple[Decision, ...], seat: int) -> Decision | None:
    """The open decision of `seat` (a game opens at most one per seat), or None."""
    for decision in decisions:
        if decision.seat == seat:
            return decision
    return None
