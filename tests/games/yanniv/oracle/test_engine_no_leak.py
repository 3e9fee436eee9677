"""The independent knowledge model over thousands of random engine matches: no message a
recipient would be sent names a card it may not know (see oracle/knowledge_model.py)."""

from __future__ import annotations

import pytest

from tests.games.yanniv.oracle.knowledge_model import Checker
from tests.games.yanniv.oracle.play import engine_match

CHUNKS = 8
MATCHES_PER_CHUNK = 250  # 2,000 matches in all


def leaks_in_match(seed: int, seats: int, manches: int) -> list[str]:
    checker = Checker(seats)
    found: list[str] = []
    for step in engine_match(seed, seats, manches):
        knew = {r: checker.pile_knowledge(r) for r in step.sent}
        for event in step.events:
            checker.model.follow(event, step.before, step.after)
        for recipient, (view, events) in step.sent.items():
            problems = checker.check_view(recipient, view, step.after)
            problems += checker.check_events(recipient, events, step.events, knew[recipient])
            found += [f"step {view['step']} seat {recipient}: {p}" for p in problems]
    return found


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_no_message_names_a_card_its_recipient_may_not_know(chunk: int) -> None:
    leaking: list[str] = []
    for n in range(MATCHES_PER_CHUNK):
        seed = 7_000_000 + chunk * MATCHES_PER_CHUNK + n
        seats = 2 + n % 3
        leaks = leaks_in_match(seed, seats, manches=1 + n % 2)
        if leaks:
            leaking.append(f"seed {seed}, {seats} seats: {leaks[0]} (+{len(leaks) - 1})")
    assert not leaking, f"{len(leaking)} of {MATCHES_PER_CHUNK} matches leak:\n" + "\n".join(
        leaking[:10])
