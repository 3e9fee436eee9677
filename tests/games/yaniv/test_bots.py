"""Yaniv's computer players: legal, deterministic for a seed, and playing like their level."""

from __future__ import annotations

from tests.games.yaniv.helpers import table
from yanniv.games import get_game
from yanniv.games.yaniv.rules import CallYaniv, DrawPile, Play, TakeDiscard, apply, view, ycards

GAME = get_game("yaniv")


def _match_log(seed: str, levels: tuple[str, ...]) -> list[dict]:
    config = GAME.match_config(GAME.settings_with(threshold=60), len(levels), None)
    state, events = GAME.new_match(config, seed)
    bots = [GAME.make_bot(level, seat, seed) for seat, level in enumerate(levels)]
    log = []
    while not GAME.is_over(state):
        for seat, bot in enumerate(bots):
            bot.observe([GAME.redact(e, seat) for e in events])
        seat = GAME.to_act(state)
        seen = GAME.view(state, seat)
        action = GAME.bot_decide(bots[seat], seen)
        assert action in seen.legal_actions
        log.append(GAME.encode_action(action))
        state, events = GAME.apply(state, action)
    return log


def test_bots_are_legal_and_deterministic_for_a_seed() -> None:
    levels = ("moyen", "facile", "facile", "moyen", "facile")
    assert _match_log("same", levels) == _match_log("same", levels)


def test_facile_calls_yaniv_as_soon_as_it_may() -> None:
    state = table("3S 4H", "KS KH KD AC", "AD")
    assert GAME.bot_decide(GAME.make_bot("facile", 0, "s"), view(state, 0)) == CallYaniv()


def test_moyen_does_not_call_seven_against_a_one_card_hand() -> None:
    state = table("3S 4H", "AD")
    assert GAME.bot_decide(GAME.make_bot("moyen", 0, "s"), view(state, 0)) != CallYaniv()
    calm = table("AS AH", "KS KH KD QC JD")
    assert GAME.bot_decide(GAME.make_bot("moyen", 0, "s"), view(calm, 0)) == CallYaniv()


def test_moyen_puts_down_its_costliest_cards_and_takes_what_makes_a_pair() -> None:
    state = table("KS KH 9C 2D 3D", "QC QD QH JD JC", offer="9D")
    bot = GAME.make_bot("moyen", 0, "s")
    played = GAME.bot_decide(bot, view(state, 0))
    assert played == Play(ycards("KH KS"))
    state, _ = apply(state, played)
    assert GAME.bot_decide(bot, view(state, 0)) == TakeDiscard(ycards("9D")[0])
    expensive = table("KS KH 9C 2D 3D", "QC QD QH JD JC", offer="QS")
    state, _ = apply(expensive, Play(ycards("KH KS")))
    assert GAME.bot_decide(bot, view(state, 0)) == DrawPile()


def _steps_to_end(seed: str, seats: int, threshold: int, bound: int) -> int:
    """Steps a table of moyen alone takes to finish a match (fails past `bound` steps)."""
    config = GAME.match_config(GAME.settings_with(threshold=threshold), seats, None)
    state, _ = GAME.new_match(config, seed)
    bots = [GAME.make_bot("moyen", seat, seed) for seat in range(seats)]
    steps = 0
    while not GAME.is_over(state):
        assert steps < bound, f"moyen x{seats}, seed {seed!r}: no end after {bound} steps"
        seat = GAME.to_act(state)
        state, _ = GAME.apply(state, GAME.bot_decide(bots[seat], GAME.view(state, seat)))
        steps += 1
    return steps


def test_a_table_of_moyen_alone_finishes_its_matches() -> None:
    """Three moyen on seed "1/0" once passed 5s and 6s back and forth for ever in manche 11
    (each hand kept at five cards, over 7 points); past `PATIENCE` they play like facile."""
    assert _steps_to_end("1/0", 3, 200, 20_000) > 0
    for seats in (2, 4, 6, 8):
        _steps_to_end(f"moyen-{seats}", seats, 200, 20_000)
