"""A fast manche simulator for `difficile`'s playouts: plain ints and lists, no engine objects.

The engine copies a whole state per action (about 2 ms a manche); a search needs hundreds of
manches per decision, so this module replays the rules on a sampled world with cards as
their engine `key` (rank * 4 + suit index) and every seat played by a rollout policy that
follows moyen from what the table shows: the play that leaves the lightest hand as moyen
weighs it (part of what the rest can shed next turn, an 8's saved draw, a Jack's or a
Queen's better draw, small bonuses for a 7, a 6 or a King), small or pairing discards,
YANNIV at once, and Kings and 4s aimed as moyen aims them, never at the sampled hands (a
King on the caller or where a random card is expected lightest, a 4 for the rank most worth
its chance, counted from the cards not in sight; the policy is `rollout`'s). Measured on 30
games of four moyen (`bench/rollout_fidelity.py`: the policy's choice against moyen's in
the same states): plays agree 92.8 % (81.5 % for the heaviest combination it replaced,
`rollout.ROLLOUT_DUMP_WEIGHT` = 0), King targets 62 % (35 % for the lightest sampled hand it
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

from yanniv.games.yanniv.bots import rollout
from yanniv.games.yanniv.bots.fastworld import (
    FREE,
    MAX_TURNS,
    PACKETS,
    PILE,
    POWER,
    PREFERENCE,
    QUEEN_DRAW,
    RANK,
    RED,
    SEVEN,
    SIX_BLACK,
    SIX_RED,
    VALUE,
    World,
    allowed,
    best_play,
    extends,
    hand_points,
    legal_plays,
    packet_power,
)

__all__ = [
    "FREE",
    "MAX_TURNS",
    "PACKETS",
    "PILE",
    "POWER",
    "PREFERENCE",
    "QUEEN_DRAW",
    "RANK",
    "RED",
    "SEVEN",
    "SIX_BLACK",
    "SIX_RED",
    "VALUE",
    "Sim",
    "World",
    "allowed",
    "best_play",
    "deltas",
    "extends",
    "hand_points",
    "legal_plays",
    "packet_power",
]


class Sim:
    """Plays worlds to the end of the manche; one per decision (owns its generator)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def rollout_play(self, w: World, hand: list[int], constraint: int) -> list[int]:
        """The rollout's play (`rollout.rollout_play`)."""
        return rollout.rollout_play(w, hand, constraint)

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
            if previous and played and w.rules.play_taken_discard and extends(played, take):
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
        if played and extends(played, card):
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
        best_score = 999 if forced else rollout.ROLLOUT_TAKE_BELOW
        ranks = {RANK[c] for c in hand}
        at_once = played if played and w.rules.play_taken_discard and w.prev else None
        for card in options:
            v = VALUE[card]
            score = v - (v + 1 if RANK[card] in ranks else 0)
            if at_once is not None and card in w.prev and extends(at_once, card):
                score = -2  # never reaches the hand
            if score < best_score:
                best, best_score = card, score
        if best is None:
            return QUEEN_DRAW if power == 12 else PILE
        return best

    def powers(self, w: World, seat: int, power: int, count: int) -> None:
        hand = w.hands[seat]
        if rollout.ROLLOUT_PUBLIC_POWERS and power in (4, 13):
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
        """The rollout King's target (`rollout.king_target`)."""
        return rollout.king_target(w, seat)

    def ask(self, w: World, seat: int) -> tuple[int, int] | None:
        """The rollout 4's (target, rank) (`rollout.ask`)."""
        return rollout.ask(w, seat)

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
        power, count = packet_power(played)
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
