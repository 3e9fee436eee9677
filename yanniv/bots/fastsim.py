"""A fast manche simulator for `difficile`'s playouts: plain ints and lists, no engine objects.

The engine copies a whole state per action (about 2 ms a manche); a search needs hundreds of
manches per decision, so this module replays the rules on a sampled world with cards as
their engine `key` (rank * 4 + suit index) and every seat played by a rollout policy that
follows moyen from what the table shows: the play that leaves the lightest hand as moyen
weighs it (part of what the rest can shed next turn, an 8's saved draw, a Jack's or a
Queen's better draw, small bonuses for a 7, a 6 or a King), small or pairing discards,
YANNIV at once, and Kings and 4s aimed as moyen aims them, never at the sampled hands (a
King on the caller or where a random card is expected lightest, a 4 for the rank most worth
its chance, counted from the cards not in sight). Measured on 30 games of four moyen
(`scripts/rollout_fidelity.py`: the policy's choice against moyen's in the same states):
plays agree 92.8 % (81.5 % for the heaviest combination it replaced,
`ROLLOUT_DUMP_WEIGHT` = 0), King targets 62 % (35 % for the lightest sampled hand it
replaced), 4 asks 35 % (14 % for the sampled hand's lowest rank, an ask that always paid).
Approximations, all rare or small: a Queen keeps the lowest card (the heaviest goes back on
top, for the next player), a Jack takes the lowest card in reach when it is small, 6s of
both colours impose the colour of the first one. The rules come from the world's `Ruleset`
(the match's): the YANNIV limit, the winner's bonus, the Jack's reach, mandatory powers (a
Jack always takes back, a Queen always draws; a 4 that would not pay asks a rank the target
lacks, which the policy models as no exchange; a King always swaps anyway), a card taken
from the previous packet put down at once, and the last lap played by every other seat once.
Which ranks carry a power is YANNIV's (`POWER`, a table by card key for speed), whatever the
ruleset's `power_ranks`.
"""

from __future__ import annotations

import random
from functools import lru_cache

from yanniv.engine.ruleset import YANNIV, Ruleset

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
#: Rollout plays: 0 for the heaviest combination, else `Sim.rollout_play` with this share
#: of what the rest of the hand can shed next turn.
ROLLOUT_DUMP_WEIGHT = 0.6
#: Expected points of the card a Queen keeps, by Queens played (the least of 2, 3, 4 draws).
QUEEN_KEEP = (6.5, 4.7, 3.7, 3.0)
#: Points a played 7, 6 or King is worth in a rollout's choice (moyen's bonuses, roughly).
ROLLOUT_POWER_BONUS = {7: 0.8, 6: 0.4, 13: 1.0}
#: Rollout Kings and 4s choose from what the table shows (`Sim.king_target`, `Sim.ask`), not
#: from the sampled hands (the lightest one, its lowest rank: a 4 that always pays).
ROLLOUT_PUBLIC_POWERS = True
#: A discard card is taken when its points, less its own plus one when it pairs a card in
#: hand, are below this.
ROLLOUT_TAKE_BELOW = 4
#: Mean points of a card nobody has seen (52 cards: 1-9 four each, 16 tens).
MEAN_CARD = 85 / 13


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


def _allowed(card: int, constraint: int) -> bool:
    if constraint == SEVEN:
        return VALUE[card] <= 7 and RANK[card] <= 7
    if constraint == SIX_RED:
        return RED[card]
    if constraint == SIX_BLACK:
        return not RED[card]
    return True


