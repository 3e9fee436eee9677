"""An independent model of what each seat may know, and a checker of what it was sent.

Deliberately simple and written from the rule book (`shared/rules/003_…txt`) and QUESTIONS.md,
sharing no code with `yanniv/games/yanniv/rules/knowledge.py`, the views or the redaction: it reads
the
true course of a match (the unredacted events as wire dicts, and the true hands and pile) and
follows each seat's legitimate channels only:

- its own hand, and the cards of a manche revealed at its end;
- every card put down (the discard is public), and a card taken from the discard (everyone
  knows it is in that hand until it leaves it);
- both parties of a 4's give and return and of a King's swap know the cards exchanged; the
  others forget what that exchange could have moved (the asked rank of the target's hand for
  a 4's give, the whole hand for a 4's return, both hands for a King);
- a Queen player knows the order of the cards it put back on the pile, until someone draws
  them: a normal draw (or a Queen that draws a single card) takes the top card, so the seats
  that knew which card that was know who has it; a Queen that draws several cards and keeps
  one privately leaves the others knowing only that those cards are among the ones it drew.

`Checker.check(viewer, view, events)` lists every card identity in a message to `viewer` that
the model says it may not know, field by field; a card code in a field the model has no rule
for is a violation too, so a new field cannot leak unnoticed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import orjson

CARD = re.compile(r"^[A2-9TJQK][SHDC]$")
#: A string that `CARD` matches, as its JSON text writes it: `"QS"` (or `"QS\n"`: `$` lets a
#: final newline through). A quote escaped inside a string follows a backslash, never a card.
_QUOTED_CARD = re.compile(rb'"([A2-9TJQK][SHDC](?:\\n)?)"')


def codes_in(value: Any) -> set[str]:
    """Every card code anywhere in a JSON value: each string that `CARD` matches (and each
    key, stricter still), read off the value's JSON text, which costs a third of the oracle's
    time less than a walk in Python. A value that is not JSON (a set) is an error, not
    skipped."""
    found = _QUOTED_CARD.findall(orjson.dumps(value))
    return {m.decode().replace("\\n", "\n") for m in found} if found else set()


@dataclass
class Truth:
    """The true position of every card after an action, as card codes."""

    hands: list[list[str]]
    #: The draw pile, top card first.
    pile: list[str]
    discard: set[str]
    pending_seat: int | None
    pending_kind: str | None
    pending_cards: list[str]


@dataclass
class Model:
    """Legitimate knowledge: `hand[v][o]` cards v knows o holds, `pile[v]` pile cards whose
    place v knows; index `seats` is a spectator (public knowledge only)."""

    seats: int
    hand: list[list[set[str]]] = field(init=False)
    pile: list[set[str]] = field(init=False)
    #: Every card put down this manche (public), and the hands revealed at each manche's end.
    played: set[str] = field(default_factory=set)
    reveals: list[list[list[str]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        n = self.seats
        self.hand = [[set() for _ in range(n)] for _ in range(n + 1)]
        self.pile = [set() for _ in range(n + 1)]
        self.played = set()

    def viewers(self) -> range:
        return range(self.seats + 1)

    # ---------------------------------------------------------------- channels

    def _public_take(self, seat: int, card: str) -> None:
        for v in self.viewers():
            if v != seat:
                self.hand[v][seat].add(card)

    def _top_drawn(self, seat: int, card: str) -> None:
        """`seat` drew the top card of the pile: whoever knew it was there knows who has it."""
        for v in self.viewers():
            if card in self.pile[v]:
                self.pile[v].discard(card)
                if v != seat:
                    self.hand[v][seat].add(card)

    def _left_in_the_open(self, seat: int, cards: list[str]) -> None:
        for v in self.viewers():
            self.hand[v][seat] -= set(cards)

    def follow(self, event: dict[str, Any], before: Truth, after: Truth) -> None:
        """Update the model with one true (unredacted) event."""
        kind = event["type"]
        if kind in ("MancheStarted", "Misdeal"):
            self.reset()
        elif kind == "Played":
            self._left_in_the_open(event["seat"], event["cards"])
            self.played |= set(event["cards"])
        elif kind == "Drew":
            if event["card"] is None:
                return
            if event["source"] == "discard":
                self._public_take(event["seat"], event["card"])
            else:
                self._top_drawn(event["seat"], event["card"])
        elif kind == "PileReshuffled":
            for v in self.viewers():
                self.pile[v] = set()
        elif kind == "QueenDrew":
            seat = event["seat"]
            if after.pending_kind == "queen_keep" and after.pending_seat == seat:
                drawn = set(after.pending_cards)
                for v in self.viewers():
                    if v != seat:
                        self.pile[v] -= drawn  # which one it keeps is its secret
            else:  # a single card (the pile ran short): no choice, like a normal draw
                for card in set(after.hands[seat]) - set(before.hands[seat]):
                    self._top_drawn(seat, card)
        elif kind == "QueenKept":
            seat = event["seat"]
            self.pile[seat] |= set(event["returned"])
        elif kind == "FourAnswered" and event["given"]:
            target, asker, card = event["seat"], event["asker"], event["card"]
            rank = card[0]
            for v in self.viewers():
                if v == asker:
                    self.hand[v][target].discard(card)
                elif v == target:
                    self.hand[v][asker].add(card)
                else:
                    self.hand[v][target] = {c for c in self.hand[v][target] if c[0] != rank}
        elif kind == "FourExchanged":
            asker, target, card = event["seat"], event["target"], event["card"]
            for v in self.viewers():
                if v == asker:
                    self.hand[v][target].add(card)
                elif v == target:
                    self.hand[v][asker].discard(card)
                else:
                    self.hand[v][asker] = set()
        elif kind == "KingSwapped":
            seat, target = event["seat"], event["target"]
            given, taken = event["given"], event["taken"]
            for v in self.viewers():
                if v == seat:
                    self.hand[v][target] = (self.hand[v][target] | {given}) - {taken}
                elif v == target:
                    self.hand[v][seat] = (self.hand[v][seat] - {given}) | {taken}
                else:
                    self.hand[v][seat] = set()
                    self.hand[v][target] = set()
        elif kind == "MancheEnded":
            self.reveals.append([list(h) for h in event["hands"]])


# ---------------------------------------------------------------- what a message may name

#: Event fields that may carry cards, and who may see them (the rest must carry none).
def _event_allows(kind: str, name: str, event: dict[str, Any], viewer: int | None,
                  knew_pile: set[str]) -> bool:
    if kind == "Played" and name == "cards":
        return True
    if kind == "MancheStarted" and name == "flipped":
        return True  # the card turned up to start the discard
    if kind == "MancheEnded" and name == "hands":
        return True
    if kind == "Drew" and name == "card":
        return (event["source"] == "discard" or viewer == event["seat"]
                or event["card"] in knew_pile)
    if kind == "QueenKept" and name in ("kept", "returned"):
        return viewer == event["seat"]
    if kind == "FourAnswered" and name == "card":
        return viewer in (event["seat"], event["asker"])
    if kind in ("FourExchanged", "KingSwapped") and name in ("card", "given", "taken"):
        return viewer in (event["seat"], event["target"])
    return False


class Checker:
    """Follows one match and checks each recipient's messages against the model."""

    def __init__(self, seats: int) -> None:
        self.model = Model(seats)
        self.seats = seats

    def _row(self, viewer: int | None) -> int:
        return self.seats if viewer is None else viewer

    def pile_knowledge(self, viewer: int | None) -> set[str]:
        return set(self.model.pile[self._row(viewer)])

    def check_view(self, viewer: int | None, view: dict[str, Any], truth: Truth) -> list[str]:
        problems: list[str] = []
        row = self._row(viewer)
        rest = dict(view)
        own = set(truth.hands[viewer]) if viewer is not None else set()
        hand = rest.pop("hand")
        if viewer is None:
            if hand is not None:
                problems.append("a spectator was sent a hand")
        elif set(hand or ()) != own:
            problems.append(f"hand {hand} is not the seat's hand")
        for player in rest.pop("players"):
            seat, known = player["seat"], set(player["known_cards"])
            if seat == viewer:
                if not known <= own:
                    problems.append(f"own known_cards {sorted(known - own)} not in hand")
                continue
            illegit = known - self.model.hand[row][seat]
            if illegit:
                problems.append(f"players[{seat}].known_cards shows {sorted(illegit)}")
            if not known <= set(truth.hands[seat]):
                problems.append(f"players[{seat}].known_cards claims {sorted(known)} falsely")
        pile_known = rest.pop("pile_known")
        illegit = set(pile_known) - self.model.pile[row]
        if illegit:
            problems.append(f"pile_known shows {sorted(illegit)}")
        if list(pile_known) != truth.pile[: len(pile_known)]:
            problems.append(f"pile_known {pile_known} is not the top of the pile")
        public = truth.discard
        for name in ("discard", "takeable"):
            stray = codes_in(rest.pop(name)) - public
            if stray:
                problems.append(f"{name} names {sorted(stray)} that are not on the discard")
        stray = codes_in(rest.pop("turn_play")) - self.model.played
        if stray:
            problems.append(f"turn_play names {sorted(stray)} never put down")
        pending = rest.pop("pending")
        own_pending: set[str] = set()
        if pending is not None:
            cards = set(pending.get("cards") or ())
            if pending["seat"] != viewer:
                if cards or codes_in(pending):
                    problems.append(f"another seat's pending shows {sorted(codes_in(pending))}")
            elif not cards <= own | set(truth.pending_cards):
                problems.append(f"own pending shows {sorted(cards)}")
            else:
                own_pending = cards
        allowed = own | public | own_pending
        stray = codes_in(rest.pop("legal_actions")) - allowed
        if stray:
            problems.append(f"legal_actions name {sorted(stray)}")
        past = list(rest.pop("history"))
        last = rest.pop("last_result")
        if last is not None:
            past.append(last)
        for result in past:
            if [list(h) for h in result["hands"]] not in self.model.reveals:
                problems.append(f"a past result shows hands {result['hands']} never revealed")
        stray = codes_in(rest)
        if stray:
            problems.append(f"cards {sorted(stray)} in fields with no rule: {sorted(rest)}")
        return problems

    def check_events(self, viewer: int | None, seen: list[dict[str, Any]],
                     true_events: list[dict[str, Any]], knew_pile: set[str]) -> list[str]:
        """`seen`: the events as sent to `viewer`; `true_events`: the same, unredacted;
        `knew_pile`: the pile cards whose place the viewer legitimately knew before."""
        problems: list[str] = []
        if [e["type"] for e in seen] != [e["type"] for e in true_events]:
            return [f"events {[e['type'] for e in seen]} differ from what happened"]
        for shown, true in zip(seen, true_events, strict=True):
            for name, value in shown.items():
                cards = codes_in(value)
                if cards and not _event_allows(shown["type"], name, true, viewer, knew_pile):
                    problems.append(f"{shown['type']}.{name} shows {sorted(cards)}")
        return problems
