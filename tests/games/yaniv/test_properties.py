"""Random complete Yaniv matches (2 to 8 seats, one or two decks, both end modes): the card
count is conserved after every action, a match replays from its seed and log to the same
state, and no view or event shows a seat a card it may not know.

The knowledge check is an oracle of its own: it follows only the events as each seat
received them (and the seat's own hand) and shares no code with the engine's views.
`YANIV_PROPERTY_MATCHES` and `YANIV_FULL_VIEW_MATCHES` set the numbers of matches.
"""

from __future__ import annotations

import os
import random
import re
from functools import cache
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yanniv.games import get_game
from yanniv.games.yaniv.rules.cards import deck

GAME = get_game("yaniv")
#: Random matches with every seat's events and the acting seat's view checked (the bar: 1,000),
#: and matches with every seat's view checked after every action (a view costs the most).
MATCHES = int(os.environ.get("YANIV_PROPERTY_MATCHES", "1000"))
FULL_MATCHES = int(os.environ.get("YANIV_FULL_VIEW_MATCHES", "60"))
#: A card code as a whole JSON string ("7H", "XR", "QS2" for the second deck's copy).
CODE = re.compile(r'"((?:X[RB]|[A2-9TJQK][SHDC])2?)"')


def _codes(data: Any) -> list[str]:
    """Every card code anywhere in JSON-ready data, read off its JSON text (a walk in Python
    over views that carry the match's history cost most of a property run)."""
    return CODE.findall(orjson.dumps(data).decode())


class SeatOracle:
    """What one seat (None: a spectator) has been shown, from its events only."""

    def __init__(self, seat: int | None, seats: int) -> None:
        self.seat = seat
        self.seen: set[str] = set()
        self.taken: list[set[str]] = [set() for _ in range(seats)]
        #: The history's JSON text at the last check that passed.
        self.history: bytes | None = None

    def events(self, wire: list[dict[str, Any]]) -> None:
        for event in wire:
            kind = event["type"]
            if kind == "MancheStarted":
                self.taken = [set() for _ in self.taken]
            if kind == "Drew":
                if event["source"] == "pile" and event["seat"] != self.seat:
                    assert event["card"] is None, "a pile card shown to another seat"
                if event["source"] == "discard":
                    self.taken[event["seat"]].add(event["card"])
            if kind == "Played":
                self.taken[event["seat"]] -= set(event["cards"])
            self.seen.update(_codes(event))

    def check(self, view: dict[str, Any], truth: Truth) -> None:
        hands, pile = truth
        if self.seat is not None:
            assert set(view["hand"]) == hands[self.seat]
            self.seen |= hands[self.seat]
        # The codes of the view's text are those of its fields but the history and those of
        # the history (a code is one whole JSON string): each part is read once. A history
        # written as at this seat's last check (it changes once a manche) had all its codes
        # seen then, and `seen` only grows: they need no reading again.
        outside_history = set(_codes({k: v for k, v in view.items() if k != "history"}))
        history = orjson.dumps(view.get("history", []))
        shown = outside_history
        if history != self.history:
            shown = shown | set(CODE.findall(history.decode()))
        unknown = shown - self.seen
        assert not unknown, f"seat {self.seat} shown cards it never saw: {unknown}"
        self.history = history
        assert not outside_history & pile, "a pile card in a view"
        for player in view["players"]:
            owner = player["seat"]
            if owner == self.seat:
                continue
            shown = set(player["known_cards"])
            assert shown <= hands[owner], "a known card that is not in that hand"
            assert shown <= self.taken[owner], "a card shown that was not taken openly"


@cache
def _full_deck(decks: int) -> list[str]:
    return sorted(card.code for card in deck(decks))


#: Every seat's hand and the pile, as card codes (what the oracles check views against).
Truth = tuple[list[set[str]], set[str]]


def _truth(state: Any) -> Truth:
    return [{c.code for c in hand} for hand in state.hands], {c.code for c in state.pile}


def _conserved(state: Any) -> None:
    """Every card of the decks once: the codes held, sorted, are the decks' (a quarter of the
    time of counting them)."""
    held = [c.code for hand in state.hands for c in hand]
    held += [c.code for c in state.pile]
    held += [c.code for packet in state.discard for c in packet.cards]
    held.sort()
    assert held == _full_deck(state.config.decks)


@st.composite
def _matches(draw: st.DrawFn, seats: int, thresholds: tuple[int, ...]) -> tuple[Any, str, int]:
    two = seats == 8 or (seats >= 5 and draw(st.booleans()))
    settings_ = GAME.settings_with(two_decks=two, elimination=draw(st.booleans()),
                                   threshold=draw(st.sampled_from(thresholds)))
    config = GAME.match_config(settings_, seats, draw(st.none() | st.integers(0, seats - 1)))
    return config, draw(st.text("abcdef0123", min_size=1, max_size=8)), draw(
        st.integers(0, 2**32))


