"""Retry ids a live match keeps (`LiveMatch.acknowledged`): each seat's latest ones, however
many actions the other seats play meanwhile (a seat's client resends only its last action)."""

from __future__ import annotations

from datetime import UTC, datetime

from yanniv.server.rooms.room import SEEN_IDS, LiveMatch


def test_each_seat_keeps_its_own_latest_ids() -> None:
    match = LiveMatch(id=1, seed="s", config=None, state=None, rules_version="v",
                      pseudos=["a", "b"], started_at=datetime.now(UTC))
    fingerprint = bytes(range(16))
    match.acknowledged(1, "seat1-only", 1, fingerprint)
    for n in range(SEEN_IDS + 3):  # seat 0 plays many more actions than the bound
        match.acknowledged(0, f"id{n}", n + 2, b"f" * 16)
    assert match.acknowledgement(1, "seat1-only") == (1, fingerprint)  # untouched by seat 0
    assert match.acknowledgement(0, "seat1-only") is None  # the scope is the seat
    kept = [n for n in range(SEEN_IDS + 3) if match.acknowledgement(0, f"id{n}") is not None]
    assert kept == list(range(3, SEEN_IDS + 3))  # seat 0's newest SEEN_IDS, oldest forgotten
    assert match.acknowledgement(0, f"id{SEEN_IDS + 2}") == (SEEN_IDS + 4, b"f" * 16)
    assert match.retry_ids() == SEEN_IDS + 1


def test_seats_ten_and_one_do_not_share_ids() -> None:
    """Seat and id make one key: seat 1's "0:x" and seat 10's "x" stay apart."""
    match = LiveMatch(id=1, seed="s", config=None, state=None, rules_version="v",
                      pseudos=["a"] * 11, started_at=datetime.now(UTC))
    match.acknowledged(10, "x", 7, b"a" * 16)
    match.acknowledged(1, "0:x", 8, b"b" * 16)
    assert match.acknowledgement(10, "x") == (7, b"a" * 16)
    assert match.acknowledgement(1, "0:x") == (8, b"b" * 16)
    for n in range(SEEN_IDS):  # seat 1 fills its own ids: seat 10's stays
        match.acknowledged(1, f"n{n}", 9 + n, b"c" * 16)
    assert match.acknowledgement(10, "x") == (7, b"a" * 16)
    assert match.acknowledgement(1, "0:x") is None


def test_an_id_acknowledged_again_keeps_one_record_with_the_latest_version() -> None:
    match = LiveMatch(id=1, seed="s", config=None, state=None, rules_version="v",
                      pseudos=["a", "b"], started_at=datetime.now(UTC))
    match.acknowledged(0, "same", 3, b"a" * 16)
    match.acknowledged(0, "same", 5, b"b" * 16)
    assert match.acknowledgement(0, "same") == (5, b"b" * 16)
    assert match.retry_ids() == 1