def best_play(hand: list[int], constraint: int) -> list[int]:
    """The heaviest legal combination (more cards on ties); [] when none is legal."""
    best: list[int] = []
    best_value = -1
    n = len(hand)
    seven = constraint == SEVEN
    i = 0
    while i < n:
        rank = RANK[hand[i]]
        j = i + 1
        while j < n and RANK[hand[j]] == rank:
            j += 1
        if not (seven and rank > 7):
            group = hand[i:j]
            if constraint in (FREE, SEVEN) or any(_allowed(c, constraint) for c in group):
                total = VALUE[hand[i]] * (j - i)
                if total > best_value or (total == best_value and j - i > len(best)):
                    best, best_value = group, total
        i = j
    if n >= 3:
        for suit in range(4):
            cards = [c for c in hand if c & 3 == suit and not (seven and RANK[c] > 7)]
            if len(cards) < 3 or (constraint in (SIX_RED, SIX_BLACK) and not _allowed(
                cards[0], constraint
            )):
                continue
            start = 0
            for k in range(1, len(cards) + 1):
                if k == len(cards) or RANK[cards[k]] != RANK[cards[k - 1]] + 1:
                    if k - start >= 3:
                        run = cards[start:k]
                        total = sum(VALUE[c] for c in run)
                        if total > best_value or (total == best_value and len(run) > len(best)):
                            best, best_value = run, total
                    start = k
    return best


def legal_plays(hand: list[int], constraint: int) -> list[list[int]]:
    """Every rank group played whole and every run of 3 cards or more (sub-runs included)
    that the constraint allows; `hand` sorted by key."""
    plays: list[list[int]] = []
    n = len(hand)
    seven = constraint == SEVEN
    colour = constraint in (SIX_RED, SIX_BLACK)
    i = 0
    while i < n:
        rank = RANK[hand[i]]
        j = i + 1
        while j < n and RANK[hand[j]] == rank:
            j += 1
        if not (seven and rank > 7):
            group = hand[i:j]
            if not colour or any(_allowed(c, constraint) for c in group):
                plays.append(group)
        i = j
    if n >= 3:
        for suit in range(4):
            cards = [c for c in hand if c & 3 == suit and not (seven and RANK[c] > 7)]
            if len(cards) < 3 or (colour and not _allowed(cards[0], constraint)):
                continue
            start = 0
            for k in range(1, len(cards) + 1):
                if k == len(cards) or RANK[cards[k]] != RANK[cards[k - 1]] + 1:
                    for a in range(start, k - 2):
                        for b in range(a + 3, k + 1):
                            plays.append(cards[a:b])
                    start = k
    return plays


def _extends(played: list[int], card: int) -> bool:
    """A pile card played at once: same rank as a set (or single), or prolonging the run."""
    rank = RANK[card]
    if all(RANK[c] == RANK[played[0]] for c in played):
        return rank == RANK[played[0]]
    if card & 3 != played[0] & 3:
        return False
    ranks = [RANK[c] for c in played]
    return rank == min(ranks) - 1 or rank == max(ranks) + 1


def _power(played: list[int]) -> tuple[int, int]:
    """(power rank, count) of a packet: sets use all their cards, runs one chosen power."""
    rank = RANK[played[0]]
    if all(RANK[c] == rank for c in played):
        return (rank, len(played)) if POWER[played[0]] else (0, 0)
    powers = [RANK[c] for c in played if POWER[c]]
    if not powers:
        return 0, 0
    return min(powers, key=PREFERENCE.__getitem__), 1


#: A combination of a hand: its cards, their positions' bit mask, its points, and whether
#: it is a set (a rank group, played whole) rather than a run.
Combo = tuple[list[int], int, int, bool]


def _combos(hand: list[int]) -> list[Combo]:
    """`legal_plays(hand, FREE)` with masks and points, in the same order."""
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


def _combo_allowed(combo: Combo, constraint: int) -> bool:
    """Whether a 7 or a 6 lets this combination be played (as `legal_plays` decides)."""
    cards, _, _, group = combo
    if constraint == SEVEN:
        return RANK[cards[-1]] <= 7
    if group:
        return any(_allowed(c, constraint) for c in cards)
    return _allowed(cards[0], constraint)


