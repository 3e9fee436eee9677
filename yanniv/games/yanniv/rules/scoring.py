"""End of a manche (scores, ties, who starts next) and end of the match (tiebreaks, ranking)."""

from __future__ import annotations

from yanniv.games.yanniv.rules.cards import hand_value
from yanniv.games.yanniv.rules.events import Event, MancheEnded, MatchEnded
from yanniv.games.yanniv.rules.state import MancheResult, MatchState


def manche_outcome(
    points: list[int], counts: list[int], participants: list[int], caller: int | None
) -> tuple[int | None, tuple[int, ...]]:
    """(winner, tied): the lowest hand wins; on equal points the fewest cards; then the
    YANNIV caller; otherwise nobody wins and the ex-aequo are returned in `tied`."""
    low = min(points[s] for s in participants)
    best = [s for s in participants if points[s] == low]
    if len(best) > 1:
        fewest = min(counts[s] for s in best)
        best = [s for s in best if counts[s] == fewest]
    if len(best) > 1 and caller in best:
        best = [caller]
    if len(best) == 1:
        return best[0], ()
    return None, tuple(best)


def end_manche(s: MatchState, events: list[Event]) -> None:
    """Score the manche in `s`, then deal the next one or finish the match."""
    from yanniv.games.yanniv.rules.setup import deal

    n = s.config.seats
    participants = [seat for seat in range(n) if s.active[seat]]
    points = [hand_value(hand) for hand in s.hands]
    counts = [len(hand) for hand in s.hands]
    caller = s.yanniv_caller
    winner, tied = manche_outcome(points, counts, participants, caller)
    deltas = [0] * n
    for seat in participants:
        if seat == winner:
            deltas[seat] = s.config.rules.winner_bonus
        elif seat not in tied:
            deltas[seat] = points[seat]
    totals = tuple(score + delta for score, delta in zip(s.scores, deltas, strict=True))
    result = MancheResult(
        manche=s.manche,
        tiebreak=s.tiebreak,
        caller=caller,
        hands=s.hands,
        points=tuple(points),
        deltas=tuple(deltas),
        winner=winner,
        tied=tied,
        participants=tuple(participants),
        totals=totals,
    )
    s.scores = totals
    s.manche_history = (*s.manche_history, result)
    s.last_result = result
    events.append(
        MancheEnded(
            manche=s.manche, tiebreak=s.tiebreak, caller=caller, hands=s.hands,
            points=tuple(points), deltas=tuple(deltas), winner=winner, tied=tied, totals=totals,
            participants=tuple(participants),
        )
    )
    # Who starts next: the winner; without one, the first ex-aequo from the caller onwards.
    if winner is not None:
        starter = winner
    else:
        origin = caller if caller is not None else s.turn
        starter = min(tied, key=lambda seat: (seat - origin) % n)
    low = min(totals)
    leaders = tuple(seat for seat in range(n) if totals[seat] == low)
    if s.manche < s.config.manches:
        deal(s, starter, tiebreak=False, participants=tuple(range(n)), events=events)
        return
    if len(leaders) > 1:
        if starter not in leaders:
            starter = min(leaders, key=lambda seat: (seat - starter) % n)
        deal(s, starter, tiebreak=True, participants=leaders, events=events)
        return
    s.finished = True
    s.pending = None
    s.ranking = tuple(sorted(range(n), key=lambda seat: (totals[seat], seat)))
    events.append(MatchEnded(totals=totals, ranking=s.ranking))
