"""The rules: what an action does (`apply`); what may be done now is `legal`.

A turn runs: play (or call YANNIV) → choose the power of a run holding several → choose the
colour of mixed 6s → draw (pile or previous packet; Jack and Queen widen it; none after an 8)
→ maybe play the drawn card at once → 4 and King decisions → 6, 7 and 9 take effect → next
seat. Every step that needs someone's decision is a `Pending` in the state.
"""

from __future__ import annotations

from bisect import bisect_left

from yanniv.games.yanniv.rules import knowledge
from yanniv.games.yanniv.rules.actions import (
    Action,
    AskFour,
    CallYanniv,
    ChooseColour,
    ChoosePower,
    GiveCard,
    KingSwap,
    Play,
    PlayAtOnce,
    QueenKeep,
    Skip,
    TakeDiscard,
    UseQueen,
)
from yanniv.games.yanniv.rules.cards import JACK, KING, QUEEN, Card, card_key
from yanniv.games.yanniv.rules.combos import extends
from yanniv.games.yanniv.rules.errors import IllegalActionError
from yanniv.games.yanniv.rules.events import (
    ColourChosen,
    ConstraintSet,
    DirectionChanged,
    Drew,
    Event,
    FourAnswered,
    FourAsked,
    FourExchanged,
    KingSwapped,
    PileReshuffled,
    Played,
    PowerChosen,
    PowerSkipped,
    QueenDrew,
    QueenKept,
    TurnStarted,
    YannivCalled,
    YannivChecked,
)
from yanniv.games.yanniv.rules.explain import explain
from yanniv.games.yanniv.rules.legal import (
    holds_yanniv,
    jack_reach,
    legal_actions,
    next_in,
    next_seat,
    power_impossible,
)
from yanniv.games.yanniv.rules.scoring import end_manche
from yanniv.games.yanniv.rules.state import Constraint, MatchState, Packet, Pending
from yanniv.kit.chance import rng, shuffled

#: The two most frequent pending decisions and events, shared (they are immutable values).
TURN_PENDING = tuple(Pending(kind="turn", seat=seat) for seat in range(4))
_DRAW_PENDING = tuple(Pending(kind="draw", seat=seat) for seat in range(4))
_TURN_STARTED = tuple(TurnStarted(seat=seat) for seat in range(4))
_SEVEN = Constraint("seven")
_SIX = {colour: Constraint("six", colour) for colour in ("red", "black")}


# --------------------------------------------------------------------------- apply


def apply(state: MatchState, action: Action) -> tuple[MatchState, tuple[Event, ...]]:
    """Apply `action` for `state.to_act`; return the new state and the events it produced.

    Raises `IllegalActionError` (state untouched) if the action is not legal now.
    """
    if state.pending is None:
        raise IllegalActionError(
            "match_over", "La partie est terminée.", "The match is over."
        )
    legal = state._legal
    if legal is None:
        legal = legal_actions(state)
    if action not in legal:
        raise explain(state, action)
    s = state.copy()
    s.step += 1
    events: list[Event] = []
    _HANDLERS[state.pending.kind](s, action, events)
    return s, tuple(events)


def _remove(hand: tuple[Card, ...], cards: tuple[Card, ...] | list[Card]) -> tuple[Card, ...]:
    if len(cards) == 1:
        index = hand.index(cards[0])
        return hand[:index] + hand[index + 1 :]
    return tuple([c for c in hand if c not in cards])