def _play(config: Any, seed: str, choice_seed: int, every_view: bool) -> None:
    """One random complete match, checked after every action: the card count, the action's
    codec round trip, and through the oracles every event each seat received and the views
    (every seat's if `every_view`, else the actor's and a spectator's); at the end the
    ranking, and a replay from the seed and log that rebuilds the same state."""
    rng = random.Random(choice_seed)
    state, events = GAME.new_match(config, seed)
    seats = config.seats
    oracles = [SeatOracle(seat, seats) for seat in range(seats)] + [SeatOracle(None, seats)]
    encoder = GAME.view_encoder()
    log: list[dict[str, Any]] = []
    bots = [GAME.make_bot("moyen" if s % 2 else "facile", s, seed) for s in range(seats)]
    while True:
        _conserved(state)
        truth = _truth(state)
        over = GAME.is_over(state)
        seat = None if over else GAME.to_act(state)
        views = {}
        for oracle in oracles:
            oracle.events(GAME.encode_events(events, oracle.seat))
            if every_view or over or oracle.seat in (None, seat):
                views[oracle.seat] = GAME.view(state, oracle.seat)
                oracle.check(encoder.view(views[oracle.seat]), truth)
        if seat is None:
            break
        legal = GAME.legal_actions(state)
        if rng.random() < 0.2:
            action = rng.choice(legal)
        else:
            action = GAME.bot_decide(bots[seat], views[seat])  # the view just checked
        assert action in legal
        data = GAME.encode_action(action)
        decoded = GAME.decode_action(data)
        assert decoded.action == action and decoded.data == data
        log.append(data)
        state, events = GAME.apply(state, action)
    outcome = GAME.outcome(state)
    assert outcome is not None and len(set(outcome.ranking)) == seats
    assert outcome.totals[outcome.ranking[0]] < min(
        outcome.totals[s] for s in outcome.ranking[1:])
    replayed, _ = GAME.replay(GAME.config_from_data(GAME.config_to_data(config), "yaniv-1"),
                              seed, log)
    assert replayed == state


#: One test per seat count, so that the matches spread over the test workers.
SEAT_COUNTS = range(2, 9)


@pytest.mark.parametrize("seats", SEAT_COUNTS)
@settings(max_examples=-(-FULL_MATCHES // len(SEAT_COUNTS)), deadline=None,
          suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_random_matches_show_no_seat_an_unknown_card_after_any_action(
        seats: int, data: st.DataObject) -> None:
    """Every seat's view checked after every action (thresholds up to 200: 100 -> 50 and
    200 -> 100 can happen)."""
    _play(*data.draw(_matches(seats, (50, 120, 200))), every_view=True)


@pytest.mark.parametrize("seats", SEAT_COUNTS)
@settings(max_examples=-(-MATCHES // len(SEAT_COUNTS)), deadline=None,
          suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_random_matches_conserve_cards_replay_and_never_leak(
        seats: int, data: st.DataObject) -> None:
    """The issue's 1,000 matches (143 per seat count): every event each seat got, and the
    view of whoever acts, after every action."""
    _play(*data.draw(_matches(seats, (50, 50, 50, 70))), every_view=False)


def test_the_oracle_catches_a_card_it_was_not_shown() -> None:
    """Self-test: a view that lists an opponent's untaken card, or the pile's top, fails."""
    config = GAME.match_config(GAME.default_settings(), 3, 0)
    state, events = GAME.new_match(config, "leak")
    oracle = SeatOracle(0, 3)
    oracle.events(GAME.encode_events(events, 0))
    honest = GAME.view_encoder().view(GAME.view(state, 0))
    oracle.check(honest, _truth(state))
    leaked = {**honest, "players": [dict(p) for p in honest["players"]]}
    leaked["players"][1]["known_cards"] = [state.hands[1][0].code]
    try:
        oracle.check(leaked, _truth(state))
    except AssertionError:
        pass
    else:
        raise AssertionError("the oracle missed an opponent's card")
    top = {**honest, "takeable": [state.pile[-1].code]}
    try:
        oracle.check(top, _truth(state))
    except AssertionError:
        pass
    else:
        raise AssertionError("the oracle missed the pile's top")
    # The history is read again whenever its text changes (after a check that passed).
    oracle.check(honest, _truth(state))
    past = {**honest, "history": [*honest["history"], {"hands": [[state.hands[1][0].code]]}]}
    try:
        oracle.check(past, _truth(state))
    except AssertionError:
        return
    raise AssertionError("the oracle missed an opponent's card in the history")


def test_the_conservation_check_catches_a_lost_or_doubled_card() -> None:
    """Self-test: a hand that lost a card, or holds another seat's too, fails `_conserved`."""
    config = GAME.match_config(GAME.settings_with(two_decks=True), 6, 0)
    state, _ = GAME.new_match(config, "conserved")
    _conserved(state)
    hands = state.hands
    lost = (hands[0][1:], *hands[1:])
    doubled = ((*hands[0], hands[1][0]), *hands[1:])
    for changed in (lost, doubled):
        with pytest.raises(AssertionError):
            _conserved(state.evolve(hands=changed))
