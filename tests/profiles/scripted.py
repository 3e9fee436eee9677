"""Hand-written finished matches shared by the profiles tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from yanniv.profiles.identity import hash_secret
from yanniv.profiles.types import FinishedManche, FinishedMatch, FinishedPlayer

T0 = datetime(2024, 6, 1, 12, 0, tzinfo=UTC)
# Shaped like real `yanniv_owner` cookies (the server ignores malformed ones).
LEA, BOB, ZOE = "secret-of-lea-0123456", "secret-of-bob-0123456", "secret-of-zoe-0123456"


def manche(
    number: int,
    caller: int | None,
    caller_won: bool | None,
    winner: int | None,
    points: tuple[int, ...],
    deltas: tuple[int, ...],
    tiebreak: bool = False,
    participants: tuple[int, ...] | None = None,
) -> FinishedManche:
    """A manche; every seat took part unless `participants` says otherwise."""
    played = tuple(range(len(points))) if participants is None else participants
    return FinishedManche(number, tiebreak, caller, caller_won, winner, points, deltas, played)


def yanniv_config(seats: int, manches: int) -> dict[str, object]:
    """A stored YANNIV config (`Game.config_to_data`) for a scripted match."""
    return {"seats": seats, "manches": manches, "first_player": None,
            "rules": {"mandatory_powers": True, "play_taken_discard": False}}


def match(
    n: int,
    players: list[tuple[str, str | None] | tuple[str, str | None, bool]],
    manches: list[FinishedManche],
    ranking: tuple[int, ...],
    rated: bool = True,
) -> FinishedMatch:
    # Players are given by raw browser secret; the server hands profiles its hash.
    seats = tuple(
        FinishedPlayer(i, p[0], hash_secret(p[1]) if p[1] else None, *p[2:])
        for i, p in enumerate(players)
    )
    totals = tuple(sum(m.deltas[s] for m in manches) for s in range(len(players)))
    return FinishedMatch(
        room_code=f"R{n}",
        seed=str(n),
        game="yanniv",
        rules_version="yanniv-2",
        config=yanniv_config(len(players), len(manches)),
        started_at=T0 + timedelta(hours=n),
        finished_at=T0 + timedelta(hours=n, minutes=30),
        players=seats,
        manches=tuple(manches),
        totals=totals,
        ranking=ranking,
        rated=rated,
    )


# M1: Léa 3 (1st), Bob 46 (3rd), Zoé 7 (2nd).
M1 = match(
    1,
    [("Léa", LEA), ("Bob", BOB), ("Zoé", ZOE)],
    [
        manche(1, 0, True, 0, (3, 10, 12), (-5, 10, 12)),
        manche(2, 1, False, 2, (8, 6, 2), (8, 36, -5)),
    ],
    (0, 2, 1),
)
# M2: Bob 2 (1st), a bot 13 (3rd), "LÉA" (same profile, same browser) 10 (2nd).
M2 = match(
    2,
    [("Bob", BOB), ("Robot", None, True), ("LÉA", LEA)],
    [
        manche(1, 0, True, 0, (2, 9, 15), (-5, 9, 15)),
        manche(2, 2, True, 2, (7, 4, 1), (7, 4, -5)),
    ],
    (0, 2, 1),
)
# M3: Léa and Zoé tied at 0 after two manches; the tiebreak goes to Zoé (−5) over Léa (34).
M3 = match(
    3,
    [("Léa", LEA), ("Zoé", ZOE)],
    [
        manche(1, 0, True, 0, (1, 5), (-5, 5)),
        manche(2, 1, True, 1, (5, 0), (5, -5)),
        manche(3, 0, False, 1, (4, 3), (34, -5), tiebreak=True),
    ],
    (1, 0),
)
# M4: Bob and Zoé tied at 0, Léa 13 sits out the tiebreak; Zoé −5, Bob 6, Léa 13.
M4 = match(
    4,
    [("Bob", BOB), ("Zoé", ZOE), ("Léa", LEA)],
    [
        manche(1, 0, True, 0, (2, 5, 9), (-5, 5, 9)),
        manche(2, 1, True, 1, (5, 3, 4), (5, -5, 4)),
        manche(3, 1, True, 1, (6, 2, 0), (6, -5, 0), tiebreak=True, participants=(0, 1)),
    ],
    (1, 0, 2),
)
# Unrated: stored, but no profile moves.
UNRATED = match(
    5,
    [("Léa", LEA), ("Bob", BOB)],
    [manche(1, 0, True, 0, (1, 30), (-5, 30))],
    (0, 1),
    rated=False,
)
# Someone else's browser uses "bob": the seat is not linked, Bob's numbers do not move.
IMPOSTOR = match(
    6,
    [("Léa", LEA), ("bob", "secret-of-someone-else")],
    [manche(1, 1, True, 1, (9, 0), (9, -5))],
    (1, 0),
)
SCRIPT = [M1, M2, M3, M4, UNRATED, IMPOSTOR]

# Two more rated matches so that everybody reaches 5 rated matches (the leaderboard minimum).
M7 = match(
    7,
    [("Zoé", ZOE), ("Léa", LEA), ("Bob", BOB)],
    [manche(1, 1, True, 1, (4, 2, 8), (4, -5, 8))],
    (1, 0, 2),
)
M8 = match(
    8,
    [("Léa", LEA), ("Bob", BOB), ("Zoé", ZOE)],
    [manche(1, 2, True, 2, (6, 7, 3), (6, 7, -5))],
    (2, 0, 1),
)