def _add(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    """Insert into the (sorted) hand at its place."""
    index = bisect_left(hand, card.key, key=card_key)
    return (*hand[:index], card, *hand[index:])


def _set_hand(s: MatchState, seat: int, hand: tuple[Card, ...]) -> None:
    hands = list(s.hands)
    hands[seat] = hand
    s.hands = tuple(hands)


def _on_turn(s: MatchState, action: Action, events: list[Event]) -> None:
    seat = s.turn
    if isinstance(action, CallYanniv):
        s.yanniv_caller = seat
        if s.config.rules.last_lap_each_once:
            s.last_lap = frozenset(t for t in range(s.config.seats) if s.active[t] and t != seat)
        events.append(YannivCalled(seat=seat))
        _end_turn(s, events)
        return
    if isinstance(action, Play):
        _play(s, seat, action.cards, events)
        return
    # Draw without playing: no legal play under a 6 or a 7, or nothing in hand.
    _draw(s, seat, action, events, True)  # without playing
    _end_turn(s, events)


def _play(s: MatchState, seat: int, cards: tuple[Card, ...], events: list[Event]) -> None:
    _set_hand(s, seat, _remove(s.hands[seat], cards))
    s.known = knowledge.left_hand(s.known, seat, cards)
    s.discard = (*s.discard, Packet(seat=seat, cards=cards))
    s.turn_packet = len(s.discard) - 1
    s.turn_play = cards
    events.append(Played(seat, cards))
    ranks = s.config.rules.power_ranks
    if len(cards) == 1 or cards[0].rank == cards[1].rank:  # a single or a set: one rank
        _power_chosen(s, cards[0].rank if cards[0].rank in ranks else None, events)
        return
    powers = sorted({card.rank for card in cards if card.rank in ranks})
    if len(powers) > 1:
        s.pending = Pending(kind="choose_power", seat=seat, ranks=tuple(powers))
        return
    _power_chosen(s, powers[0] if powers else None, events)


def _power_chosen(s: MatchState, rank: int | None, events: list[Event]) -> None:
    seat = s.turn
    s.turn_power = rank
    play = s.turn_play
    if rank is None:
        s.turn_power_count = 0
    elif len(play) == 1:
        s.turn_power_count = 1
    else:
        s.turn_power_count = sum(1 for c in play if c.rank == rank)
    if rank == 6:
        colours = {c.colour for c in s.turn_play if c.rank == 6}
        if len(colours) > 1:
            s.pending = Pending(kind="choose_colour", seat=seat)
            return
        s.turn_six_colour = colours.pop()
    _start_draw(s, events)


def _on_choose_power(s: MatchState, action: Action, events: list[Event]) -> None:
    assert isinstance(action, ChoosePower)
    events.append(PowerChosen(seat=s.turn, rank=action.rank))
    _power_chosen(s, action.rank, events)


def _on_choose_colour(s: MatchState, action: Action, events: list[Event]) -> None:
    assert isinstance(action, ChooseColour)
    s.turn_six_colour = action.colour
    events.append(ColourChosen(seat=s.turn, colour=action.colour))
    _start_draw(s, events)


def _start_draw(s: MatchState, events: list[Event]) -> None:
    if s.turn_power == 8:
        _start_powers(s, events)
        return
    if s.turn_power == JACK:
        reason = power_impossible(s, JACK)
        if reason is not None:  # nothing in reach: the Jack's draw is a normal draw
            events.append(PowerSkipped(seat=s.turn, rank=JACK, reason=reason))
    s.pending = _DRAW_PENDING[s.turn]


def _pop_pile(s: MatchState, count: int, events: list[Event]) -> list[Card]:
    """Take up to `count` cards from the top of the pile, reshuffling the discard (all but its
    newest packet) into a new pile when it runs out."""
    drawn: list[Card] = []
    while len(drawn) < count:
        if not s.pile and not _reshuffle(s, events):
            break
        drawn.append(s.pile[-1])
        s.pile = s.pile[:-1]
    return drawn


def _reshuffle(s: MatchState, events: list[Event]) -> bool:
    if len(s.discard) < 2:
        return False
    old = s.discard[:-1]
    cards = [card for packet in old for card in packet.cards]
    if not cards:
        return False
    s.pile = tuple(shuffled(cards, s.seed, "reshuffle", s.step, s.manche))
    top_index = len(s.discard) - 1
    s.discard = (s.discard[-1],)
    s.turn_packet = 0 if s.turn_packet == top_index else None
    s.prev_packet = 0 if s.prev_packet == top_index else None
    s.pile_known = (frozenset(),) * s.config.seats
    events.append(PileReshuffled(count=len(cards)))
    return True


def _receive_from_pile(s: MatchState, seat: int, card: Card) -> None:
    """Whoever knew this card's place in the pile (a Queen's order) now knows who has it."""
    if any(s.pile_known):
        for viewer, known_cards in enumerate(s.pile_known):
            if card in known_cards:
                pile_known = list(s.pile_known)
                pile_known[viewer] = known_cards - {card}
                s.pile_known = tuple(pile_known)
                if viewer != seat:
                    s.known = knowledge.learn(s.known, viewer, seat, card)
    _set_hand(s, seat, _add(s.hands[seat], card))


def _take_discard(
    s: MatchState, seat: int, card: Card, events: list[Event], without_playing: bool
) -> int | None:
    """Move `card` from the discard to `seat`'s hand; return the index of its packet."""
    found = None
    for index, packet in enumerate(s.discard):
        if card in packet.cards:
            discard = list(s.discard)
            discard[index] = Packet(packet.seat, tuple(c for c in packet.cards if c != card))
            s.discard = tuple(discard)
            found = index
            break
    _set_hand(s, seat, _add(s.hands[seat], card))
    s.known = knowledge.taken_publicly(s.known, seat, card)
    events.append(Drew(seat, "discard", card, without_playing))
    return found


def _draw(
    s: MatchState, seat: int, action: Action, events: list[Event], without_playing: bool
) -> Card | None:
    """A normal draw (pile or discard); returns the card that may be put down at once if it
    matches the play: one from the pile, or (`rules.play_taken_discard`) from the previous
    packet."""
    if isinstance(action, TakeDiscard):
        index = _take_discard(s, seat, action.card, events, without_playing)
        if s.config.rules.play_taken_discard and index is not None and index == s.prev_packet:
            return action.card
        return None
    pile = s.pile
    if pile:  # `_pop_pile(s, 1, events)` without its loop: the pile holds the card
        card = pile[-1]
        s.pile = pile[:-1]
    else:
        drawn = _pop_pile(s, 1, events)
        if not drawn:
            events.append(Drew(seat, "pile", None, without_playing))
            return None
        card = drawn[0]
    _receive_from_pile(s, seat, card)
    events.append(Drew(seat, "pile", card, without_playing))
    return card


def _on_draw(s: MatchState, action: Action, events: list[Event]) -> None:
    seat = s.turn
    if s.turn_packet is not None and _declines(s, action):
        events.append(PowerSkipped(seat=seat, rank=s.turn_power))  # type: ignore[arg-type]
    if isinstance(action, UseQueen):
        drawn = _pop_pile(s, s.turn_power_count + 1, events)
        events.append(QueenDrew(seat=seat, count=len(drawn)))
        if len(drawn) > 1:
            s.pile_known = knowledge.drawn_for_a_private_keep(s.pile_known, seat, drawn)
            s.pending = Pending(kind="queen_keep", seat=seat, cards=tuple(drawn))
            return
        for card in drawn:
            _receive_from_pile(s, seat, card)
        _start_powers(s, events)
        return
    card = _draw(s, seat, action, events, False)  # after playing
    if card is not None and extends(s.turn_play, card):
        s.pending = Pending(kind="play_drawn", seat=seat, cards=(card,))
        return
    _start_powers(s, events)


def _declines(s: MatchState, action: Action) -> bool:
    """A plain draw instead of the Queen's, or the pile instead of the Jack's take back."""
    if s.turn_power == QUEEN:
        return not isinstance(action, UseQueen)
    return s.turn_power == JACK and not isinstance(action, TakeDiscard) and bool(jack_reach(s))


def _on_queen_keep(s: MatchState, action: Action, events: list[Event]) -> None:
    assert isinstance(action, QueenKeep)
    seat = s.turn
    _receive_from_pile(s, seat, action.keep)
    s.pile = (*s.pile, *reversed(action.order))
    pile_known = list(s.pile_known)
    pile_known[seat] = pile_known[seat] | frozenset(action.order)
    s.pile_known = tuple(pile_known)
    events.append(
        QueenKept(seat=seat, returned_count=len(action.order), kept=action.keep,
                  returned=action.order)
    )
    _start_powers(s, events)


def _play_at_once(s: MatchState, seat: int, card: Card, events: list[Event]) -> None:
    _set_hand(s, seat, _remove(s.hands[seat], (card,)))
    s.known = knowledge.left_hand(s.known, seat, (card,))
    if s.turn_packet is None:  # the packet was reshuffled away meanwhile: start a new one
        s.discard = (*s.discard, Packet(seat=seat, cards=()))
        s.turn_packet = len(s.discard) - 1
    packet = s.discard[s.turn_packet]
    discard = list(s.discard)
    discard[s.turn_packet] = Packet(seat=seat, cards=(*packet.cards, card))
    s.discard = tuple(discard)
    events.append(Played(seat=seat, cards=(card,), at_once=True))


def _on_play_drawn(s: MatchState, action: Action, events: list[Event]) -> None:
    if isinstance(action, PlayAtOnce):
        _play_at_once(s, s.turn, action.card, events)
    _start_powers(s, events)


def _start_powers(s: MatchState, events: list[Event]) -> None:
    seat = s.turn
    if s.turn_power == 4:
        s.pending = Pending(kind="four_ask", seat=seat, remaining=s.turn_power_count)
        return
    if s.turn_power == KING:
        reason = power_impossible(s, KING)
        if reason is None:
            s.pending = Pending(kind="king", seat=seat, remaining=s.turn_power_count)
            return
        events.append(PowerSkipped(seat=seat, rank=KING, reason=reason))
    _end_turn(s, events)


def _next_four(s: MatchState, remaining: int, events: list[Event]) -> None:
    if remaining > 0:
        s.pending = Pending(kind="four_ask", seat=s.turn, remaining=remaining)
    else:
        _end_turn(s, events)


def _on_four_ask(s: MatchState, action: Action, events: list[Event]) -> None:
    seat = s.turn
    remaining = s.pending.remaining - 1 if s.pending else 0
    if isinstance(action, Skip):
        events.append(PowerSkipped(seat=seat, rank=4))
        _next_four(s, remaining if s.config.rules.decline_each_use else 0, events)
        return
    assert isinstance(action, AskFour)
    events.append(FourAsked(seat=seat, target=action.target, rank=action.rank))
    if any(card.rank == action.rank for card in s.hands[action.target]):
        s.pending = Pending(
            kind="four_give", seat=action.target, other=seat, rank=action.rank,
            remaining=remaining,
        )
        return
    events.append(
        FourAnswered(seat=action.target, asker=seat, rank=action.rank, given=False, card=None)
    )
    _next_four(s, remaining, events)


def _on_four_give(s: MatchState, action: Action, events: list[Event]) -> None:
    assert isinstance(action, GiveCard) and s.pending is not None
    target, asker, rank = s.pending.seat, s.turn, s.pending.rank
    card = action.card
    _set_hand(s, target, _remove(s.hands[target], (card,)))
    _set_hand(s, asker, _add(s.hands[asker], card))
    s.known = knowledge.unlearn(s.known, asker, target, card)
    s.known = knowledge.forget_rank(s.known, target, card.rank, except_viewers=(asker, target))
    s.known = knowledge.learn(s.known, target, asker, card)
    events.append(FourAnswered(seat=target, asker=asker, rank=card.rank, given=True, card=card))
    s.pending = Pending(
        kind="four_exchange", seat=asker, other=target, cards=(card,),
        remaining=s.pending.remaining, rank=rank,
    )


def _on_four_exchange(s: MatchState, action: Action, events: list[Event]) -> None:
    assert isinstance(action, GiveCard) and s.pending is not None
    asker, target = s.turn, s.pending.other
    assert target is not None
    received = s.pending.cards[0]
    remaining = s.pending.remaining
    card = action.card
    _set_hand(s, asker, _remove(s.hands[asker], (card,)))
    _set_hand(s, target, _add(s.hands[target], card))
    s.known = knowledge.unlearn(s.known, target, asker, card)
    s.known = knowledge.forget_owner(s.known, asker, except_viewers=(asker, target))
    s.known = knowledge.learn(s.known, asker, target, card)
    events.append(FourExchanged(seat=asker, target=target, card=card))
    if received.rank == 4 and received in s.hands[asker]:
        s.pending = Pending(
            kind="four_play_received", seat=asker, cards=(received,), remaining=remaining
        )
        return
    _next_four(s, remaining, events)


def _on_four_play_received(s: MatchState, action: Action, events: list[Event]) -> None:
    remaining = s.pending.remaining if s.pending else 0
    if isinstance(action, PlayAtOnce):
        _play_at_once(s, s.turn, action.card, events)
    _next_four(s, remaining, events)


def _on_king(s: MatchState, action: Action, events: list[Event]) -> None:
    seat = s.turn
    assert s.pending is not None
    remaining = s.pending.remaining - 1
    if isinstance(action, Skip):
        events.append(PowerSkipped(seat=seat, rank=KING))
        if remaining > 0 and s.config.rules.decline_each_use:
            s.pending = Pending(kind="king", seat=seat, remaining=remaining)
            return
        _end_turn(s, events)
        return
    assert isinstance(action, KingSwap)
    target, given = action.target, action.card
    _set_hand(s, seat, _remove(s.hands[seat], (given,)))
    _set_hand(s, target, _add(s.hands[target], given))
    target_hand = s.hands[target]
    taken = target_hand[rng(s.seed, "king", s.step).randrange(len(target_hand))]
    _set_hand(s, target, _remove(target_hand, (taken,)))
    _set_hand(s, seat, _add(s.hands[seat], taken))
    known = knowledge.unlearn(s.known, target, seat, given)
    known = knowledge.unlearn(known, seat, target, taken)
    known = knowledge.forget_owner(known, seat, except_viewers=(seat, target))
    known = knowledge.forget_owner(known, target, except_viewers=(seat, target))
    if given != taken:
        known = knowledge.learn(known, seat, target, given)
    known = knowledge.learn(known, target, seat, taken)
    s.known = known
    events.append(KingSwapped(seat=seat, target=target, given=given, taken=taken))
    if remaining > 0 and s.hands[seat]:
        s.pending = Pending(kind="king", seat=seat, remaining=remaining)
        return
    _end_turn(s, events)


def _end_turn(s: MatchState, events: list[Event]) -> None:
    """Apply 6, 7 and 9, pass the turn, and check a YANNIV when it is back to the caller:
    as soon as the turn reaches him, or (`rules.last_lap_each_once`) once every other
    player has played one last turn, a 9 changing only the order they play in."""
    seat = s.turn
    if s.turn_power == 9 and s.turn_power_count % 2 == 1:
        s.direction = -s.direction  # type: ignore[assignment]
        events.append(DirectionChanged(seat=seat, direction=s.direction))
    caller = s.yanniv_caller
    if caller is not None and s.config.rules.last_lap_each_once:
        left = s.last_lap - {seat}
        s.last_lap = left
        nxt = next_in(s, seat, left) if left else caller
    else:
        nxt = (seat + s.direction) % s.config.seats
        if not s.active[nxt]:
            nxt = next_seat(s, seat)
    constraint: Constraint | None = None
    if s.turn_power == 6:
        constraint = _SIX[s.turn_six_colour]  # type: ignore[index]
    elif s.turn_power == 7:
        constraint = _SEVEN
    if constraint is not None:
        events.append(
            ConstraintSet(seat=seat, target=nxt, kind=constraint.kind, colour=constraint.colour)
        )
    s.prev_packet = s.turn_packet
    s.turn = nxt
    s.turn_constraint = constraint
    s.clear_turn()
    if caller == nxt:
        holds = holds_yanniv(s, nxt)
        events.append(YannivChecked(seat=nxt, holds=holds))
        if holds:
            end_manche(s, events)
            return
        s.yanniv_caller = None
    s.pending = TURN_PENDING[nxt]
    events.append(_TURN_STARTED[nxt])


_HANDLERS = {
    "turn": _on_turn,
    "choose_power": _on_choose_power,
    "choose_colour": _on_choose_colour,
    "draw": _on_draw,
    "play_drawn": _on_play_drawn,
    "queen_keep": _on_queen_keep,
    "four_ask": _on_four_ask,
    "four_give": _on_four_give,
    "four_exchange": _on_four_exchange,
    "four_play_received": _on_four_play_received,
    "king": _on_king,
}
