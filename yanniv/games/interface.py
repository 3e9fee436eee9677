"""What every game on the platform is: one value behind one interface.

The server, the lobby, profiles, the CLI and the client host a game only through this
interface (OpenSpiel's Game/State split, boardgame.io's game object): a game is a value that
says who may sit, what the host may choose, how a match starts, who must act, what is legal,
what an action does, what each seat may see, how its messages are written, how a match ends
and which computer players can play it. States, actions, views and events stay the game's
own types; the platform only passes them back to the game that made them.
"""

from __future__ import annotations

import sys
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Protocol

import orjson
from pydantic import BaseModel, ConfigDict, Field


class WireError(ValueError):
    """A message that does not describe a well-formed action: `reason` is a key the server
    turns into French and English text (`yanniv.server.errors.WIRE_PROBLEMS`), `subject` the
    offending name or value."""

    def __init__(self, reason: str, subject: object = "") -> None:
        super().__init__(f"{reason}: {subject}" if subject != "" else reason)
        self.reason = reason
        self.subject = subject


class GameSettings(BaseModel):
    """Base of a game's settings model: what the host chooses for the rules of one match.

    Strict and closed (no unknown field, no conversion), frozen so that a match can hold it.
    Every field carries French and English labels (`setting`), from which the lobby form is
    drawn; its bounds are the validation, so the form and the checks cannot disagree.
    """

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


def setting(default: Any, *, fr: str, en: str, **bounds: Any) -> Any:
    """A settings field with its lobby labels (`label_fr`, `label_en` in its JSON Schema)."""
    return Field(default, json_schema_extra={"label_fr": fr, "label_en": en}, **bounds)


def parse_options(items: list[str] | None) -> dict[str, Any]:
    """Command-line `NAME=JSON` settings overrides as a dict (`NAME` alone means true)."""
    import json

    options: dict[str, Any] = {}
    for item in items or []:
        key, _, raw = item.partition("=")
        try:
            options[key] = json.loads(raw) if raw else True
        except ValueError:
            raise SystemExit(f"--option {item}: the value is JSON (true, false, 3)") from None
    return options


@dataclass(frozen=True, slots=True)
class DecodedAction:
    """An action read from a message, with the JSON-ready form the log stores (canonical:
    the same action always gives the same `data`, so nothing is re-encoded)."""

    action: Any
    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class MancheOutcome:
    """One manche (or round) as it ended, in seat order."""

    number: int
    tiebreak: bool
    #: Seats that played it (a tiebreak is played by the seats tied for the lead).
    participants: tuple[int, ...]
    #: The seat that ended it by a call, if any, and whether that call won.
    caller: int | None
    caller_won: bool | None
    winner: int | None
    points: tuple[int, ...]
    deltas: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """A finished match: what profiles and the final ranking need, game-independent."""

    totals: tuple[int, ...]
    #: Seats from first to last.
    ranking: tuple[int, ...]
    manches: tuple[MancheOutcome, ...]
    #: True when the lowest total wins (YANNIV, Yaniv), False when the highest does.
    lower_wins: bool


class BotMemory(Protocol):
    """A computer player's memory of one seat: fed the events as redacted for its seat."""

    def observe(self, events: Iterable[Any]) -> None: ...

    def decide(self, view: Any) -> Any: ...


@dataclass(frozen=True, slots=True)
class BotLevel:
    """A computer player a game offers: its key, names in both languages and its strength
    rank (0 the weakest), used to sort levels in the lobby."""

    key: str
    name_fr: str
    name_en: str
    strength: int


