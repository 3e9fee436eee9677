"""YANNIV as a platform game: the rule book `003_…txt`, its settings, codec and bots.

Everything here delegates: the rules are `yanniv.games.yanniv.rules`, the messages `yanniv_codec`,
the
computer players `yanniv.games.yanniv.bots`. This module only says how the platform reaches them.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from operator import attrgetter
from typing import Any, ClassVar

from yanniv.games.interface import (
    BotLevel,
    Game,
    GameSettings,
    MancheOutcome,
    MatchOutcome,
    setting,
)
from yanniv.games.yanniv import codec as yanniv_codec
from yanniv.games.yanniv import figures as yanniv_figures
from yanniv.games.yanniv import schema as yanniv_schema
from yanniv.games.yanniv.bots import LEVELS, choose_action, human_delay, make_bot
from yanniv.games.yanniv.bots.base import Bot
from yanniv.games.yanniv.bots.policies import POLICIES, default_action
from yanniv.games.yanniv.rules import (
    MatchConfig,
    MatchState,
    apply,
    legal_actions,
    redact,
    start_match,
    view,
)
from yanniv.games.yanniv.rules.actions import Action
from yanniv.games.yanniv.rules.errors import IllegalActionError
from yanniv.games.yanniv.rules.events import Event
from yanniv.games.yanniv.rules.ruleset import (
    LEGACY_YANNIV,
    RULES_VERSION,
    YANNIV,
    Ruleset,
    ruleset_from_dict,
)
from yanniv.games.yanniv.rules.view import MatchView

#: Rules versions a stored match may carry, and the rules each stands for beyond its
#: stored options. "yanniv-1": every match stored before rules were stored with matches
#: (optional powers, the old last lap); the migration gives them this version.
_LEGACY_VERSION = "yanniv-1"

_TO_ACT: Any = MatchState.to_act.fget  # a property: the pending decision's seat
_STEP: Any = attrgetter("step")
_IS_OVER: Any = attrgetter("finished")


class YannivSettings(GameSettings):
    """What the host of a YANNIV room chooses for the rules."""

    manches: int = setting(6, fr="Nombre de manches", en="Number of rounds",
                           ge=YANNIV.min_manches, le=YANNIV.max_manches)
    mandatory_powers: bool = setting(
        YANNIV.mandatory_powers, fr="Pouvoirs obligatoires", en="Powers are mandatory")
    play_taken_discard: bool = setting(
        YANNIV.play_taken_discard,
        fr="Poser aussitôt une carte reprise dans la défausse",
        en="Put down at once a card taken from the discard")


class YannivGame(Game):
    id: ClassVar[str] = "yanniv"
    name_fr: ClassVar[str] = "YANNIV"
    name_en: ClassVar[str] = "YANNIV"
    min_seats: ClassVar[int] = YANNIV.min_seats
    max_seats: ClassVar[int] = YANNIV.max_seats
    rules_version: ClassVar[str] = RULES_VERSION
    settings_model: ClassVar[type[GameSettings]] = YannivSettings
    illegal_error: ClassVar[type[Exception]] = IllegalActionError
    bot_levels: ClassVar[tuple[BotLevel, ...]] = (
        BotLevel("facile", "facile", "easy", 0),
        BotLevel("moyen", "moyen", "medium", 1),
        BotLevel("difficile", "difficile", "hard", 2),
    )

    # ---------------------------------------------------------------- settings and rules

    def ruleset(self, settings: GameSettings) -> Ruleset:
        assert isinstance(settings, YannivSettings)
        return Ruleset(mandatory_powers=settings.mandatory_powers,
                       play_taken_discard=settings.play_taken_discard)

    def limits(self, settings: GameSettings) -> dict[str, Any]:
        rules = self.ruleset(settings)
        return {
            "hand_size": rules.hand_size, "call_limit": rules.call_limit,
            "jack_reach": rules.jack_reach, "winner_bonus": rules.winner_bonus,
            "power_ranks": sorted(rules.power_ranks),
            "min_seats": rules.min_seats, "max_seats": rules.max_seats,
            "min_manches": rules.min_manches, "max_manches": rules.max_manches,
        }

    simulation_noted = yanniv_figures.NOTED
    simulation_note = staticmethod(yanniv_figures.note)

    def simulation_figures(self, counts: Counter, matches: int) -> dict[str, Any]:
        return yanniv_figures.figures(counts, matches)

    def end_condition(self, settings: GameSettings) -> str:
        assert isinstance(settings, YannivSettings)
        return f"{settings.manches} manches"

    def match_config(self, settings: GameSettings, seats: int,
                     first_player: int | None) -> MatchConfig:
        assert isinstance(settings, YannivSettings)
        return MatchConfig(seats=seats, manches=settings.manches, first_player=first_player,
                           rules=self.ruleset(settings))

    def config_to_data(self, config: Any) -> dict[str, Any]:
        assert isinstance(config, MatchConfig)
        return {"seats": config.seats, "manches": config.manches,
                "first_player": config.first_player, "rules": config.rules.to_dict()}

    def config_from_data(self, data: Mapping[str, Any], rules_version: str) -> MatchConfig:
        if rules_version not in (_LEGACY_VERSION, RULES_VERSION):
            raise ValueError(f"unknown YANNIV rules version {rules_version!r}")
        stored = data.get("rules")
        if stored is None:
            rules = LEGACY_YANNIV if rules_version == _LEGACY_VERSION else YANNIV
        else:
            rules = ruleset_from_dict(dict(stored))
        return MatchConfig(seats=data["seats"], manches=data["manches"],
                           first_player=data.get("first_player"), rules=rules)

    # ---------------------------------------------------------------- a match

    def new_match(self, config: Any, seed: str) -> tuple[MatchState, tuple[Event, ...]]:
        return start_match(config, seed)

    # The hot path (one call per decision in simulate, the tournament and the server) reaches
    # the engine's own functions: a wrapper method would add a Python frame to every call.
    to_act = staticmethod(_TO_ACT)
    step = staticmethod(_STEP)
    is_over = staticmethod(_IS_OVER)
    legal_actions = staticmethod(legal_actions)
    apply = staticmethod(apply)
    view = staticmethod(view)
    redact = staticmethod(redact)

    def default_action(self, state: MatchState) -> Action:
        return default_action(state)

    def outcome(self, state: MatchState) -> MatchOutcome | None:
        if not state.finished:
            return None
        manches = tuple(
            MancheOutcome(
                number=r.manche, tiebreak=r.tiebreak, participants=tuple(r.participants),
                caller=r.caller,
                caller_won=None if r.caller is None else r.winner == r.caller,
                winner=r.winner, points=tuple(r.points), deltas=tuple(r.deltas),
            )
            for r in state.manche_history
        )
        return MatchOutcome(totals=tuple(state.scores), ranking=tuple(state.ranking),
                            manches=manches, lower_wins=True)

    # ---------------------------------------------------------------- the codec

    # The codec module's own functions (no wrapper frame on the socket's hot path).
    decode_action = staticmethod(yanniv_codec.decode_action)
    encode_action = staticmethod(yanniv_codec.encode_action)
    view_encoder = staticmethod(yanniv_codec.view_memo)
    encode_events = staticmethod(yanniv_codec.encode_events)
    events_text = staticmethod(yanniv_codec.encode_events.text)
    protocol_schemas = staticmethod(yanniv_schema.protocol_defs)

    # ---------------------------------------------------------------- computer players

    def policy_names(self) -> tuple[str, ...]:
        return tuple(POLICIES)

    def scripted_policy(self, name: str, seed: str) -> Any:
        return POLICIES[name](seed)

    def make_bot(self, level: str, seat: int, seed: str) -> Bot:
        if level not in LEVELS:
            raise KeyError(level)
        return make_bot(level, seat, seed)

    def bot_decide(self, bot: Any, view: MatchView) -> Action:
        return choose_action(bot.level, view, bot)

    def bot_delay(self, view: MatchView, rng: random.Random) -> float:
        return human_delay(view, rng)


GAME = YannivGame()
