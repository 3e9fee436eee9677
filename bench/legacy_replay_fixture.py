"""Write tests/games/yanniv/fixtures/legacy_replays.json: seeded matches played by a random policy,
with a digest of the state and of the events after every action.

Run once at commit 5faf87d, before the rule set existed (optional powers, last lap checked
as soon as the turn is back to the caller), so the fixture records what that code did;
`tests/games/yanniv/test_legacy_replay.py` replays the same action logs under `LEGACY_YANNIV` and
compares. Running it again with today's code would only record today's code: do not.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

from tests.games.yanniv.oracle.wire_oracle import to_wire
from yanniv.games.yanniv.rules import MatchConfig, apply, legal_actions, start_match
from yanniv.games.yanniv.rules.actions import CallYanniv

OUT = (Path(__file__).resolve().parents[1] / "tests" / "games" / "yanniv" / "fixtures"
       / "legacy_replays.json")
STATE_FIELDS = (
    "manche", "tiebreak", "active", "starter", "hands", "pile", "discard", "prev_packet", "turn",
    "direction", "turn_constraint", "turn_packet", "turn_play", "turn_power", "turn_power_count",
    "turn_six_colour", "yanniv_caller", "pending", "scores", "finished", "ranking", "known",
    "pile_known",
)


def digest(value: object) -> str:
    text = json.dumps(to_wire(value), sort_keys=True, separators=(",", ":"))
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def state_digest(state) -> str:  # type: ignore[no-untyped-def]
    return digest([getattr(state, name) for name in STATE_FIELDS])


def play(seats: int, seed: str, manches: int) -> dict:
    rng = random.Random(seed)
    state, events = start_match(MatchConfig(seats=seats, manches=manches), seed)
    steps = [{"state": state_digest(state), "events": digest(list(events))}]
    actions = []
    while not state.finished and len(actions) < 3000:
        legal = legal_actions(state)
        call = CallYanniv() in legal and rng.random() < 0.6
        action = CallYanniv() if call else rng.choice(legal)
        state, events = apply(state, action)
        actions.append(to_wire(action))
        steps.append({"state": state_digest(state), "events": digest(list(events))})
    return {"seats": seats, "manches": manches, "seed": seed, "actions": actions, "steps": steps}


def main() -> None:
    matches = [play(n, f"legacy-{n}-{k}", 2) for n in (2, 3, 4) for k in range(3)]
    OUT.write_text(json.dumps({"matches": matches}, separators=(",", ":")) + "\n")
    print(OUT, sum(len(m["actions"]) for m in matches), "actions")


if __name__ == "__main__":
    main()
