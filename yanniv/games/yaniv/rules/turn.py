"""Classic Yaniv's rules (rule book `shared/rules/001_…txt`): deal, turns, Yaniv, Assaf,
scores, the end; `legal_actions`, `apply` and `view`.

Pure: chance comes from the match seed and a label (`random.Random("seed/label")`), never the
global `random`; a state is never changed, `apply` builds the next one. Decisions on points
the rule book leaves open are in QUESTIONS.md ("Yaniv classique").
"""

from __future__ import annotations

import random

from yanniv.games.yaniv.rules import combos
from yanniv.games.yaniv.rules.cards import ACE, CALL_LIMIT, JOKER, YCard, deck, hand_value
from yanniv.games.yaniv.rules.model import (
    ACE_BONUS,
    ASSAF_PENALTY,
    HAND_SIZE,
    JOKER_BONUS,
    LANDINGS,
    Action,
    CallYaniv,
    DrawPile,
    Drew,
    Event,
    MancheEnded,
    MancheStarted,
    MatchEnded,
    MatchView,
    Packet,
    Pending,
    PileReshuffled,
    Play,
    Played,
    PlayerView,
    TakeDiscard,
    TurnStarted,
    YanivCalled,
    YanivConfig,
    YanivState,
)


class YanivIllegal(ValueError):
    """An action that is not legal now; `apply` changes nothing. `message` is French."""

    def __init__(self, code: str, message: str, message_en: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.message_en = message_en


def _rng(seed: str, *label: object) -> random.Random:
    return random.Random("/".join(str(part) for part in (seed, *label)))


def _next_in(seat: int, among: tuple[int, ...], seats: int) -> int:
    """The first seat of `among` after `seat`, clockwise (seat + 1 is on the left)."""
    for offset in range(1, seats + 1):
        candidate = (seat + offset) % seats
        if candidate in among:
            return candidate
    raise ValueError("nobody to play")


def _previous_in(seat: int, among: tuple[int, ...], seats: int) -> int:
    for offset in range(1, seats + 1):
        candidate = (seat - offset) % seats
        if candidate in among:
            return candidate
    raise ValueError("nobody to deal")


# ---------------------------------------------------------------- the deal


def start_match(config: YanivConfig, seed: str) -> tuple[YanivState, tuple[Event, ...]]:
    """The state after the first deal, and its events."""
    n = config.seats
    first = config.first_player
    if first is None:
        first = _rng(seed, "first").randrange(n)
    everyone = tuple(range(n))
    blank = YanivState(
        config=config, seed=seed, step=0, manche=0, tiebreak=False, participants=everyone,
        in_match=(True,) * n, left_at=(0,) * n, dealer=_previous_in(first, everyone, n),
        starter=first, hands=((),) * n, pile=(), discard=(), offer=None, pending=None,
        scores=(0,) * n, history=(), known=(frozenset(),) * n, finished=False, ranking=(),
    )
    return _deal(blank, everyone, first, tiebreak=False)


def _deal(state: YanivState, participants: tuple[int, ...], starter: int,
          tiebreak: bool) -> tuple[YanivState, tuple[Event, ...]]:
    """Shuffle the decks, deal 7 cards to each participant, flip one: the new manche."""
    n = state.config.seats
    manche = state.manche + 1
    cards = list(deck(state.config.decks))
    _rng(state.seed, "deal", manche).shuffle(cards)
    hands: list[tuple[YCard, ...]] = [()] * n
    for seat in participants:
        hands[seat] = tuple(sorted(cards[:HAND_SIZE]))
        del cards[:HAND_SIZE]
    flipped = cards.pop()
    dealer = _previous_in(starter, participants, n)
    new = state.evolve(
        manche=manche, tiebreak=tiebreak, participants=participants, dealer=dealer,
        starter=starter, hands=tuple(hands), pile=tuple(cards),
        discard=(Packet(None, (flipped,)),), offer=0, pending=Pending("turn", starter),
        known=(frozenset(),) * n,
    )
    return new, (MancheStarted(manche, tiebreak, dealer, starter, participants, flipped),
                 TurnStarted(starter))


# ---------------------------------------------------------------- legal actions


def takeable(state: YanivState) -> tuple[YCard, ...]:
    """The cards at the ends of the packet the seat to draw may take from."""
    if state.offer is None:
        return ()
    return combos.ends(state.discard[state.offer].cards)


def _reshuffle_size(state: YanivState) -> int:
    """Cards a reshuffle would give: the discard but the offer and the packet just laid."""
    keep = {state.offer, len(state.discard) - 1}
    return sum(len(p.cards) for i, p in enumerate(state.discard) if i not in keep)


def legal_actions(state: YanivState) -> tuple[Action, ...]:
    pending = state.pending
    if pending is None:
        return ()
    hand = state.hands[pending.seat]
    if pending.kind == "turn":
        plays: list[Action] = [Play(cards) for cards in combos.plays_of(hand)]
        if hand_value(hand) <= CALL_LIMIT:
            plays.insert(0, CallYaniv())
        return tuple(plays)
    draws: list[Action] = []
    if state.pile or _reshuffle_size(state):
        draws.append(DrawPile())
    draws.extend(TakeDiscard(card) for card in dict.fromkeys(takeable(state)))
    return tuple(draws)


def _refuse(state: YanivState, action: object) -> YanivIllegal:
    """Why `action` is not legal, in French and English."""
    pending = state.pending
    if pending is None:
        return YanivIllegal("match_over", "La partie est terminée.", "The match is over.")
    hand = state.hands[pending.seat]
    if pending.kind == "turn":
        if isinstance(action, CallYaniv):
            return YanivIllegal(
                "yaniv_too_high",
                f"Yaniv s'annonce avec {CALL_LIMIT} points ou moins (main : {hand_value(hand)}).",
                f"Yaniv needs {CALL_LIMIT} points or less (hand: {hand_value(hand)}).")
        if isinstance(action, Play):
            if not set(action.cards) <= set(hand):
                return YanivIllegal("not_in_hand", "Ces cartes ne sont pas dans votre main.",
                                    "These cards are not in your hand.")
            return YanivIllegal(
                "not_a_combination",
                "Posez une carte seule, des cartes de même valeur ou une suite d'au moins "
                "trois cartes de la même couleur.",
                "Put down a single card, cards of one value or a run of 3+ of one suit.")
        return YanivIllegal("play_first", "Posez des cartes ou annoncez Yaniv d'abord.",
                            "Put down cards or call Yaniv first.")
    if isinstance(action, TakeDiscard):
        return YanivIllegal(
            "not_an_end",
            "Seule une carte à un bout de ce qu'a posé le joueur précédent peut être prise.",
            "Only a card at an end of what the previous player put down may be taken.")
    if isinstance(action, DrawPile):
        return YanivIllegal("pile_empty", "La pioche est vide : prenez dans la défausse.",
                            "The pile is empty: take from the discard.")
    return YanivIllegal("draw_now", "Piochez maintenant.", "Draw now.")


# ---------------------------------------------------------------- apply


def apply(state: YanivState, action: Action) -> tuple[YanivState, tuple[Event, ...]]:
    """The next state and its events; `YanivIllegal` (state unchanged) if not legal."""
    pending = state.pending
    if isinstance(action, Play) and pending is not None and pending.kind == "turn":
        cards = combos.canonical_play(tuple(action.cards))
        action = Play(cards) if cards is not None else action
    if action not in legal_actions(state):
        raise _refuse(state, action)
    assert pending is not None
    seat = pending.seat
    state = state.evolve(step=state.step + 1)
    if isinstance(action, CallYaniv):
        return _call(state, seat)
    if isinstance(action, Play):
        hand = tuple(card for card in state.hands[seat] if card not in action.cards)
        known = state.known[seat] - set(action.cards)
        new = state.evolve(
            hands=_put(state.hands, seat, hand), known=_put(state.known, seat, known),
            discard=(*state.discard, Packet(seat, action.cards)),
            pending=Pending("draw", seat))
        return new, (Played(seat, action.cards),)
    events: list[Event] = []
    if isinstance(action, DrawPile):
        if not state.pile:
            state, reshuffled = _reshuffle(state)
            events.append(reshuffled)
        card = state.pile[-1]
        state = state.evolve(pile=state.pile[:-1])
        events.append(Drew(seat, "pile", card))
    else:
        assert isinstance(action, TakeDiscard) and state.offer is not None
        card = action.card
        offered = state.discard[state.offer]
        left = tuple(c for c in offered.cards if c != card)
        discard = _put(state.discard, state.offer, Packet(offered.seat, left))
        known = state.known[seat] | {card}
        state = state.evolve(discard=discard, known=_put(state.known, seat, known))
        events.append(Drew(seat, "discard", card))
    hand = tuple(sorted((*state.hands[seat], card)))
    nxt = _next_in(seat, state.participants, state.config.seats)
    state = state.evolve(hands=_put(state.hands, seat, hand), offer=len(state.discard) - 1,
                         pending=Pending("turn", nxt))
    events.append(TurnStarted(nxt))
    return state, tuple(events)


def _put(items: tuple, index: int, value: object) -> tuple:
    return (*items[:index], value, *items[index + 1:])


def _reshuffle(state: YanivState) -> tuple[YanivState, PileReshuffled]:
    """The pile is empty: every discard packet but the offer and the one just laid, shuffled."""
    last = len(state.discard) - 1
    assert state.offer is not None
    kept = (state.discard[state.offer], state.discard[last])
    cards = [c for i, p in enumerate(state.discard) if i not in (state.offer, last)
             for c in p.cards]
    _rng(state.seed, "reshuffle", state.step).shuffle(cards)
    return (state.evolve(pile=tuple(cards), discard=kept, offer=0),
            PileReshuffled(len(cards)))


# ---------------------------------------------------------------- Yaniv and scores


def _call(state: YanivState, caller: int) -> tuple[YanivState, tuple[Event, ...]]:
    """The reveal and the scores (Assaf, the Ace and joker bonuses, 100 → 50, 200 → 100)."""
    n = state.config.seats
    who = state.participants
    points = tuple(hand_value(state.hands[s]) if s in who else 0 for s in range(n))
    mine = points[caller]
    order = [_next_in(caller, who, n)]
    while len(order) < len(who) - 1:
        order.append(_next_in(order[-1], who, n))
    beaters = [s for s in order if points[s] <= mine]
    deltas = [0] * n
    if beaters:
        assaf, winner = True, min(beaters, key=lambda s: points[s])  # first lowest in turn order
        deltas[caller] = ASSAF_PENALTY
    else:
        assaf, winner = False, caller
        for s in order:
            deltas[s] = points[s]
        hand = state.hands[caller]
        if len(hand) == 1 and hand[0].rank == ACE:
            deltas[caller] = ACE_BONUS
        elif len(hand) == 1 and hand[0].rank == JOKER:
            deltas[caller] = JOKER_BONUS
    totals = [score + delta for score, delta in zip(state.scores, deltas, strict=True)]
    brought_down = tuple(s for s in range(n) if deltas[s] and totals[s] in LANDINGS)
    for s in brought_down:
        totals[s] = LANDINGS[totals[s]]
    config = state.config
    eliminated: tuple[int, ...] = ()
    in_match = state.in_match
    left_at = state.left_at
    if config.elimination:
        eliminated = tuple(s for s in who if totals[s] > config.threshold)
        in_match = tuple(on and s not in eliminated for s, on in enumerate(in_match))
        left_at = tuple(state.manche if s in eliminated else at for s, at in enumerate(left_at))
    result = MancheEnded(
        manche=state.manche, tiebreak=state.tiebreak, caller=caller, assaf=assaf,
        winner=winner, participants=who,
        hands=tuple(state.hands[s] if s in who else () for s in range(n)), points=points,
        deltas=tuple(deltas), brought_down=brought_down, eliminated=eliminated,
        totals=tuple(totals))
    state = state.evolve(scores=tuple(totals), history=(*state.history, result),
                         in_match=in_match, left_at=left_at, pending=None,
                         known=(frozenset(),) * n)
    events: list[Event] = [YanivCalled(caller, mine), result]
    following = _what_follows(state)
    if following is None:
        ranking = _ranking(state)
        state = state.evolve(finished=True, ranking=ranking)
        events.append(MatchEnded(state.scores, ranking))
        return state, tuple(events)
    participants, tiebreak = following
    starter = _next_in(state.starter, participants, n)
    state, dealt = _deal(state, participants, starter, tiebreak)
    return state, (*events, *dealt)


def _what_follows(state: YanivState) -> tuple[tuple[int, ...], bool] | None:
    """The next manche's seats and whether it is a tiebreak; None when the match is over."""
    config = state.config
    seats = tuple(range(config.seats))
    if config.elimination:
        left = tuple(s for s in seats if state.in_match[s])
        return None if len(left) <= 1 else (left, False)
    if all(total <= config.threshold for total in state.scores):
        return seats, False
    low = min(state.scores)
    leaders = tuple(s for s in seats if state.scores[s] == low)
    return None if len(leaders) == 1 else (leaders, True)


def _ranking(state: YanivState) -> tuple[int, ...]:
    """Lowest total first; in elimination mode the last one in, then the latest to leave."""
    seats = range(state.config.seats)
    if state.config.elimination:
        return tuple(sorted(seats, key=lambda s: (
            0 if state.left_at[s] == 0 else 1, -state.left_at[s], state.scores[s], s)))
    return tuple(sorted(seats, key=lambda s: (state.scores[s], s)))


# ---------------------------------------------------------------- views


def view(state: YanivState, viewer: int | None, show_known_cards: bool = True) -> MatchView:
    """What `viewer` (None: a spectator) may know: its hand, the public discard and scores,
    the cards everybody saw taken from the discard (unless the room hides them)."""
    n = state.config.seats
    players = tuple(
        PlayerView(
            seat=s, in_match=state.in_match[s], dealt=s in state.participants,
            card_count=len(state.hands[s]), score=state.scores[s],
            known_cards=state.hands[s] if s == viewer else (
                tuple(sorted(state.known[s])) if show_known_cards else ()),
        )
        for s in range(n)
    )
    hand = state.hands[viewer] if viewer is not None else None
    acting = state.pending is not None and state.pending.seat == viewer
    config = state.config
    return MatchView(
        viewer=viewer, seats=n, decks=config.decks, threshold=config.threshold,
        elimination=config.elimination, manche=state.manche, tiebreak=state.tiebreak,
        step=state.step, dealer=state.dealer, starter=state.starter, hand=hand,
        hand_value=None if hand is None else hand_value(hand), players=players,
        pile_count=len(state.pile), discard=state.discard, offer=state.offer,
        takeable=takeable(state) if state.pending is not None else (),
        pending=state.pending, legal_actions=legal_actions(state) if acting else (),
        scores=state.scores, history=state.history, finished=state.finished,
        ranking=state.ranking,
    )
