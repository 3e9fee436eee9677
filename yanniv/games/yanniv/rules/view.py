"""`view(state, seat)`: what one seat (or a spectator) may know, and nothing else.

The view is the only thing a client or a bot ever gets: its own hand, card counts of the
others, the public discard, the cards it knows in each opponent's hand, the pending decision
(details only when it is its own) and, when it must act, the legal actions.

Views are built once per recipient and decision, so they are plain slotted dataclasses (a
frozen one costs twice as much to build); nobody is meant to change one after `view` returns.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter

from yanniv.games.yanniv.rules.actions import Action, DecisionKind
from yanniv.games.yanniv.rules.cards import Card, Colour, card_key
from yanniv.games.yanniv.rules.legal import legal_actions, takeable_cards
from yanniv.games.yanniv.rules.ruleset import Ruleset
from yanniv.games.yanniv.rules.state import Constraint, MancheResult, MatchState, Packet, Pending

_VALUE = attrgetter("value")
_new = object.__new__
_NONE: tuple[Card, ...] = ()


_SORTED: dict[frozenset[Card], tuple[Card, ...]] = {}


def _sorted(cards: frozenset[Card]) -> tuple[Card, ...]:
    """Known cards in hand order, memoized: the same sets (carried from state to state) are
    shown in every view, and a frozenset keeps its hash."""
    found = _SORTED.get(cards)
    if found is None:
        found = tuple(sorted(cards, key=card_key))
        if len(_SORTED) >= 8192:  # a bound, not a policy: well under 1 MB
            _SORTED.clear()
        _SORTED[cards] = found
    return found


#: Pending kinds that would tell others something hidden are shown to them as this kind.
_PUBLIC_KIND: dict[str, DecisionKind] = {"play_drawn": "draw"}


@dataclass(slots=True)
class PlayerView:
    seat: int
    active: bool
    card_count: int
    score: int
    #: Cards the viewer knows to be in this seat's hand (the viewer's own seat: its hand).
    known_cards: tuple[Card, ...]
    called_yanniv: bool


#: A view's pending decision has the state's shape; others get a copy without private details.
PendingView = Pending


@dataclass(slots=True)
class MatchView:
    viewer: int | None
    seats: int
    manche: int
    manches: int
    tiebreak: bool
    step: int
    hand: tuple[Card, ...] | None
    hand_value: int | None
    players: tuple[PlayerView, ...]
    pile_count: int
    #: Cards on top of the pile whose place this viewer knows (after its own Queen), top first.
    pile_known: tuple[Card, ...]
    #: The discard, oldest packet first (the engine's own immutable packets).
    discard: tuple[Packet, ...]
    #: Index in `discard` of the packet the previous player put down (None if they put none).
    previous_packet: int | None
    #: Discard cards the seat that must act may take now (or, in its turn, after playing).
    takeable: tuple[Card, ...]
    turn: int
    direction: int
    constraint: Constraint | None
    yanniv_caller: int | None
    pending: PendingView | None
    legal_actions: tuple[Action, ...]
    scores: tuple[int, ...]
    history: tuple[MancheResult, ...]
    last_result: MancheResult | None
    finished: bool
    ranking: tuple[int, ...]
    #: The cards this turn's player has put down so far (the packet being formed).
    turn_play: tuple[Card, ...]
    turn_power: int | None
    six_colour: Colour | None
    #: The rules of the match (constants and host options).
    rules: Ruleset
    #: After a YANNIV call, the seats still to play their last turn (public: everybody saw
    #: who has played since the call); empty otherwise.
    last_lap: tuple[int, ...]


def _pending_view(pending: Pending | None, viewer: int | None) -> PendingView | None:
    if pending is None:
        return None
    kind = pending.kind
    if viewer == pending.seat or kind in ("turn", "draw"):
        # Its own decision in full; a turn or a draw carries no detail to hide.
        return pending
    # Public details only: who is asked what by a 4, how many uses of a power remain.
    public_other = pending.other if kind in ("four_give", "four_exchange") else None
    public_rank = pending.rank if kind == "four_give" else None
    remaining = pending.remaining if kind in ("four_ask", "king") else 0
    return Pending(
        kind=_PUBLIC_KIND.get(kind, kind), seat=pending.seat, remaining=remaining,
        other=public_other, rank=public_rank,
    )


#: The parts of a view that are the same for every viewer who does not act, made from the
#: latest state viewed (held by identity: a state never changes): the four views of one
#: change are built back to back, so three of them find these ready.
_SHARED: tuple[MatchState | None, tuple[Card, ...], tuple[int, ...], PendingView | None] = (
    None, (), (), None)


def _shared(state: MatchState) -> tuple[
        MatchState | None, tuple[Card, ...], tuple[int, ...], PendingView | None]:
    """`_SHARED` for `state`, made and kept (one tuple, swapped whole: a view built in
    another thread reads either the old one or this one, and checks its state)."""
    global _SHARED
    shared = _SHARED = (
        state, takeable_cards(state),
        tuple(sorted(state.last_lap)) if state.last_lap else (),
        _pending_view(state.pending, None),  # any viewer but the acting seat's
    )
    return shared


def view(state: MatchState, viewer: int | None, show_known_cards: bool = True) -> MatchView:
    """The observation of `viewer` (a seat index, or None for a spectator). Without
    `show_known_cards` (a room that hides them), opponents' known cards are left out.

    Built once per decision, the hottest call after `apply`: each view is made by
    `object.__new__` and plain slot stores, every field named (a dataclass `__init__` call
    per object cost a third of this function); `tests/games/yanniv/test_views.py` checks that
    every field is set."""
    config = state.config
    n = config.seats
    row = state.known[n if viewer is None else viewer]
    hands = state.hands
    scores = state.scores
    active = state.active
    caller = state.yanniv_caller
    players: list[PlayerView] = []
    for seat in range(n):
        p = _new(PlayerView)
        p.seat = seat
        p.active = active[seat]
        p.card_count = len(hands[seat])
        p.score = scores[seat]
        known = row[seat]
        p.known_cards = (
            hands[seat] if seat == viewer
            else _NONE if not (known and show_known_cards)
            else _SORTED.get(known) or _sorted(known)
        )
        p.called_yanniv = caller == seat
        players.append(p)
    pending = state.pending
    acting = pending is not None and viewer == pending.seat
    shared = _SHARED  # read once: bots build views in other threads
    if shared[0] is not state:
        shared = _shared(state)
    _, takeable, last_lap, others_pending = shared
    v = _new(MatchView)
    v.viewer = viewer
    v.seats = n
    v.manche = state.manche
    v.manches = config.manches
    v.tiebreak = state.tiebreak
    v.step = state.step
    if viewer is None:
        v.hand = v.hand_value = None
        v.pile_known = ()
    else:
        hand = v.hand = hands[viewer]
        v.hand_value = sum(map(_VALUE, hand))
        v.pile_known = _pile_known(state, viewer) if state.pile_known[viewer] else ()
    v.players = tuple(players)
    v.pile_count = len(state.pile)
    v.discard = state.discard
    v.previous_packet = state.prev_packet
    v.takeable = takeable
    v.turn = state.turn
    v.direction = state.direction
    v.constraint = state.turn_constraint
    v.yanniv_caller = caller
    v.pending = pending if acting else others_pending
    v.legal_actions = (state._legal or legal_actions(state)) if acting else ()
    v.scores = scores
    v.history = state.manche_history
    v.last_result = state.last_result
    v.finished = state.finished
    v.ranking = state.ranking
    v.turn_play = state.turn_play
    v.turn_power = state.turn_power
    v.six_colour = state.turn_six_colour
    v.rules = config.rules
    v.last_lap = last_lap
    return v


def _pile_known(state: MatchState, viewer: int) -> tuple[Card, ...]:
    """The cards on top of the pile whose place `viewer` knows, top first."""
    known_top = state.pile_known[viewer]
    top: list[Card] = []
    for card in reversed(state.pile):
        if card not in known_top:
            break
        top.append(card)
    return tuple(top)
