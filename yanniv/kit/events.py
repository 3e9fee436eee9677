"""What happened, as each seat may see it: the base of every game's events, and `redact`.

An event is a frozen dataclass. Fields named in `private` hold what only the seats of
`parties()` may see (a card drawn from the pile: its drawer); `redact(event, viewer)` gives
every other viewer the same event with those fields blanked (None). `parties()` returning
`EVERYONE` shows the private fields to all (a card taken from the discard was seen by all).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import ClassVar

#: `parties()` of an event whose private fields everybody may see after all.
EVERYONE: tuple[int, ...] = (-1,)


@dataclass(frozen=True, slots=True)
class Event:
    """Base: `private` names the fields only `parties()` may see."""

    private: ClassVar[tuple[str, ...]] = ()

    def parties(self) -> tuple[int, ...]:
        return ()


#: Each private event's hidden form, made once: it is the same for every viewer it is hidden
#: from, and a change is redacted for each seat. A bound, not a policy.
_HIDDEN: dict[Event, Event] = {}
_HIDDEN_BOUND = 4096


def shown_to_all(event: Event) -> bool:
    """Whether `redact` gives every viewer `event` as it is (it has no private field): a
    change made of such events only is written once for all its seats."""
    return not event.private


def redact(event: Event, viewer: int | None) -> Event:
    """The event as `viewer` may see it (None: a spectator); private fields become None."""
    if not event.private:
        return event
    parties = event.parties()
    if parties == EVERYONE or (viewer is not None and viewer in parties):
        return event
    hidden = _HIDDEN.get(event)
    if hidden is None:
        hidden = replace(event, **{name: None for name in event.private})
        if len(_HIDDEN) >= _HIDDEN_BOUND:
            _HIDDEN.clear()
        _HIDDEN[event] = hidden
    return hidden


def event_fields(event: Event) -> dict[str, object]:
    """Field values by name, for serializers outside the rules."""
    return {f.name: getattr(event, f.name) for f in fields(event)}
