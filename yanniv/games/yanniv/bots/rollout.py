"""fastsim's rollout policy: every seat of a playout plays as moyen would, from what the
table shows (`fastsim` and `bench/rollout_fidelity.py` say how near it comes).

Plays weigh the hand they leave as moyen does (part of what the rest can shed next turn, an
8's saved draw, a Jack's or a Queen's better draw, small bonuses for a 7, a 6 or a King);
Kings and 4s are aimed from public information only, never at the sampled hands (a rollout
4 aimed at the sampled hand's lowest rank always paid, which made 4s look better than they
are for every seat). The constants are read at call time, so `bench/screen_bots.py` can
override them (`rollout.ROLLOUT_DUMP_WEIGHT=0` plays the heaviest combination).
"""

from __future__ import annotations

from functools import lru_cache

from yanniv.games.yanniv.bots.fastworld import (
    FREE,
    POWER,
    RANK,
    VALUE,
    Combo,
    World,
    best_play,
    combo_ok,
    combos,
    packet_power,
)

#: Rollout plays: 0 for the heaviest combination, else `rollout_play` with this share
#: of what the rest of the hand can shed next turn.
ROLLOUT_DUMP_WEIGHT = 0.6
#: Expected points of the card a Queen keeps, by Queens played (the least of 2, 3, 4 draws).
QUEEN_KEEP = (6.5, 4.7, 3.7, 3.0)
#: Points a played 7, 6 or King is worth in a rollout's choice (moyen's bonuses, roughly).
ROLLOUT_POWER_BONUS = {7: 0.8, 6: 0.4, 13: 1.0}
#: Rollout Kings and 4s choose from what the table shows (`king_target`, `ask`), not
#: from the sampled hands (the lightest one, its lowest rank: a 4 that always pays).
ROLLOUT_PUBLIC_POWERS = True
#: A discard card is taken when its points, less its own plus one when it pairs a card in
#: hand, are below this.
ROLLOUT_TAKE_BELOW = 4
#: Mean points of a card nobody has seen (52 cards: 1-9 four each, 16 tens).
MEAN_CARD = 85 / 13


def _masks(hand_combos: list[Combo]) -> list[tuple[int, int, bool]]:
    """Each combination's mask, then a set's points per card or a run's points."""
    return [(m, p // len(c) if g else p, g) for c, m, p, g in hand_combos]


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


def rollout_play(w: World, hand: list[int], constraint: int) -> list[int]:
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
    hand_combos = combos(hand)
    plays = hand_combos if constraint == FREE else [
        c for c in hand_combos if combo_ok(c, constraint)
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
    singles = len(hand_combos) == len(hand) and hand_combos[-1][3]
    if singles:
        top = max(range(len(hand)), key=lambda i: VALUE[hand[i]])
        first = VALUE[hand[top]]
        second = max((VALUE[c] for i, c in enumerate(hand) if i != top), default=0)
    else:
        masks = _masks(hand_combos)
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
            power, count = packet_power(cards)
            if power:
                score += _power_bonus(w, power, count, draw)
        if score > best_score or (score == best_score and len(cards) < len(best)):
            best, best_score = cards, score
    return list(best)


def king_target(w: World, seat: int) -> int | None:
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


def ask(w: World, seat: int) -> tuple[int, int] | None:
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
