"""Rule: card values, and what may be played together (single, set, run; Ace low; no Q-K-A)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yanniv.games.yanniv.rules.cards import DECK, Card, cards, hand_value, parse_card
from yanniv.games.yanniv.rules.combos import all_combinations, has_misdeal_pattern, is_combination


def test_deck_has_52_distinct_cards_without_joker() -> None:
    assert len(DECK) == 52 and len(set(DECK)) == 52


def test_card_values_ace_one_figures_ten() -> None:
    assert [c.value for c in cards("AS 2H 9D TC JS QH KD")] == [1, 2, 9, 10, 10, 10, 10]
    assert hand_value(cards("AS 5H KD")) == 16


def test_card_codes_round_trip_and_reject_garbage() -> None:
    assert all(parse_card(c.code) is c for c in DECK)
    assert parse_card("10h") is parse_card("TH")
    for bad in ("1H", "ZZ", "", "AH5"):
        with pytest.raises(ValueError):
            parse_card(bad)


@pytest.mark.parametrize(
    ("codes", "legal"),
    [
        ("5H", True),
        ("5H 5S", True),
        ("5H 5S 5D", True),
        ("5H 5S 5D 5C", True),
        ("5H 6H", False),  # two cards that are not a pair
        ("AH 2H 3H", True),  # Ace is the lowest card
        ("3S 4S 5S 6S 7S", True),
        ("JD QD KD", True),
        ("QD KD AD", False),  # Dame-Roi-As is not a run
        ("4H 5H 6S", False),  # a run is of one suit
        ("4H 5H 7H", False),  # consecutive ranks only
        ("4H 5H", False),  # a run has at least 3 cards
    ],
)
def test_combinations(codes: str, legal: bool) -> None:
    assert is_combination(tuple(sorted(cards(codes)))) is legal


def test_all_combinations_lists_every_set_and_run() -> None:
    combos = {
        frozenset(c.code for c in combo) for combo in all_combinations(cards("4H 5H 6H 7H 7S"))
    }
    assert {"4H", "5H", "6H"} in combos and {"5H", "6H", "7H"} in combos
    assert {"4H", "5H", "6H", "7H"} in combos and {"7H", "7S"} in combos
    assert {"4H", "6H"} not in combos
    assert len(combos) == 5 + 1 + 3  # singles, the pair, runs of 3, 3 and 4


@pytest.mark.parametrize(
    ("codes", "misdeal"),
    [
        ("5H 5S 5D 9C KC", True),  # brelan
        ("5H 6H 7H 9C KC", True),  # three-card run of one suit
        ("AH 2H 3H 9C KC", True),
        ("QH KH AH 9C 2C", False),  # no Q-K-A run, so no misdeal
        ("5H 6S 7H 9C KC", False),  # runs are of one suit
        ("5H 5S 6D 6C KC", False),  # two pairs are fine
    ],
)
def test_misdeal_pattern(codes: str, misdeal: bool) -> None:
    assert has_misdeal_pattern(cards(codes)) is misdeal


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), unique=True, max_size=9))
def test_all_combinations_equals_brute_force(hand: list[Card]) -> None:
    from itertools import combinations

    got = [frozenset(c) for c in all_combinations(hand)]
    want = {
        frozenset(c)
        for k in range(1, len(hand) + 1)
        for c in combinations(hand, k)
        if is_combination(tuple(sorted(c)))
    }
    assert len(got) == len(set(got)) and set(got) == want