class Game(ABC):
    """One game of the platform. Subclasses are stateless: one instance per game, in the
    registry (`yanniv.games.GAMES`)."""

    #: Stable identifier stored with every room and match (`"yanniv"`).
    id: ClassVar[str]
    name_fr: ClassVar[str]
    name_en: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    #: Identifies the rules code a match is played under; stored with each match, so a
    #: replay uses the rules it was played with (`ruleset_from_data` maps old versions).
    rules_version: ClassVar[str]
    settings_model: ClassVar[type[GameSettings]]
    bot_levels: ClassVar[tuple[BotLevel, ...]]

    # ---------------------------------------------------------------- settings and rules

    def default_settings(self) -> GameSettings:
        return self.settings_model()

    def settings_with(self, **changes: Any) -> GameSettings:
        """The default settings with `changes` (fields the game lacks are ignored only for
        `manches`, the CLI's common option); ValidationError for a bad value."""
        data = self.default_settings().model_dump()
        if "manches" not in data:
            changes.pop("manches", None)
        return self.settings_model.model_validate({**data, **changes})

    def settings_schema(self) -> dict[str, Any]:
        """The settings model's JSON Schema (with the `label_fr` / `label_en` of each field)."""
        return self.settings_model.model_json_schema()

    def rules_file(self, lang: str) -> Path:
        """Where this game's rules page for players is written in `lang` ("fr", "en"): the
        `rules.<lang>.md` of the game's own folder."""
        module = sys.modules[type(self).__module__]
        return Path(str(module.__file__)).resolve().parent / f"rules.{lang}.md"

    def describe(self) -> dict[str, Any]:
        """What `GET /api/games` says of this game."""
        return {
            "id": self.id, "name_fr": self.name_fr, "name_en": self.name_en,
            "min_seats": self.min_seats, "max_seats": self.max_seats,
            "rules_version": self.rules_version,
            "settings": self.settings_schema(),
            "bots": [
                {"level": b.key, "name_fr": b.name_fr, "name_en": b.name_en}
                for b in self.bot_levels
            ],
            "limits": self.limits(self.default_settings()),
        }

    @abstractmethod
    def limits(self, settings: GameSettings) -> dict[str, Any]:
        """Numbers the client shows or checks (hand size, call limit…), from the rules."""

    #: Event types `simulation_note` is shown in `yanniv simulate` (each event is counted by
    #: type anyway): the few a game's figures need, so the loop costs one set lookup.
    simulation_noted: ClassVar[frozenset[type]] = frozenset()

    def simulation_note(self, event: Any, kind: type, counts: Counter) -> None:  # noqa: B027
        """(Optional.) Tally into `counts` what an event of a `simulation_noted` type tells."""

    def simulation_figures(self, counts: Counter, matches: int) -> dict[str, Any]:
        """The game's own figures in `yanniv simulate`'s summary, from `counts` (each event
        type's count, plus what `simulation_note` and `simulation_finished` added)."""
        return {}

    def simulation_finished(self, state: Any, counts: Counter) -> None:  # noqa: B027
        """(Optional.) Tally what a finished match tells (once per match, off the hot loop)."""

    @abstractmethod
    def end_condition(self, settings: GameSettings) -> str:
        """How a match under `settings` ends, in a few English words for reports (the
        tournament's header): "6 manches", "a total over 200 points"."""

    @abstractmethod
    def match_config(self, settings: GameSettings, seats: int, first_player: int | None) -> Any:
        """The frozen value a match is played under (its ruleset included), for `settings`
        under the current `rules_version`; `first_player` None draws it from the seed."""

    @abstractmethod
    def config_to_data(self, config: Any) -> dict[str, Any]:
        """JSON-ready form of a match config, stored with the match beside `rules_version`."""

    @abstractmethod
    def config_from_data(self, data: Mapping[str, Any], rules_version: str) -> Any:
        """The config a stored match was played under; old `rules_version`s keep their rules,
        so an old log replays exactly as it was played."""

    # ---------------------------------------------------------------- a match

    @abstractmethod
    def new_match(self, config: Any, seed: str) -> tuple[Any, tuple[Any, ...]]:
        """The state after the first deal, and the events of that deal."""

    @abstractmethod
    def to_act(self, state: Any) -> int | None:
        """The seat that must decide now (not always the turn player); None once over."""

    @abstractmethod
    def step(self, state: Any) -> int:
        """Number of actions applied since the start (the length of the action log)."""

    @abstractmethod
    def is_over(self, state: Any) -> bool: ...

    @abstractmethod
    def legal_actions(self, state: Any) -> tuple[Any, ...]: ...

    @abstractmethod
    def apply(self, state: Any, action: Any) -> tuple[Any, tuple[Any, ...]]:
        """The next state and its events; raises the game's illegal-action error (with a
        French and an English reason) and changes nothing when `action` is not legal."""

    @abstractmethod
    def view(self, state: Any, seat: int | None, show_known_cards: bool = True) -> Any:
        """What `seat` (None: a spectator) may know, and nothing else."""

    @abstractmethod
    def redact(self, event: Any, seat: int | None) -> Any:
        """The event as `seat` may see it."""

    @abstractmethod
    def default_action(self, state: Any) -> Any:
        """What the timer plays for the seat that must act, decided from its view only."""

    @abstractmethod
    def outcome(self, state: Any) -> MatchOutcome | None:
        """The result once the match is over, else None."""

    def replay(self, config: Any, seed: str,
               actions: Iterable[Mapping[str, Any]]) -> tuple[Any, tuple[Any, ...]]:
        """The state rebuilt from a seed and a stored action log, and the last events."""
        state, events = self.new_match(config, seed)
        for data in actions:
            state, events = self.apply(state, self.decode_action(data).action)
        return state, events

    # ---------------------------------------------------------------- the codec

    @abstractmethod
    def decode_action(self, data: Any) -> DecodedAction:
        """Parse an action message; `WireError` when it is malformed."""

    @abstractmethod
    def encode_action(self, action: Any) -> dict[str, Any]: ...

    @abstractmethod
    def view_encoder(self) -> Any:
        """A per-room encoder with `.view(view) -> dict` (it may keep a memo between calls),
        `.wire(view, shared=None)`, the same data for `orjson.dumps` only: parts of it, or all
        of it, may be `orjson.Fragment`s, and `.wire_text(view, shared=None)`, its JSON text
        (the server's messages; `shared` the state the view was built from;
        `fast_json.ViewMemo`)."""

    @abstractmethod
    def encode_events(self, events: Iterable[Any], seat: int | None) -> list[dict[str, Any]]:
        """The events as `seat` may see them, JSON-ready."""

    def events_text(self, events: Iterable[Any], seat: int | None) -> bytes:
        """`encode_events` as JSON text, for the server's messages; a game's codec may write
        it once for all the seats that see the same thing (`fast_json.EventWriter.text`)."""
        return orjson.dumps(self.encode_events(events, seat))

    @abstractmethod
    def protocol_schemas(self) -> dict[str, Any]:
        """JSON Schemas of this game's action, view and event messages."""

    # ---------------------------------------------------------------- computer players

    @abstractmethod
    def policy_names(self) -> tuple[str, ...]:
        """Scripted policies for benchmarks (`yanniv simulate`): cheap, not computer players."""

    @abstractmethod
    def scripted_policy(self, name: str, seed: str) -> Any:
        """A function view → legal action; KeyError for an unknown name."""

    @abstractmethod
    def make_bot(self, level: str, seat: int, seed: str) -> BotMemory:
        """A fresh computer player of `level` for `seat`; KeyError for an unknown level."""

    @abstractmethod
    def bot_decide(self, bot: BotMemory, view: Any) -> Any:
        """The bot's legal action for its pending decision (a bot bug must not stall a room)."""

    @abstractmethod
    def bot_delay(self, view: Any, rng: Any) -> float:
        """Seconds a bot seems to think before acting on `view`, so a table feels human."""
