"""Statistics and ratings after scripted matches equal values worked out by hand."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tests.profiles import scripted as S
from yanniv.profiles.leaderboard import leaderboard
from yanniv.profiles.models import FinishedMatchPlayer, FinishedMatchRow, Profile
from yanniv.profiles.record import record_finished_match
from yanniv.profiles.schemas import ProfileGameOut, ProfileOut
from yanniv.profiles.stats import match_detail, profile_stats


def yanniv_of(profile: ProfileOut) -> ProfileGameOut:
    """The profile's statistics in YANNIV, the only game the scripted matches play."""
    assert [g.game for g in profile.games] == ["yanniv"]
    return profile.games[0]


def record_all(session: Session, matches: list) -> list[int]:
    ids = []
    for m in matches:
        ids.append(record_finished_match(session, m))
        session.commit()
    return ids


def test_statistics_match_hand_computed_values(session: Session) -> None:
    ids = record_all(session, S.SCRIPT)

    lea = profile_stats(session, "léa", S.LEA)
    assert lea is not None
    lea_g = yanniv_of(lea)
    # Matches: M1 1st, M2 2nd, M3 2nd, M4 3rd, IMPOSTOR 2nd (the unrated one does not count).
    assert (lea_g.matches_played, lea_g.matches_won) == (5, 1)
    assert lea_g.win_rate == pytest.approx(1 / 5)
    # Manches played: 2 + 2 + 3 (both tied players play the tiebreak) + 2 (sat out) + 1 = 10.
    assert lea_g.manches_played == 10
    # Won: M1 m1, M2 m2, M3 m1.
    assert lea_g.manches_won == 3
    # Score changes: (−5+8) + (15−5) + (−5+5+34) + (9+4) + 9 = 69.
    assert lea_g.mean_points_per_manche == pytest.approx(69 / 10)
    # Calls: M1 m1 ✓, M2 m2 ✓, M3 m1 ✓ and m3 ✗.
    assert (lea_g.calls, lea_g.calls_won) == (4, 3)
    assert lea_g.call_success_rate == pytest.approx(3 / 4)
    assert lea_g.best_total == 3
    assert lea.owned is True
    assert lea.pseudo == "Léa"

    bob = profile_stats(session, "BOB")
    assert bob is not None
    bob_g = yanniv_of(bob)
    # M1 3rd, M2 1st, M4 2nd; the impostor's "bob" seat is not his.
    assert (bob_g.matches_played, bob_g.matches_won) == (3, 1)
    assert bob_g.manches_played == 2 + 2 + 3
    assert bob_g.manches_won == 2  # M2 m1, M4 m1
    assert bob_g.mean_points_per_manche == pytest.approx(
        (10 + 36 - 5 + 7 - 5 + 5 + 6) / 7, abs=1e-3
    )
    assert (bob_g.calls, bob_g.calls_won) == (3, 2)
    assert bob_g.best_total == 2
    assert bob.owned is False

    zoe = profile_stats(session, "zoé")
    assert zoe is not None
    zoe_g = yanniv_of(zoe)
    assert (zoe_g.matches_played, zoe_g.matches_won) == (3, 2)
    assert zoe_g.manches_played == 2 + 3 + 3
    assert zoe_g.manches_won == 1 + 2 + 2
    assert zoe_g.mean_points_per_manche == pytest.approx(
        (12 - 5 + 5 - 5 - 5 + 5 - 5 - 5) / 8, abs=1e-3
    )
    assert (zoe_g.calls, zoe_g.calls_won) == (3, 3)
    assert zoe_g.best_total == -5

    # Last matches, newest first, each with every player, linking to the match page.
    assert [m.id for m in lea.last_matches] == [ids[5], ids[3], ids[2], ids[1], ids[0]]
    first = lea.last_matches[-1]
    assert first.url == f"/match/{ids[0]}"
    assert [(p.pseudo, p.total, p.rank) for p in first.players] == [
        ("Léa", 3, 1),
        ("Zoé", 7, 2),
        ("Bob", 46, 3),
    ]
    impostor_seat = lea.last_matches[0].players[0]
    assert (impostor_seat.pseudo, impostor_seat.profile_url) == ("bob", None)
    assert [m.id for m in bob.last_matches] == [ids[3], ids[1], ids[0]]

    # The unrated match is stored for its page, with no profile attached.
    assert session.get(FinishedMatchRow, ids[4]).rated is False
    linked = session.execute(
        select(func.count()).where(
            FinishedMatchPlayer.match_id == ids[4], FinishedMatchPlayer.profile_id.is_not(None)
        )
    ).scalar_one()
    assert linked == 0
    # No profile for the bot.
    assert session.execute(select(func.count()).select_from(Profile)).scalar_one() == 3


def test_match_detail_has_the_score_sheet(session: Session) -> None:
    [_, _, _, m4] = record_all(session, S.SCRIPT[:4])
    detail = match_detail(session, m4)
    assert detail is not None
    assert [(p.pseudo, p.total, p.rank) for p in detail.players] == [
        ("Zoé", -5, 1),
        ("Bob", 6, 2),
        ("Léa", 13, 3),
    ]
    assert [m.totals for m in detail.manches] == [[-5, 5, 9], [0, 0, 13], [6, -5, 13]]
    tiebreak = detail.manches[2]
    assert tiebreak.tiebreak and tiebreak.played == [True, True, False]
    assert (tiebreak.caller, tiebreak.caller_won, tiebreak.winner) == (1, True, 1)
    assert match_detail(session, 999_999) is None


