"""Real engine matches (greedy policies), recorded as the server builds them (from the game's
outcome): the stored score sheet, the tiebreak participants and the counters agree with the
engine's own result, and a tiebreak's participants are the seats tied for the lead."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy.orm import Session

from tests.profiles.scripted import yanniv_config
from yanniv.games import get_game
from yanniv.games.yanniv.bots.policies import default_action
from yanniv.games.yanniv.rules import MatchConfig, apply, new_match
from yanniv.profiles.identity import hash_secret
from yanniv.profiles.record import played_seats, record_finished_match
from yanniv.profiles.stats import match_detail, profile_stats
from yanniv.profiles.types import FinishedManche, FinishedMatch, FinishedPlayer

NAMES = ["Ana", "Béa", "Cid", "Dan"]


def play(seats: int, seed: str) -> tuple[FinishedMatch, object]:
    state = new_match(MatchConfig(seats=seats, manches=3), seed)
    while not state.finished:
        state, _ = apply(state, default_action(state))
    now = datetime.now(UTC)
    outcome = get_game("yanniv").outcome(state)
    assert outcome is not None
    finished = FinishedMatch(
        room_code="ENG",
        seed=seed,
        game="yanniv",
        rules_version="yanniv-2",
        config=yanniv_config(seats, 3),
        started_at=now,
        finished_at=now,
        players=tuple(
            FinishedPlayer(s, NAMES[s], hash_secret(f"owner-secret-{NAMES[s]}-0000"))
            for s in range(seats)
        ),
        manches=tuple(
            FinishedManche(m.number, m.tiebreak, m.caller, m.caller_won, m.winner, m.points,
                           m.deltas, m.participants)
            for m in outcome.manches
        ),
        totals=tuple(state.scores),
        ranking=tuple(state.ranking),
    )
    return finished, state


def test_engine_matches_round_trip(session: Session) -> None:
    wins = dict.fromkeys(NAMES, 0)
    played = dict.fromkeys(NAMES, 0)
    # Seeds "tb-52" (3 seats) and "tb-42" (4 seats) end in a tiebreak that one seat sits out
    # (under today's rules: mandatory powers, the last lap of one turn each).
    games = [(2 + i % 3, f"profiles-{i}") for i in range(10)] + [(3, "tb-52"), (4, "tb-42")]
    tiebreaks = 0
    for seats, seed in games:
        finished, state = play(seats, seed)
        tiebreaks += any(m.tiebreak for m in finished.manches)
        # A tiebreak is played by the seats tied for the lead just before it (the rule
        # book: "Égalité en tête : manche de départage"), counted here from the deltas.
        totals = [0] * seats
        for manche, played_now in zip(finished.manches, played_seats(finished), strict=True):
            best = min(totals)
            expected = ({s for s in range(seats) if totals[s] == best} if manche.tiebreak
                        else set(range(seats)))
            assert set(played_now) == expected
            totals = [t + d for t, d in zip(totals, manche.deltas, strict=True)]
        match_id = record_finished_match(session, finished)
        session.commit()
        detail = match_detail(session, match_id)
        assert detail is not None
        assert detail.manches[-1].totals == list(state.scores)
        assert detail.players[0].seat == state.ranking[0] and detail.players[0].rank == 1
        wins[NAMES[state.ranking[0]]] += 1
        for s in range(seats):
            played[NAMES[s]] += 1
    assert tiebreaks >= 2
    for name in NAMES:
        p = profile_stats(session, name)
        assert p is not None
        assert [(g.game, g.matches_played, g.matches_won) for g in p.games] == [
            ("yanniv", played[name], wins[name])
        ]
