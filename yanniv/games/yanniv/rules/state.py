"""The state of a match: plain values, copied on every `apply` and never changed afterwards."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from yanniv.games.yanniv.rules.actions import DecisionKind
from yanniv.games.yanniv.rules.cards import Card, Colour
from yanniv.games.yanniv.rules.ruleset import YANNIV, Ruleset
from yanniv.kit.frozen import fast_init

Direction = Literal[1, -1]


@dataclass(frozen=True, slots=True)
class MatchConfig:
    """What the room decides before the start."""

    seats: int = 4
    manches: int = 6
    #: Seat that starts the first manche; None draws it from the match seed.
    first_player: int | None = None
    #: The rules the match is played under (constants and host options).
    rules: Ruleset = YANNIV

    def __post_init__(self) -> None:
        r = self.rules
        if not r.min_seats <= self.seats <= r.max_seats:
            raise ValueError(f"a match has {r.min_seats} to {r.max_seats} seats")
        if not r.min_manches <= self.manches <= r.max_manches:
            raise ValueError(f"a match has {r.min_manches} to {r.max_manches} manches")
        if self.first_player is not None and not 0 <= self.first_player < self.seats:
            raise ValueError("first_player must be a seat index")


@fast_init
@dataclass(frozen=True, slots=True)
class Packet:
    """Cards put on the discard in one turn; `seat` is None for the card flipped at the deal."""

    seat: int | None
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Constraint:
    """What a 6 or a 7 imposes on the next player."""

    kind: Literal["six", "seven"]
    colour: Colour | None = None


@fast_init
@dataclass(frozen=True, slots=True)
class Pending:
    """The decision that must be taken now, and by whom (not always the turn player)."""

    kind: DecisionKind
    seat: int
    #: choose_power: the power ranks to choose from.
    ranks: tuple[int, ...] = ()
    #: queen_keep: the cards drawn; play_drawn / four_play_received: the card that may be played.
    cards: tuple[Card, ...] = ()
    #: four_ask / king: how many uses of the power remain (this one included).
    remaining: int = 0
    #: four_give: the asker; four_exchange: the target.
    other: int | None = None
    #: four_give: the asked rank.
    rank: int | None = None


@dataclass(frozen=True, slots=True)
class MancheResult:
    """How a manche ended: every hand revealed, points and score changes."""

    manche: int
    tiebreak: bool
    caller: int | None
    hands: tuple[tuple[Card, ...], ...]
    points: tuple[int, ...]
    deltas: tuple[int, ...]
    #: The single winner (−5), or None when the ex-aequo all scored 0.
    winner: int | None
    tied: tuple[int, ...]
    participants: tuple[int, ...]
    totals: tuple[int, ...]


class MatchState:
    """Everything about a match. Treat as immutable: `apply` returns a fresh copy.

    A plain slotted class rather than a frozen dataclass because `apply` copies it on every
    action, and a shallow copy of a slotted object is several times cheaper than
    `dataclasses.replace`; every field holds an immutable value, so sharing is safe.
    """

    __slots__ = (
        "_legal",
        "active",
        "config",
        "deal_attempt",
        "direction",
        "discard",
        "finished",
        "hands",
        "known",
        "last_lap",
        "last_result",
        "manche",
        "manche_history",
        "pending",
        "pile",
        "pile_known",
        "prev_packet",
        "ranking",
        "scores",
        "seed",
        "starter",
        "step",
        "tiebreak",
        "turn",
        "turn_constraint",
        "turn_packet",
        "turn_play",
        "turn_power",
        "turn_power_count",
        "turn_six_colour",
        "yanniv_caller",
    )

    config: MatchConfig
    seed: int | str
    #: Number of actions applied since the start (the length of the action log).
    step: int
    manche: int
    tiebreak: bool
    deal_attempt: int
    active: tuple[bool, ...]
    starter: int
    hands: tuple[tuple[Card, ...], ...]
    #: Draw pile, top card last.
    pile: tuple[Card, ...]
    #: Discard packets, newest last.
    discard: tuple[Packet, ...]
    #: Index in `discard` of the packet played in the previous turn, if it is still there.
    prev_packet: int | None
    turn: int
    direction: Direction
    turn_constraint: Constraint | None
    turn_packet: int | None
    turn_play: tuple[Card, ...]
    turn_power: int | None
    turn_power_count: int
    turn_six_colour: Colour | None
    yanniv_caller: int | None
    #: After a YANNIV call, the seats that have not played their last turn yet (only under
    #: `rules.last_lap_each_once`; empty otherwise).
    last_lap: frozenset[int]
    pending: Pending | None
    scores: tuple[int, ...]
    manche_history: tuple[MancheResult, ...]
    last_result: MancheResult | None
    finished: bool
    ranking: tuple[int, ...]
    #: known[viewer][owner]: cards `viewer` knows to be in `owner`'s hand; the extra last
    #: row (index `seats`) is public knowledge, what a spectator knows.
    known: tuple[tuple[frozenset[Card], ...], ...]
    #: pile_known[viewer]: cards of the pile whose place `viewer` knows (put back with a Queen).
    pile_known: tuple[frozenset[Card], ...]
    _legal: tuple | None

    def copy(self) -> MatchState:
        """A shallow copy with the legal-actions memo cleared (replaced below by a generated
        straight-line copy of every slot)."""
        raise NotImplementedError

    @classmethod
    def blank(cls, config: MatchConfig, seed: int | str) -> MatchState:
        """A state with every field at its start value and nothing dealt yet."""
        n = config.seats
        s = cls.__new__(cls)
        s.config = config
        s.seed = seed
        s.step = 0
        s.manche = 0
        s.tiebreak = False
        s.deal_attempt = 0
        s.active = (True,) * n
        s.starter = 0
        s.hands = ((),) * n
        s.pile = ()
        s.discard = ()
        s.prev_packet = None
        s.turn = 0
        s.direction = 1
        s.turn_constraint = None
        s.clear_turn()
        s.yanniv_caller = None
        s.last_lap = frozenset()
        s.pending = None
        s.scores = (0,) * n
        s.manche_history = ()
        s.last_result = None
        s.finished = False
        s.ranking = ()
        empty: frozenset[Card] = frozenset()
        s.known = tuple(tuple(empty for _ in range(n)) for _ in range(n + 1))
        s.pile_known = (empty,) * n
        s._legal = None
        return s

    def clear_turn(self) -> None:
        """Forget what the turn that just ended put down and chose (only on a fresh copy)."""
        self.turn_packet = None
        self.turn_play = ()
        self.turn_power = None
        self.turn_power_count = 0
        self.turn_six_colour = None

    @property
    def seats(self) -> int:
        return self.config.seats

    @property
    def rules(self) -> Ruleset:
        return self.config.rules

    @property
    def pile_top(self) -> Card | None:
        """The pile's top card, the next one drawn (None when the pile is empty).

        The state is the whole truth, so this is secret information: for the engine's own
        tests and tools (a rigged draw, a replay check). `view` never shows it; what the
        players all see is `discard_top`.
        """
        return self.pile[-1] if self.pile else None

    @property
    def discard_top(self) -> Packet | None:
        """The newest packet on the discard (public), possibly emptied by a take."""
        return self.discard[-1] if self.discard else None

    @property
    def to_act(self) -> int | None:
        """The seat that must decide now (None once the match is over)."""
        return None if self.pending is None else self.pending.seat

    def signature(self) -> tuple:
        """Every field that matters, for equality checks in replay tests."""
        return tuple(getattr(self, name) for name in MatchState.__slots__ if name != "_legal")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MatchState) and self.signature() == other.signature()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<MatchState manche={self.manche} step={self.step} turn={self.turn} "
            f"pending={self.pending} finished={self.finished}>"
        )


def _make_copier():  # type: ignore[no-untyped-def]
    """Build `copy` as straight-line attribute copies: the hottest path of `apply`, one
    Python frame (no wrapper passing `object.__new__` in)."""
    names = [name for name in MatchState.__slots__ if name != "_legal"]
    body = "\n".join(f"    new.{name} = old.{name}" for name in names)
    source = f"def copy(old):\n    new = _new(MatchState)\n{body}\n"
    source += "    new._legal = None\n    return new\n"
    namespace: dict = {"MatchState": MatchState, "_new": object.__new__}
    exec(source, namespace)  # generated from the class's own slot names
    copy = namespace["copy"]
    copy.__qualname__ = "MatchState.copy"
    copy.__doc__ = MatchState.copy.__doc__
    return copy


MatchState.copy = _make_copier()  # type: ignore[method-assign]
