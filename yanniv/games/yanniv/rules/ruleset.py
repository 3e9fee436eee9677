"""The rule set of a match: every YANNIV constant and the host's rule options, in one value.

A `Ruleset` travels in `MatchConfig.rules`; the engine, the scoring and the bots read their
numbers from it, never from copies of their own. It is stored with a match
(`to_dict` / `ruleset_from_dict`), so a stored match replays under the rules it was played
with, whatever the defaults have become since (`RULES_VERSION` names this code's version).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

#: Version of the rules code: a stored match records it with its ruleset. "yanniv-1" was
#: optional powers and the last lap checked as soon as the turn came back to the caller.
RULES_VERSION = "yanniv-2"

#: The engine's tables (interned actions, shared pending decisions) cover this many seats.
ENGINE_MAX_SEATS = 4
#: Ranks that carry a power (★): 4, 6, 7, 8, 9, Jack (11), Queen (12), King (13). The engine
#: knows how to apply these and no others, so a ruleset may only name a subset of them.
KNOWN_POWERS = frozenset({4, 6, 7, 8, 9, 11, 12, 13})


@dataclass(frozen=True, slots=True)
class Ruleset:
    """Every rule constant of YANNIV, plus the options a host may change."""

    #: Cards dealt to each player.
    hand_size: int = 5
    #: A hand of this many points or fewer may call YANNIV (and holds the call).
    call_limit: int = 5
    #: How many packets below the Jack's own the first Jack reaches; each extra Jack adds one.
    jack_reach: int = 2
    #: Manche score of the single winner.
    winner_bonus: int = -5
    power_ranks: frozenset[int] = field(default=KNOWN_POWERS)
    min_seats: int = 2
    max_seats: int = ENGINE_MAX_SEATS
    min_manches: int = 1
    max_manches: int = 20
    #: Powers are orders (the rule book's imperatives): a played 4 must ask, a King must swap,
    #: a Jack must take back, a Queen must draw, whenever possible. Off: each may be declined.
    mandatory_powers: bool = True
    #: A card taken from the previous packet that matches or extends the play may be put
    #: down at once, like a card drawn from the pile.
    play_taken_discard: bool = False
    #: After YANNIV every other player plays exactly one last turn (a 9 changes their order,
    #: never who plays). Off (the "yanniv-1" code): the caller's hand is checked as soon as
    #: the turn comes back to him, so a 9 could end the last lap early.
    last_lap_each_once: bool = True
    #: With optional powers, declining (Skip) gives up one use of a 4 or a King, so a player
    #: with two Kings may decline the first swap and make the second. Off (the "yanniv-1"
    #: code): one Skip gave up every remaining use.
    decline_each_use: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.power_ranks, frozenset):
            object.__setattr__(self, "power_ranks", frozenset(self.power_ranks))
        if not self.power_ranks <= KNOWN_POWERS:
            raise ValueError("power_ranks may only name ranks whose power the engine applies")
        if not 2 <= self.min_seats <= self.max_seats <= ENGINE_MAX_SEATS:
            raise ValueError(f"seats must lie within 2..{ENGINE_MAX_SEATS}")
        if not 1 <= self.min_manches <= self.max_manches:
            raise ValueError("min_manches must be at least 1 and at most max_manches")
        if self.hand_size < 1 or self.jack_reach < 1 or self.call_limit < 0:
            raise ValueError("hand_size and jack_reach must be positive, call_limit not negative")
        if self.hand_size * self.max_seats >= 52:
            raise ValueError("the deck must keep a pile after the deal")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the two host options always, other fields only where they differ from
        the default. `ruleset_from_dict(r.to_dict()) == r` for every ruleset."""
        data: dict[str, Any] = {
            "mandatory_powers": self.mandatory_powers,
            "play_taken_discard": self.play_taken_discard,
        }
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name not in data and value != f.default:
                data[f.name] = sorted(value) if isinstance(value, frozenset) else value
        return data


_FIELDS = {f.name for f in fields(Ruleset)}


def ruleset_from_dict(data: dict[str, Any]) -> Ruleset:
    """The ruleset `Ruleset.to_dict` wrote (unknown keys are refused, not ignored: a stored
    match must not silently replay under other rules)."""
    unknown = set(data) - _FIELDS
    if unknown:
        raise ValueError(f"unknown ruleset fields: {sorted(unknown)}")
    values = dict(data)
    if "power_ranks" in values:
        values["power_ranks"] = frozenset(values["power_ranks"])
    return Ruleset(**values)


#: Today's rules.
YANNIV = Ruleset()
#: The rules of the "yanniv-1" code (optional powers, one Skip for all uses, last lap ended
#: by the turn's return), under which the matches stored before the rule set were played.
LEGACY_YANNIV = Ruleset(mandatory_powers=False, last_lap_each_once=False, decline_each_use=False)
