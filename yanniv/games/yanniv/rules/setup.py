"""Starting a match and dealing a manche (with the misdeal rule)."""

from __future__ import annotations

from yanniv.games.yanniv.rules import knowledge
from yanniv.games.yanniv.rules.cards import DECK, Card, sort_hand
from yanniv.games.yanniv.rules.combos import has_misdeal_pattern
from yanniv.games.yanniv.rules.events import Event, MancheStarted, Misdeal, TurnStarted
from yanniv.games.yanniv.rules.state import MatchConfig, MatchState, Packet, Pending
from yanniv.kit.chance import rng, shuffled


def new_match(config: MatchConfig, seed: int | str) -> MatchState:
    """A fresh match, first manche dealt; the same (config, seed) always gives the same state."""
    state, _ = start_match(config, seed)
    return state


def start_match(config: MatchConfig, seed: int | str) -> tuple[MatchState, tuple[Event, ...]]:
    """Like `new_match`, also returning the events of the first deal (for logs)."""
    n = config.seats
    s = MatchState.blank(config, seed)
    if config.first_player is None:
        starter = rng(seed, "first").randrange(n)
    else:
        starter = config.first_player
    events: list[Event] = []
    deal(s, starter, tiebreak=False, participants=tuple(range(n)), events=events)
    return s, tuple(events)


def deal(
    s: MatchState,
    starter: int,
    tiebreak: bool,
    participants: tuple[int, ...],
    events: list[Event],
) -> None:
    """Deal the next manche into `s` (a fresh copy owned by the caller), redealing on misdeal."""
    n = s.config.seats
    s.manche += 1
    s.tiebreak = tiebreak
    s.active = tuple(seat in participants for seat in range(n))
    size = s.config.rules.hand_size
    attempt = 0
    while True:
        deck: list[Card] = shuffled(DECK, s.seed, "deal", s.manche, attempt)
        hands: list[tuple[Card, ...]] = [()] * n
        for index, seat in enumerate(participants):
            hands[seat] = sort_hand(deck[index * size : (index + 1) * size])
        misdealt = [seat for seat in participants if has_misdeal_pattern(hands[seat])]
        if not misdealt:
            break
        events.extend(Misdeal(seat=seat, manche=s.manche) for seat in misdealt)
        attempt += 1
    rest = deck[len(participants) * size :]
    flipped = rest.pop()
    s.deal_attempt = attempt
    s.hands = tuple(hands)
    s.pile = tuple(rest)
    s.discard = (Packet(seat=None, cards=(flipped,)),)
    s.prev_packet = 0
    s.turn = starter
    s.starter = starter
    s.direction = 1
    s.turn_constraint = None
    s.clear_turn()
    s.yanniv_caller = None
    s.last_lap = frozenset()
    s.known = knowledge.empty(n)
    s.pile_known = (frozenset(),) * n
    s.pending = Pending(kind="turn", seat=starter)
    events.append(
        MancheStarted(
            manche=s.manche,
            tiebreak=tiebreak,
            starter=starter,
            participants=participants,
            flipped=flipped,
        )
    )
    events.append(TurnStarted(seat=starter))