def expected_ratings() -> dict[str, tuple[float, float]]:
    """The same matches fed straight to openskill (bots and the impostor left out)."""
    model = PlackettLuce()
    r = {name: model.rating() for name in ("lea", "bob", "zoe")}

    def play(names: list[str], ranks: list[int]) -> None:
        new = model.rate([[r[n]] for n in names], ranks=ranks)
        for n, team in zip(names, new, strict=True):
            r[n] = team[0]

    play(["lea", "bob", "zoe"], [1, 3, 2])  # M1
    play(["bob", "lea"], [1, 2])  # M2 (the bot is not rated)
    play(["lea", "zoe"], [2, 1])  # M3
    play(["bob", "zoe", "lea"], [2, 1, 3])  # M4
    play(["zoe", "lea", "bob"], [2, 1, 3])  # M7
    play(["lea", "bob", "zoe"], [2, 3, 1])  # M8
    return {n: (x.mu, x.sigma, x.ordinal()) for n, x in r.items()}


def test_ratings_and_leaderboard(session: Session) -> None:
    record_all(session, S.SCRIPT)
    # Nobody has 5 rated matches but Léa (5, the impostor match counts for her).
    board = leaderboard(session, "rating")
    assert [e.pseudo for e in board.entries] == ["Léa"]
    record_all(session, [S.M7, S.M8])

    expected = expected_ratings()
    got = {}
    for name, pseudo in (("lea", "Léa"), ("bob", "Bob"), ("zoe", "Zoé")):
        p = profile_stats(session, pseudo)
        assert p is not None
        got[name] = p
        mu, sigma, ordinal = expected[name]
        assert yanniv_of(p).rating.mu == pytest.approx(mu, abs=1e-3)
        assert yanniv_of(p).rating.sigma == pytest.approx(sigma, abs=1e-3)
        assert yanniv_of(p).rating.ordinal == pytest.approx(ordinal, abs=1e-3)
        assert yanniv_of(p).rating.display == f"{mu:.1f} ± {3 * sigma:.1f}"

    by_rating = sorted(expected, key=lambda n: -expected[n][2])
    board = leaderboard(session, "rating")
    names = {"lea": "Léa", "bob": "Bob", "zoe": "Zoé"}
    assert [e.pseudo for e in board.entries] == [names[n] for n in by_rating]
    assert [e.position for e in board.entries] == [1, 2, 3]
    assert board.total == 3 and board.pages == 1 and board.min_matches == 5
    for position, n in enumerate(by_rating, 1):
        assert yanniv_of(got[n]).leaderboard_position == position

    # Wins: Zoé 2 + M8 = 3, Léa 1 + M7 = 2, Bob 1 → Zoé, Léa, Bob.
    assert [(e.pseudo, e.matches_won) for e in leaderboard(session, "wins").entries] == [
        ("Zoé", 3),
        ("Léa", 2),
        ("Bob", 1),
    ]
    # Matches: Léa 7, then Bob 5 and Zoé 5 (equal: the older profile first).
    assert [(e.pseudo, e.matches_played) for e in leaderboard(session, "matches").entries] == [
        ("Léa", 7),
        ("Bob", 5),
        ("Zoé", 5),
    ]


def test_leaderboard_pagination(session: Session) -> None:
    record_all(session, [*S.SCRIPT, S.M7, S.M8])
    pages = [leaderboard(session, "matches", page, per_page=2) for page in (1, 2, 3)]
    assert [[e.pseudo for e in p.entries] for p in pages] == [["Léa", "Bob"], ["Zoé"], []]
    assert pages[1].entries[0].position == 3
    assert pages[0].pages == 2 and pages[0].total == 3


def test_each_game_has_its_own_rating_statistics_and_leaderboard(session: Session) -> None:
    """A match of another game starts that game's rating from scratch and leaves YANNIV's."""
    record_all(session, S.SCRIPT)
    before = yanniv_of(profile_stats(session, "Léa"))
    later = max(m.finished_at for m in S.SCRIPT) + timedelta(days=1)
    record_all(session, [dataclasses.replace(S.M1, game="classic", rules_version="classic-1",
                                             started_at=later, finished_at=later)])

    lea = profile_stats(session, "Léa")
    assert lea is not None
    assert [g.game for g in lea.games] == ["yanniv", "classic"]  # registry order, then by id
    assert lea.games[0] == before
    classic = lea.games[1]
    assert (classic.matches_played, classic.matches_won, classic.best_total) == (1, 1, 3)
    assert classic.name_fr == classic.name_en == "classic"  # not a registered game
    assert classic.leaderboard_position is None
    # M1 (Léa 1st, Bob 3rd, Zoé 2nd) from three fresh ratings, straight through openskill.
    model = PlackettLuce()
    fresh = model.rate([[model.rating()] for _ in range(3)], ranks=[1, 3, 2])
    assert classic.rating.mu == pytest.approx(fresh[0][0].mu, abs=1e-3)
    assert classic.rating.sigma == pytest.approx(fresh[0][0].sigma, abs=1e-3)
    assert lea.last_matches[0].game == "classic" and lea.last_matches[1].game == "yanniv"

    board = leaderboard(session, "wins", game="classic")
    assert board.game == "classic" and board.total == 3 and board.pages == 1
    assert [(e.pseudo, e.matches_won, e.matches_played) for e in board.entries] == [
        ("Léa", 1, 1), ("Bob", 0, 1), ("Zoé", 0, 1)
    ]
    assert leaderboard(session, "rating", game="classic").entries == []  # nobody has 5 yet
    yanniv = leaderboard(session, "matches")
    assert yanniv.game == "yanniv" and yanniv.total == 3
    assert [e.matches_played for e in yanniv.entries] == [5, 3, 3]
    empty = leaderboard(session, "rating", game="nothing")
    assert (empty.total, empty.pages, empty.entries) == (0, 1, [])
