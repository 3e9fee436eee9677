"""fastsim's rollout turns are turns the real engine accepts and ends at the same point.

From engine states (random play, under several rulesets) the exact world is built (every
hand, the pile's order), fastsim's policy plays one turn, and its decisions are replayed
through the engine's `apply`: every one must be legal, the engine must demand no power that
the rollout left out (a mandatory 4, King, Jack or Queen) and the turn must end where the
rollout ends it, with the same hands, packet, next seat and constraint. The world is built
here from the state, not with the search's own sampling, so the check shares no code with
what it checks.
"""

from __future__ import annotations

import random

import pytest

from tests.games.yanniv.bots.conftest import random_states
from yanniv.games.yanniv.bots import fastsim
from yanniv.games.yanniv.rules import DECK, apply, legal_actions
from yanniv.games.yanniv.rules.actions import (
    Action,
    AskFour,
    CallYanniv,
    ChooseColour,
    ChoosePower,
    DrawPile,
    GiveCard,
    KingSwap,
    Play,
    PlayAtOnce,
    QueenKeep,
    Skip,
    TakeDiscard,
    UseQueen,
)
from yanniv.games.yanniv.rules.ruleset import YANNIV, Ruleset
from yanniv.games.yanniv.rules.state import MatchState

BY_KEY = {card.key: card for card in DECK}
RULESETS = {
    "default": YANNIV,
    "optional": Ruleset(mandatory_powers=False),
    "discard_play": Ruleset(play_taken_discard=True),
    "optional_discard_play": Ruleset(mandatory_powers=False, play_taken_discard=True),
}
KEEP = 6  # newest packets kept apart in the world (fastsim.PACKETS is the module's own)


def exact_world(s: MatchState) -> fastsim.World:
    """The state as a fastsim world, every card where the engine has it."""
    discard = s.discard
    split = max(0, len(discard) - KEEP)
    packets = [[c.key for c in p.cards] for p in discard[split:]]
    dead = [c.key for p in discard[:split] for c in p.cards]
    prev = None
    if s.prev_packet is not None:
        prev = packets[s.prev_packet - split] if s.prev_packet >= split else [
            c.key for c in discard[s.prev_packet].cards
        ]
    c = s.turn_constraint
    code = fastsim.FREE
    if c is not None:
        code = fastsim.SEVEN if c.kind == "seven" else (
            fastsim.SIX_RED if c.colour == "red" else fastsim.SIX_BLACK
        )
    return fastsim.World(
        [[card.key for card in hand] for hand in s.hands], [card.key for card in s.pile],
        packets, dead, prev, s.turn, s.direction, s.yanniv_caller, code, list(s.active),
        set(s.last_lap), s.config.rules,
    )


class Recorder(fastsim.Sim):
    """fastsim's own policy, noting the decisions the engine will be asked for."""

    def __init__(self) -> None:
        super().__init__(random.Random(0))
        self.played: list[int] | None = None
        self.power = 0
        self.take: int | None = None
        self.kings: list[tuple[int, int]] = []
        self.asks: list[tuple[int, int, int | None]] = []

    def after_play(self, w, played, power, count, take=None):  # type: ignore[no-untyped-def]
        self.played, self.power = list(played), power
        return super().after_play(w, played, power, count, take)

    def choose_take(self, w, hand, power, count, played=None):  # type: ignore[no-untyped-def]
        self.take = super().choose_take(w, hand, power, count, played)
        return self.take

    def king_swap(self, w, seat, give, target):  # type: ignore[no-untyped-def]
        self.kings.append((give, target))
        super().king_swap(w, seat, give, target)

    def four_ask(self, w, seat, target, rank):  # type: ignore[no-untyped-def]
        before = list(w.hands[seat])
        super().four_ask(w, seat, target, rank)
        given = [k for k in before if k not in w.hands[seat]]
        self.asks.append((target, rank, given[0] if given else None))


def act(s: MatchState, action: Action) -> MatchState:
    assert action in legal_actions(s), (action, s.pending)
    return apply(s, action)[0]


def kind(s: MatchState) -> str | None:
    return s.pending.kind if s.pending is not None else None


