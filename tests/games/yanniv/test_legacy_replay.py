"""Matches stored before the rule set replay identically under `LEGACY_YANNIV`.

`fixtures/legacy_replays.json` was written by `bench/legacy_replay_fixture.py` with the
code of commit 5faf87d (optional powers, one Skip for all uses, the last lap ended by the
turn's return): seeded random matches, with a digest of the state and of the events after
every action. The replay must give the same states at every step, and the same events but
for what this code adds to them (told apart below, so nothing else may differ): the
`participants` of `MancheEnded`, the `reason` of `PowerSkipped`, and the `PowerSkipped`
notices the old code did not send (a Jack or a Queen declined, a power that could not be
applied).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.legacy_replay_fixture import digest, state_digest
from tests.games.yanniv.oracle.wire_oracle import to_wire
from yanniv.games import get_game
from yanniv.games.yanniv.rules import IllegalActionError, MatchConfig, apply, start_match
from yanniv.games.yanniv.rules.cards import JACK, QUEEN
from yanniv.games.yanniv.rules.ruleset import LEGACY_YANNIV

GAME = get_game("yanniv")

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "legacy_replays.json").read_text())


def _as_old(events) -> list[dict]:  # type: ignore[no-untyped-def]
    """The events as the old code wrote them."""
    old = []
    for event in to_wire(list(events)):
        if event["type"] == "PowerSkipped":
            if event["reason"] != "declined" or event["rank"] in (JACK, QUEEN):
                continue
            del event["reason"]
        if event["type"] == "MancheEnded":
            del event["participants"]
        old.append(event)
    return old


@pytest.mark.parametrize("match", FIXTURE["matches"], ids=lambda m: m["seed"])
def test_legacy_logs_replay_identically_under_the_legacy_ruleset(match: dict) -> None:
    config = MatchConfig(seats=match["seats"], manches=match["manches"], rules=LEGACY_YANNIV)
    state, events = start_match(config, match["seed"])
    steps = match["steps"]
    assert (state_digest(state), digest(_as_old(events))) == tuple(steps[0].values())
    for index, data in enumerate(match["actions"], start=1):
        state, events = apply(state, GAME.decode_action(data).action)
        expected = steps[index]
        assert state_digest(state) == expected["state"], f"state differs at step {index}"
        assert digest(_as_old(events)) == expected["events"], f"events differ at step {index}"
    assert state.finished


def test_the_fixture_is_not_replayed_identically_under_todays_rules() -> None:
    """A check that can fail: today's rules (mandatory powers) refuse some old actions or
    reach other states, so the digests do tell rule sets apart."""
    differs = 0
    for match in FIXTURE["matches"]:
        state, _ = start_match(MatchConfig(seats=match["seats"], manches=match["manches"]),
                               match["seed"])
        try:
            for index, data in enumerate(match["actions"], start=1):
                state, _ = apply(state, GAME.decode_action(data).action)
                if state_digest(state) != match["steps"][index]["state"]:
                    differs += 1
                    break
        except IllegalActionError:
            differs += 1
    assert differs > 0
