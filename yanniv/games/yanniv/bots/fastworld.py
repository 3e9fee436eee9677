"""The fast simulator's cards and world (`fastsim`, `rollout`): plain ints and lists.

A card is its engine `key` (rank * 4 + suit index); the tables below give its rank, points,
colour and whether it carries a power, by key, for speed. Which ranks carry a power is
YANNIV's (`POWER`), whatever the ruleset's `power_ranks`.
"""

from __future__ import annotations

from yanniv.games.yanniv.rules.ruleset import YANNIV, Ruleset

#: Per card key: rank, points, red or not, power or not.
RANK = [k >> 2 for k in range(56)]
VALUE = [min(k >> 2, 10) for k in range(56)]
RED = [(k & 3) in (1, 2) for k in range(56)]
POWER = [(k >> 2) in (4, 6, 7, 8, 9, 11, 12, 13) for k in range(56)]
#: Power applied when a run holds several (no draw first, then those that lower the hand).
PREFERENCE = {8: 0, 12: 1, 11: 2, 7: 3, 6: 4, 4: 5, 9: 6, 13: 7}
#: Constraint codes on the player to act.
FREE, SEVEN, SIX_RED, SIX_BLACK = 0, 7, 61, 62
#: Draw choices besides a discard card's key: the pile, or the Queen's draw.
PILE, QUEEN_DRAW = -1, -2
#: Newest discard packets kept apart (beyond any Jack's reach); older cards are only dead.
PACKETS = 6
MAX_TURNS = 120


class World:
    """One sampled manche in progress, from the start of `turn`'s turn."""

    __slots__ = (
        "active", "caller", "constraint", "dead", "direction", "hands", "lap", "packets",
        "pile", "prev", "rules", "turn",
    )

    def __init__(
        self, hands: list[list[int]], pile: list[int], packets: list[list[int]],
        dead: list[int], prev: list[int] | None, turn: int, direction: int,
        caller: int | None, constraint: int, active: list[bool],
        lap: set[int] | None = None, rules: Ruleset = YANNIV,
    ) -> None:
        self.hands = hands
        #: Top card last.
        self.pile = pile
        #: The newest discard packets, newest last (the Jack's reach); older cards in `dead`.
        self.packets = packets
        self.dead = dead
        #: The previous player's packet (None if he put none down).
        self.prev = prev
        self.turn = turn
        self.direction = direction
        self.caller = caller
        self.constraint = constraint
        self.active = active
        #: After a call under `rules.last_lap_each_once`: the seats still to play.
        self.lap = set(lap) if lap else set()
        self.rules = rules

    def copy(self) -> World:
        packets = [list(p) for p in self.packets]
        prev = None
        if self.prev is not None:
            prev = packets[-1] if self.packets and self.prev is self.packets[-1] else list(
                self.prev
            )
        return World(
            [list(h) for h in self.hands], list(self.pile), packets, list(self.dead), prev,
            self.turn, self.direction, self.caller, self.constraint, self.active,
            self.lap, self.rules,
        )


def hand_points(hand: list[int]) -> int:
    total = 0
    for card in hand:
        total += VALUE[card]
    return total


def allowed(card: int, constraint: int) -> bool:
    if constraint == SEVEN:
        return VALUE[card] <= 7 and RANK[card] <= 7
    if constraint == SIX_RED:
        return RED[card]
    if constraint == SIX_BLACK:
        return not RED[card]
    return True


#: A combination of a hand: its cards, their positions' bit mask, its points, and whether
#: it is a set (a rank group, played whole) rather than a run.
Combo = tuple[list[int], int, int, bool]


def combos(hand: list[int]) -> list[Combo]:
    """Every rank group played whole and every run of 3 cards or more (sub-runs included),
    with masks and points: groups by rank, then runs by suit and start; `hand` sorted by
    key."""
    out: list[Combo] = []
    n = len(hand)
    i = 0
    while i < n:
        rank = RANK[hand[i]]
        j = i + 1
        while j < n and RANK[hand[j]] == rank:
            j += 1
        out.append((hand[i:j], (1 << j) - (1 << i), VALUE[hand[i]] * (j - i), True))
        i = j
    if n >= 3:
        by_suit: list[list[int]] = [[], [], [], []]
        for pos, c in enumerate(hand):
            by_suit[c & 3].append(pos)
        for positions in by_suit:
            m = len(positions)
            if m < 3:
                continue
            start = 0
            for k in range(1, m + 1):
                if k == m or RANK[hand[positions[k]]] != RANK[hand[positions[k - 1]]] + 1:
                    for a in range(start, k - 2):
                        for b in range(a + 3, k + 1):
                            cards = [hand[p] for p in positions[a:b]]
                            mask = 0
                            for p in positions[a:b]:
                                mask |= 1 << p
                            out.append((cards, mask, sum(VALUE[c] for c in cards), False))
                    start = k
    return out


def combo_ok(combo: Combo, constraint: int) -> bool:
    """Whether a 7 or a 6 lets this combination be played (a 7: cards of 7 or less; a 6: a
    set holding a card of its colour, a run of it)."""
    cards, _, _, group = combo
    if constraint == SEVEN:
        return RANK[cards[-1]] <= 7
    if group:
        return any(allowed(c, constraint) for c in cards)
    return allowed(cards[0], constraint)


def legal_plays(hand: list[int], constraint: int) -> list[list[int]]:
    """Every rank group played whole and every run of 3 cards or more (sub-runs included)
    that the constraint allows; `hand` sorted by key."""
    return [c[0] for c in combos(hand) if constraint == FREE or combo_ok(c, constraint)]


def best_play(hand: list[int], constraint: int) -> list[int]:
    """The heaviest legal combination (more cards on ties, else the first listed); [] when
    none is legal."""
    best: list[int] = []
    best_key = (-1, 0)
    for combo in combos(hand):
        key = (combo[2], len(combo[0]))
        if key > best_key and (constraint == FREE or combo_ok(combo, constraint)):
            best, best_key = combo[0], key
    return best


def extends(played: list[int], card: int) -> bool:
    """A pile card played at once: same rank as a set (or single), or prolonging the run."""
    rank = RANK[card]
    if all(RANK[c] == RANK[played[0]] for c in played):
        return rank == RANK[played[0]]
    if card & 3 != played[0] & 3:
        return False
    ranks = [RANK[c] for c in played]
    return rank == min(ranks) - 1 or rank == max(ranks) + 1


def packet_power(played: list[int]) -> tuple[int, int]:
    """(power rank, count) of a packet: sets use all their cards, runs one chosen power."""
    rank = RANK[played[0]]
    if all(RANK[c] == rank for c in played):
        return (rank, len(played)) if POWER[played[0]] else (0, 0)
    powers = [RANK[c] for c in played if POWER[c]]
    if not powers:
        return 0, 0
    return min(powers, key=PREFERENCE.__getitem__), 1
