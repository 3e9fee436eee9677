"""Test helpers: apply a sequence of actions, find events, parse cards."""

from __future__ import annotations

from yanniv.games.yanniv.rules import Action, MatchState, apply, legal_actions
from yanniv.games.yanniv.rules.cards import Card, cards, parse_card
from yanniv.games.yanniv.rules.events import Event
from yanniv.games.yanniv.rules.ruleset import Ruleset

#: Today's rules with the powers left optional (a host option).
OPTIONAL = Ruleset(mandatory_powers=False)


def C(code: str) -> Card:
    return parse_card(code)


def P(codes: str):
    from yanniv.games.yanniv.rules import Play

    return Play(tuple(sorted(cards(codes))))


def run(state: MatchState, *actions: Action) -> tuple[MatchState, list[Event]]:
    """Apply the actions in order, checking each is listed as legal first."""
    events: list[Event] = []
    for action in actions:
        assert action in legal_actions(state), (action, state.pending, legal_actions(state))
        state, produced = apply(state, action)
        events.extend(produced)
    return state, events


def of_type(events: list[Event], kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


def hand(state: MatchState, seat: int) -> set[Card]:
    return set(state.hands[seat])
