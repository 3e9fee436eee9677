"""Computer players (`facile`, `moyen`, `difficile`) that decide from a seat's view only.

Server integration, all a room needs:

    bot = make_bot("moyen", seat, seed)       # once, when the bot takes the seat
    bot.observe(redacted_events)              # after every apply (events as redacted for seat)
    await asyncio.sleep(human_delay(seen))    # when state.to_act == seat, seen = view(...)
    action = choose_action("moyen", seen, bot)   # in a worker thread: difficile searches

`choose_action` never sees the state; `memory` is the seat's `Bot` (its card tracking).
"""

from __future__ import annotations

from yanniv.games.yanniv.bots.base import Bot
from yanniv.games.yanniv.bots.pace import human_delay
from yanniv.games.yanniv.bots.registry import LEVELS, make_bot
from yanniv.games.yanniv.rules.actions import Action
from yanniv.games.yanniv.rules.view import MatchView

__all__ = ["LEVELS", "Bot", "choose_action", "human_delay", "make_bot"]


def choose_action(level: str, view: MatchView, memory: Bot | None = None) -> Action:
    """One legal action for `view.viewer`, chosen by a bot of `level`.

    `memory` is the `Bot` made by `make_bot(level, seat)` and fed with `observe`; without it
    a fresh bot decides from the view alone (slightly weaker: no negative card tracking).
    """
    assert view.viewer is not None and view.legal_actions, "the seat must have a decision"
    bot = memory if memory is not None else make_bot(level, view.viewer, view.step)
    action = bot.decide(view)
    if action not in view.legal_actions:  # defensive: a bot bug must not stall a room
        return view.legal_actions[0]
    return action