def replay(s: MatchState, w: fastsim.World, rec: Recorder) -> MatchState:
    """Carry fastsim's turn out in the engine; returns the state once the turn is over."""
    seat = s.turn
    if w.caller == seat and s.yanniv_caller is None:
        return act(s, CallYanniv())
    if rec.played is not None:
        packet = w.packets[-1] if w.packets else []
        at_once = [k for k in packet if k not in rec.played]
        s = act(s, Play(tuple(BY_KEY[k] for k in rec.played)))
        if kind(s) == "choose_power":
            s = act(s, ChoosePower(rec.power))
        if kind(s) == "choose_colour":
            six = next(k for k in rec.played if fastsim.RANK[k] == 6)
            s = act(s, ChooseColour("red" if fastsim.RED[six] else "black"))
    else:
        at_once = []
    if kind(s) == "draw" or rec.played is None:
        assert rec.take is not None, f"the engine asks for a draw the rollout left out: {s.pending}"
        take = rec.take
        if take == fastsim.QUEEN_DRAW:
            s = act(s, UseQueen())
            if kind(s) == "queen_keep":
                drawn = s.pending.cards
                keep = next(c for c in drawn if c.key in w.hands[seat])
                back = [BY_KEY[k] for k in reversed(w.pile[len(w.pile) - len(drawn) + 1:])]
                s = act(s, QueenKeep(keep, tuple(back)))
        else:
            s = act(s, DrawPile() if take == fastsim.PILE else TakeDiscard(BY_KEY[take]))
            if kind(s) == "play_drawn":
                card = s.pending.cards[0]
                s = act(s, PlayAtOnce(card) if card.key in at_once else Skip())
    asks, kings = list(rec.asks), list(rec.kings)
    while kind(s) in ("four_ask", "four_give", "four_exchange", "four_play_received"):
        step = kind(s)
        if step == "four_ask":
            if asks:
                target, rank, _ = asks[0]
                s = act(s, AskFour(target, rank))
                if kind(s) != "four_give":
                    asks.pop(0)
            elif not s.config.rules.mandatory_powers:
                s = act(s, Skip())
            else:  # the policy made no exchange: a rank the target lacks
                target = rec.victim(w, seat)
                held = {c.rank for c in s.hands[target]}
                s = act(s, AskFour(target, next(r for r in range(1, 14) if r not in held)))
        elif step == "four_give":
            target, rank, given = asks.pop(0)
            s = act(s, GiveCard(next(c for c in s.hands[target] if c.rank == rank)))
            assert given is not None
            s = act(s, GiveCard(BY_KEY[given]))
        else:
            s = act(s, PlayAtOnce(s.pending.cards[0]))
    while kind(s) == "king":
        assert kings, "the engine demands a King swap the rollout did not make"
        give, target = kings.pop(0)
        card = BY_KEY[give]
        if card not in s.hands[seat]:  # the first swap took a card at random: hands differ
            card = s.hands[seat][-1]
        s = act(s, KingSwap(card, target))
    assert not kings and not asks, "the rollout used a power the engine did not offer"
    return s


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_rollout_turns_are_engine_turns(name: str) -> None:
    checked = taken_down = 0
    for state in random_states(seed=23, matches=12, seats=4, rules=RULESETS[name]):
        if state.pending is None or state.pending.kind != "turn" or len(state.pile) < 6:
            continue
        w = exact_world(state)
        rec = Recorder()
        over = rec.turn(w)
        manche = state.manche
        after = replay(state, w, rec)
        if rec.kings and (over or after.finished or after.manche != manche):
            continue  # a King took a card at random: whether the call holds may differ
        if over:
            assert after.finished or after.manche != manche
            continue
        assert after.manche == manche and kind(after) == "turn"
        assert after.turn == w.turn
        assert after.direction == w.direction
        expected = exact_world(after)
        assert expected.constraint == w.constraint
        assert expected.packets[-1:] == w.packets[-1:]
        if not rec.kings:  # a King takes a card at random: hands differ from there on
            assert expected.hands == w.hands
            assert expected.pile == w.pile
        checked += 1
        taken = rec.take is not None and rec.take >= 0
        taken_down += taken and rec.played is not None and rec.take in w.packets[-1]
    assert checked > 300
    # The option is modelled, not only allowed: the rollout puts a taken card down at once.
    assert (taken_down > 0) == RULESETS[name].play_taken_discard