def _masks(combos: list[Combo]) -> list[tuple[int, int, bool]]:
    """Each combination's mask, then a set's points per card or a run's points."""
    return [(m, p // len(c) if g else p, g) for c, m, p, g in combos]


@lru_cache(maxsize=4096)
def _miss(unseen: int, m: int, u: int) -> float:
    """Chance that `u` cards dealt from `unseen` hold none of `m` given ones."""
    miss = 1.0
    for i in range(min(u, unseen)):
        miss *= max(0, unseen - m - i) / (unseen - i)
    return miss


def _power_bonus(w: World, power: int, count: int, draw: float) -> float:
    """What a played power is worth in a rollout's choice of play, in points: `draw` is
    what the normal draw is expected to add to the hand."""
    if power == 8:
        return draw
    if power == 12:
        return max(0.0, draw - QUEEN_KEEP[min(count, 3)])
    if power == 11:
        reach = w.rules.jack_reach - 1 + count
        low = draw
        for packet in reversed(w.packets):
            if reach <= 0:
                break
            if packet:
                for c in packet:
                    if VALUE[c] < low:
                        low = VALUE[c]
                reach -= 1
        return draw - low
    return ROLLOUT_POWER_BONUS.get(power, 0.0)


class Sim:
    """Plays worlds to the end of the manche; one per decision (owns its generator)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def rollout_play(self, w: World, hand: list[int], constraint: int) -> list[int]:
        """The rollout's play: the heaviest combination, or with `ROLLOUT_DUMP_WEIGHT` the
        one that leaves the lightest hand the way moyen weighs it (what the rest can shed
        next turn, an 8's saved draw, a Jack's or a Queen's better one, a 7 or 6 on the
        next player, a King's swap).

        The rest's best dump is read off the hand's own combinations as bit masks of its
        positions: a set that loses cards to the play is still a set, and a run of the
        rest is one of the hand's runs (every sub-run is listed) that the play does not
        touch."""
        if not ROLLOUT_DUMP_WEIGHT:
            return best_play(hand, constraint)
        combos = _combos(hand)
        plays = combos if constraint == FREE else [
            c for c in combos if _combo_allowed(c, constraint)
        ]
        if len(plays) <= 1:
            return list(plays[0][0]) if plays else []
        dump_weight = ROLLOUT_DUMP_WEIGHT if w.caller is None else 0.0
        draw = 6.5
        if w.prev is not None:
            for c in w.prev:
                if not POWER[c] and VALUE[c] < draw:
                    draw = VALUE[c]
        # No pair and no run (runs come last): the rest dumps its heaviest card.
        singles = len(combos) == len(hand) and combos[-1][3]
        if singles:
            top = max(range(len(hand)), key=lambda i: VALUE[hand[i]])
            first = VALUE[hand[top]]
            second = max((VALUE[c] for i, c in enumerate(hand) if i != top), default=0)
        else:
            masks = _masks(combos)
        best: list[int] = []
        best_score = -99.0
        for cards, taken, points, group in plays:
            if singles:
                dump = second if taken == 1 << top else first
            else:
                dump = 0
                for other, total, other_group in masks:
                    if other_group:
                        left = (other & ~taken).bit_count() * total
                        if left > dump:
                            dump = left
                    elif total > dump and not other & taken:
                        dump = total
            score = points + dump_weight * dump
            if group:
                if POWER[cards[0]]:
                    score += _power_bonus(w, RANK[cards[0]], len(cards), draw)
            else:
                power, count = _power(cards)
                if power:
                    score += _power_bonus(w, power, count, draw)
            if score > best_score or (score == best_score and len(cards) < len(best)):
                best, best_score = cards, score
        return list(best)

    def next_seat(self, w: World, seat: int) -> int:
        n = len(w.hands)
        candidate = seat
        for _ in range(n):
            candidate = (candidate + w.direction) % n
            if w.active[candidate]:
                return candidate
        return seat

    def pop(self, w: World) -> int | None:
        if not w.pile:
            cards = w.dead
            for packet in w.packets[:-1]:
                cards.extend(packet)
                packet.clear()
            if not cards:
                return None
            self.rng.shuffle(cards)
            w.pile = cards
            w.dead = []
        return w.pile.pop()

    def victim(self, w: World, seat: int) -> int | None:
        if w.caller is not None and w.caller != seat:
            return w.caller
        best = None
        low = 999
        for t in range(len(w.hands)):
            if t != seat and w.active[t]:
                points = hand_points(w.hands[t])
                if points < low:
                    best, low = t, points
        return best

    def draw(self, w: World, seat: int, played: list[int], power: int, count: int,
             take: int | None = None) -> None:
        """The draw step after `played` (or without playing when it is empty)."""
        hand = w.hands[seat]
        if power == 8:
            return
        if take is None:
            take = self.choose_take(w, hand, power, count, played)
        if take >= 0:
            previous = False
            for packet in w.packets:
                if take in packet:
                    previous = packet is w.prev
                    packet.remove(take)
                    break
            if previous and played and w.rules.play_taken_discard and _extends(played, take):
                played.append(take)
                return
            hand.append(take)
            hand.sort()
            return
        if take == QUEEN_DRAW:
            drawn = [c for c in (self.pop(w) for _ in range(count + 1)) if c is not None]
            if drawn:
                keep = min(drawn, key=VALUE.__getitem__)
                drawn.remove(keep)
                w.pile.extend(sorted(drawn, key=VALUE.__getitem__))  # the heaviest on top
                hand.append(keep)
                hand.sort()
            return
        card = self.pop(w)
        if card is None:
            return
        if played and _extends(played, card):
            played.append(card)
            return
        hand.append(card)
        hand.sort()

    def choose_take(
        self, w: World, hand: list[int], power: int, count: int, played: list[int] | None = None
    ) -> int:
        """A discard card worth taking (small, pairing one in hand, or put down at once with
        `played` under `play_taken_discard`), else the Queen's draw after a Queen, else the
        pile."""
        mandatory = w.rules.mandatory_powers
        if power == 12 and mandatory:
            return QUEEN_DRAW
        options = [c for c in w.prev if not POWER[c]] if w.prev is not None else []
        forced = False
        if power == 11:
            reach = w.rules.jack_reach - 1 + count
            if mandatory:
                options = []
            for packet in reversed(w.packets[:-1]):
                if reach <= 0:
                    break
                if packet:
                    options.extend(packet)
                    reach -= 1
            forced = mandatory and bool(options)
        best = None
        best_score = 999 if forced else ROLLOUT_TAKE_BELOW
        ranks = {RANK[c] for c in hand}
        at_once = played if played and w.rules.play_taken_discard and w.prev else None
        for card in options:
            v = VALUE[card]
            score = v - (v + 1 if RANK[card] in ranks else 0)
            if at_once is not None and card in w.prev and _extends(at_once, card):
                score = -2  # never reaches the hand
            if score < best_score:
                best, best_score = card, score
        if best is None:
            return QUEEN_DRAW if power == 12 else PILE
        return best

    def powers(self, w: World, seat: int, power: int, count: int) -> None:
        hand = w.hands[seat]
        if ROLLOUT_PUBLIC_POWERS and power in (4, 13):
            for _ in range(count):
                if not hand:
                    return
                if power == 13:
                    target = self.king_target(w, seat)
                    if target is None:
                        return
                    self.king_swap(w, seat, hand[-1], target)
                else:
                    ask = self.ask(w, seat)
                    if ask is None:
                        return
                    self.four_ask(w, seat, *ask)
            return
        if power == 13:
            for _ in range(count):
                target = self.victim(w, seat)
                if target is None or not hand:
                    return
                self.king_swap(w, seat, hand[-1], target)  # sorted by rank: the highest
        elif power == 4:
            for _ in range(count):
                target = self.victim(w, seat)
                if target is None or not hand or not w.hands[target]:
                    return
                low = min(w.hands[target], key=VALUE.__getitem__)
                if VALUE[hand[-1]] <= VALUE[low] and target != w.caller:
                    return  # declined, or (mandatory) a rank the target lacks: no exchange
                self.four_ask(w, seat, target, RANK[low])

    def king_target(self, w: World, seat: int) -> int | None:
        """moyen's King from what the table shows: the caller, else the opponent whose random
        card is expected lowest beside the card given (more cards dilute it towards the
        mean)."""
        if w.caller is not None and w.caller != seat:
            return w.caller
        give = VALUE[w.hands[seat][-1]]
        best, best_gain = None, -99.0
        for t in range(len(w.hands)):
            if t != seat and w.active[t] and w.hands[t]:
                n = len(w.hands[t])
                gain = give - (n * MEAN_CARD + give) / (n + 1)
                if gain > best_gain:
                    best, best_gain = t, gain
        return best

    def ask(self, w: World, seat: int) -> tuple[int, int] | None:
        """moyen's 4 from what the table shows: the (target, rank) most worth its chance,
        the chance counted from the cards of the rank not in sight (hand, discard); None
        when no ask pays (declined, or a mandatory ask the target cannot meet)."""
        hand = w.hands[seat]
        if not hand:
            return None
        heaviest = VALUE[max(hand, key=VALUE.__getitem__)]
        seen = [0] * 14
        for c in hand:
            seen[RANK[c]] += 1
        for packet in w.packets:
            for c in packet:
                seen[RANK[c]] += 1
        for c in w.dead:
            seen[RANK[c]] += 1
        unseen = len(w.pile) + sum(len(w.hands[t]) for t in range(len(w.hands)) if t != seat)
        best, best_score = None, 0.0
        for t in range(len(w.hands)):
            if t == seat or not w.active[t] or not w.hands[t]:
                continue
            u = len(w.hands[t])
            caller = 0.8 * heaviest if t == w.caller else 0.0
            for rank in range(1, 14):
                m = 4 - seen[rank]
                gain = (heaviest if rank == 4 else heaviest - min(rank, 10)) + caller
                if m <= 0 or gain <= 0:
                    continue
                score = (1.0 - _miss(unseen, m, u)) * gain
                if score > best_score:
                    best, best_score = (t, rank), score
        return best

    def king_swap(self, w: World, seat: int, give: int, target: int) -> None:
        """One King: `give` goes to `target`, who loses a card at random to `seat`."""
        hand, other = w.hands[seat], w.hands[target]
        hand.remove(give)
        other.append(give)
        taken = other.pop(self.rng.randrange(len(other)))
        other.sort()
        hand.append(taken)
        hand.sort()

    def four_ask(self, w: World, seat: int, target: int, rank: int) -> None:
        """One 4: `target` hands over a card of `rank` if he has one; `seat` gives back its
        heaviest card, then puts a received 4 down at once (as the rules allow)."""
        other = w.hands[target]
        card = next((c for c in other if RANK[c] == rank), None)
        if card is None:
            return
        hand = w.hands[seat]
        other.remove(card)
        hand.append(card)
        hand.sort()
        keep_four = rank == 4
        give = max((c for c in hand if not (keep_four and c == card)), key=VALUE.__getitem__,
                   default=card)
        hand.remove(give)
        other.append(give)
        other.sort()
        if keep_four and card in hand:
            hand.remove(card)
            if w.packets:
                w.packets[-1].append(card)
            else:
                w.dead.append(card)

    def end_powers(self, w: World, power: int, remaining: int) -> bool:
        """Finish `w.turn`'s turn after one power decision: the `remaining` powers of the
        same rank by the policy, then the next player; True when the manche is over."""
        seat = w.turn
        self.powers(w, seat, power, remaining)
        w.prev = w.packets[-1] if w.packets else None
        return self.end_turn(w, seat, 0, 0, FREE)

    def turn(
        self, w: World, play: list[int] | None = None, take: int | None = None,
        call: bool = False,
    ) -> bool:
        """Play `w.turn`'s turn (the policy's, or `call`, or `play` then `take`: a discard
        card, -1 for the pile); True when the manche is over."""
        seat = w.turn
        hand = w.hands[seat]
        constraint = w.constraint
        if play is None:
            call = call or (
                w.caller is None and constraint != SEVEN
                and hand_points(hand) <= w.rules.call_limit
            )
            if not call:
                play = self.rollout_play(w, hand, constraint)
        if call:
            w.caller = seat
            if w.rules.last_lap_each_once:
                w.lap = {t for t in range(len(w.hands)) if w.active[t] and t != seat}
            w.prev = None
            return self.end_turn(w, seat, 0, 0, 0)
        assert play is not None
        if not play:  # no legal play under a 6 or a 7, or an empty hand: draw without playing
            self.draw(w, seat, [], 0, 0, take)
            w.prev = None
            return self.end_turn(w, seat, 0, 0, 0)
        played = list(play)
        for card in played:
            hand.remove(card)
        power, count = _power(played)
        w.packets.append(played)
        if len(w.packets) > PACKETS:
            w.dead.extend(w.packets.pop(0))
        return self.after_play(w, played, power, count, take)

    def after_play(
        self, w: World, played: list[int], power: int, count: int, take: int | None = None
    ) -> bool:
        """The rest of `w.turn`'s turn once `played` (the newest packet) is down: draw
        (`take` as in `turn`), powers, then the next player; True when the manche is over."""
        seat = w.turn
        self.draw(w, seat, played, power, count, take)
        self.powers(w, seat, power, count)
        w.prev = played
        colour = FREE
        if power == 6:
            six = next(c for c in played if RANK[c] == 6)
            colour = SIX_RED if RED[six] else SIX_BLACK
        return self.end_turn(w, seat, power, count, colour)

    def end_turn(self, w: World, seat: int, power: int, count: int, colour: int) -> bool:
        if power == 9 and count % 2 == 1:
            w.direction = -w.direction
        if w.caller is not None and w.rules.last_lap_each_once:
            lap = w.lap
            lap.discard(seat)
            nxt = self.next_in(w, seat, lap) if lap else w.caller
        else:
            nxt = self.next_seat(w, seat)
        w.constraint = SEVEN if power == 7 else colour if power == 6 else FREE
        w.turn = nxt
        if w.caller == nxt:
            if hand_points(w.hands[nxt]) <= w.rules.call_limit:
                return True
            w.caller = None
        return False

    def next_in(self, w: World, seat: int, seats: set[int]) -> int:
        """The first of `seats` after `seat` in the direction of play."""
        n = len(w.hands)
        candidate = seat
        for _ in range(n):
            candidate = (candidate + w.direction) % n
            if candidate in seats:
                return candidate
        return seat

    def finish(self, w: World) -> bool:
        """Play on until the manche ends; False if it was cut (hands scored as they are)."""
        return any(self.turn(w) for _ in range(MAX_TURNS))


def deltas(w: World) -> list[int]:
    """Manche score changes as the engine counts them (the bonus for the single winner)."""
    seats = [t for t in range(len(w.hands)) if w.active[t]]
    points = [hand_points(h) for h in w.hands]
    low = min(points[t] for t in seats)
    best = [t for t in seats if points[t] == low]
    if len(best) > 1:
        fewest = min(len(w.hands[t]) for t in best)
        best = [t for t in best if len(w.hands[t]) == fewest]
    if len(best) > 1 and w.caller in best:
        best = [w.caller]
    result = [0] * len(w.hands)
    for t in seats:
        if len(best) == 1 and t == best[0]:
            result[t] = w.rules.winner_bonus
        elif t not in best:
            result[t] = points[t]
    return result
