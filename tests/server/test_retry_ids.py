"""Retry ids a live match keeps (`LiveMatch.acknowledged`): each seat's latest ones, however
many actions the other seats play meanwhile (a seat's client resends only its last action)."""

from __future__ import annotations

from datetime import UTC, datetime

from yanniv.server.room import SEEN_IDS, LiveMatch


def test_each_seat_keeps_its_own_latest_ids() -> None:
    match = LiveMatch(id=1, seed="s", config=None, state=None, rules_version="v",
                      pseudos=["a", "b"], started_at=datetime.now(UTC))
    match.acknowledged(1, "seat1-only", 1, b"f1")
    for n in range(SEEN_IDS + 3):  # seat 0 plays many more actions than the bound
        match.acknowledged(0, f"id{n}", n + 2, b"f")
    assert match.seen[(1, "seat1-only")] == (1, b"f1")  # untouched by seat 0's actions
    kept = sorted(int(cid[2:]) for seat, cid in match.seen if seat == 0)
    assert kept == list(range(3, SEEN_IDS + 3))  # seat 0's newest SEEN_IDS, oldest forgotten
    assert len(match.seen) == SEEN_IDS + 1
