"""Classic Yaniv as a platform game: the rule book `001_…txt`, its settings, codec and bots.

The rules are `yanniv.games.yaniv.rules`, the messages `yaniv_codec`, the computer players
`yaniv_bots`; this module only says how the platform reaches them.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar

from yanniv.games.interface import (
    BotLevel,
    Game,
    GameSettings,
    MancheOutcome,
    MatchOutcome,
    setting,
)
from yanniv.games.yaniv import bots as yaniv_bots
from yanniv.games.yaniv import codec as yaniv_codec
from yanniv.games.yaniv.rules import turn as rules
from yanniv.games.yaniv.rules.cards import CALL_LIMIT
from yanniv.games.yaniv.rules.model import (
    ACE_BONUS,
    ASSAF_PENALTY,
    HAND_SIZE,
    JOKER_BONUS,
    LANDINGS,
    MAX_SEATS,
    MIN_SEATS,
    MIN_THRESHOLD,
    THRESHOLD,
    TWO_DECKS_ALWAYS,
    TWO_DECKS_FROM,
    Event,
    MatchView,
    YanivConfig,
    YanivState,
)
from yanniv.kit.events import redact

RULES_VERSION = "yaniv-1"


class YanivSettings(GameSettings):
    """What the host of a Yaniv room chooses for the rules."""

    two_decks: bool = setting(
        False, fr=f"Deux jeux de cartes (108 cartes) à partir de {TWO_DECKS_FROM} joueurs",
        en=f"Two decks (108 cards) from {TWO_DECKS_FROM} players")
    threshold: int = setting(
        THRESHOLD, fr="Seuil de points qui fait perdre", en="Points over which a player loses",
        ge=MIN_THRESHOLD, le=THRESHOLD)
    elimination: bool = setting(
        False, fr="Élimination : qui dépasse le seuil sort, le dernier en jeu gagne",
        en="Elimination: over the threshold you leave, the last one in wins")


def decks_for(settings: YanivSettings, seats: int) -> int:
    """Two decks when chosen and allowed (from 5 seats), always at 8 seats."""
    if seats >= TWO_DECKS_ALWAYS:
        return 2
    return 2 if settings.two_decks and seats >= TWO_DECKS_FROM else 1


class YanivGame(Game):
    id: ClassVar[str] = "yaniv"
    name_fr: ClassVar[str] = "Yaniv"
    name_en: ClassVar[str] = "Yaniv"
    min_seats: ClassVar[int] = MIN_SEATS
    max_seats: ClassVar[int] = MAX_SEATS
    rules_version: ClassVar[str] = RULES_VERSION
    settings_model: ClassVar[type[GameSettings]] = YanivSettings
    illegal_error: ClassVar[type[Exception]] = rules.YanivIllegal
    bot_levels: ClassVar[tuple[BotLevel, ...]] = (
        BotLevel("facile", "facile", "easy", 0),
        BotLevel("moyen", "moyen", "medium", 1),
    )

    def limits(self, settings: GameSettings) -> dict[str, Any]:
        assert isinstance(settings, YanivSettings)
        return {
            "hand_size": HAND_SIZE, "call_limit": CALL_LIMIT, "assaf_penalty": ASSAF_PENALTY,
            "threshold": settings.threshold, "min_seats": MIN_SEATS, "max_seats": MAX_SEATS,
            "two_decks_from": TWO_DECKS_FROM, "two_decks_always_from": TWO_DECKS_ALWAYS,
            "ace_bonus": ACE_BONUS, "joker_bonus": JOKER_BONUS,
            # Exact totals brought down, as [from, to, from, to…] (limits hold integers).
            "landings": [n for pair in sorted(LANDINGS.items()) for n in pair],
        }

    def simulation_finished(self, state: Any, counts: Counter) -> None:
        for result in state.history:
            counts["assafs"] += result.assaf
            counts["brought_down"] += len(result.brought_down)
            counts["eliminated"] += len(result.eliminated)

    def simulation_figures(self, counts: Counter, matches: int) -> dict[str, Any]:
        calls = counts["calls"]  # every Yaniv manche ends with a call
        return {
            "assafs": counts["assafs"],
            "assaf_rate": round(counts["assafs"] / calls, 4) if calls else 0.0,
            # Totals landing on exactly 100 or 200, brought down to 50 or 100.
            "brought_down": counts["brought_down"],
            "eliminated": counts["eliminated"],
        }

    def end_condition(self, settings: GameSettings) -> str:
        assert isinstance(settings, YanivSettings)
        if settings.elimination:
            return f"elimination over {settings.threshold} points"
        return f"a total over {settings.threshold} points"

    def match_config(self, settings: GameSettings, seats: int,
                     first_player: int | None) -> YanivConfig:
        assert isinstance(settings, YanivSettings)
        return YanivConfig(seats=seats, decks=decks_for(settings, seats),
                           threshold=settings.threshold, elimination=settings.elimination,
                           first_player=first_player)

    def config_to_data(self, config: Any) -> dict[str, Any]:
        assert isinstance(config, YanivConfig)
        return {"seats": config.seats, "decks": config.decks, "threshold": config.threshold,
                "elimination": config.elimination, "first_player": config.first_player}

    def config_from_data(self, data: Mapping[str, Any], rules_version: str) -> YanivConfig:
        if rules_version != RULES_VERSION:
            raise ValueError(f"unknown Yaniv rules version {rules_version!r}")
        return YanivConfig(seats=data["seats"], decks=data["decks"],
                           threshold=data["threshold"], elimination=data["elimination"],
                           first_player=data.get("first_player"))

    def new_match(self, config: Any, seed: str) -> tuple[YanivState, tuple[Event, ...]]:
        return rules.start_match(config, seed)

    def to_act(self, state: YanivState) -> int | None:
        return state.to_act

    def step(self, state: YanivState) -> int:
        return state.step

    def is_over(self, state: YanivState) -> bool:
        return state.finished

    legal_actions = staticmethod(rules.legal_actions)
    apply = staticmethod(rules.apply)
    view = staticmethod(rules.view)
    redact = staticmethod(redact)

    def default_action(self, state: YanivState) -> Any:
        seat = state.to_act
        assert seat is not None
        return yaniv_bots.default_action(rules.view(state, seat))

    def outcome(self, state: YanivState) -> MatchOutcome | None:
        if not state.finished:
            return None
        manches = tuple(
            MancheOutcome(number=r.manche, tiebreak=r.tiebreak, participants=r.participants,
                          caller=r.caller, caller_won=not r.assaf, winner=r.winner,
                          points=r.points, deltas=r.deltas)
            for r in state.history
        )
        return MatchOutcome(totals=state.scores, ranking=state.ranking, manches=manches,
                            lower_wins=True)

    # The codec module's own functions (no wrapper frame on the socket's hot path).
    decode_action = staticmethod(yaniv_codec.decode_action)
    encode_action = staticmethod(yaniv_codec.encode_action)
    view_encoder = staticmethod(yaniv_codec.view_memo)
    encode_events = staticmethod(yaniv_codec.encode_events)
    events_text = staticmethod(yaniv_codec.encode_events.text)
    protocol_schemas = staticmethod(yaniv_codec.protocol_defs)

    def policy_names(self) -> tuple[str, ...]:
        return tuple(yaniv_bots.scripted_policies())

    def scripted_policy(self, name: str, seed: str) -> Any:
        return yaniv_bots.scripted_policies()[name](seed)

    def make_bot(self, level: str, seat: int, seed: str) -> yaniv_bots.YanivBot:
        if level not in yaniv_bots.LEVELS:
            raise KeyError(level)
        return yaniv_bots.YanivBot(level, seat, seed)

    def bot_decide(self, bot: Any, view: MatchView) -> Any:
        return bot.decide(view)

    def bot_delay(self, view: MatchView, rng: random.Random | None) -> float:
        return yaniv_bots.bot_delay(view, rng)


GAME = YanivGame()
