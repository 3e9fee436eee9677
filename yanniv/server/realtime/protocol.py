"""Every message of the WebSocket protocol and every HTTP body, as pydantic models.

Incoming messages are validated with these models. Outgoing ones have these models' shapes
but are written straight to JSON by `outgoing` (orjson, once per recipient): building a
pydantic object per message would cost more than the rest of an action. Tests validate every
message a client receives against `SERVER_MESSAGE`. `docs/PROTOCOL.md` has examples.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

# ---------------------------------------------------------------- room settings and summaries


#: Incoming bodies and messages: no unknown field, and no conversion (`"yes"` is not a
#: boolean, `true` is not a version, `"6"` is not a number).
STRICT = ConfigDict(extra="forbid", strict=True)


class RoomSettings(BaseModel):
    """The host's choices that every game has. A room's settings are these plus its game's
    own (`yanniv.server.rooms.room_settings.settings_model`), in one flat object."""

    # The published schema keeps the description it had before the server's modules were
    # grouped by role (issue 56 keeps the committed schemas byte-identical).
    model_config = ConfigDict(**STRICT, json_schema_extra={"description": (
        "The host's choices that every game has. A room's settings are these plus its game's\n"
        "own (`yanniv.server.room_settings.settings_model`), in one flat object.")})

    #: The registered game the room plays.
    game: str = "yanniv"
    public: bool = False
    #: "random", "host", or a seat index.
    first_player: Literal["random", "host"] | int = "random"
    show_known_cards: bool = True
    log_visible: bool = True
    #: Seconds per decision, or None for no timer.
    timer_seconds: int | None = None


class SeatSummary(BaseModel):
    seat: int
    pseudo: str
    connected: bool
    is_host: bool
    is_bot: bool = False
    #: A computer player's level (`facile`, `moyen`, `difficile`); null for a person.
    bot_level: str | None = None


class RoomSummary(BaseModel):
    code: str
    public: bool
    status: Literal["waiting", "playing", "finished"]
    version: int
    host_seat: int
    seats: list[SeatSummary]
    #: `RoomSettings` and the room's game's own settings, flat (the schema says which).
    settings: dict[str, Any]
    #: The room's game's numbers under its settings (`Game.limits`: YANNIV's call limit,
    #: winner's score…), so a client writes its texts without copies of the rules.
    limits: dict[str, Any]
    your_seat: int | None


class PublicRoom(BaseModel):
    code: str
    game: str
    host: str
    seats_taken: int
    seats_free: int
    created_at: str


# ---------------------------------------------------------------- HTTP bodies


class CreateRoomIn(BaseModel):
    model_config = STRICT

    pseudo: str
    public: bool = False
    #: A registered game's id (`GET /api/games`).
    game: str = "yanniv"


class JoinRoomIn(BaseModel):
    model_config = STRICT

    pseudo: str


class AddBotIn(BaseModel):
    """The host seats a computer player of this level on the next free seat."""

    model_config = STRICT

    level: str = "moyen"


class SeatGranted(BaseModel):
    """Answer to create/join: the seat token is given once, keep it (e.g. in localStorage)."""

    code: str
    seat: int
    token: str
    room: RoomSummary


class ErrorBody(BaseModel):
    code: str
    message: str
    message_en: str


class GameBot(BaseModel):
    level: str
    name_fr: str
    name_en: str


class GameOut(BaseModel):
    """A game rooms may play (`GET /api/games`)."""

    id: str
    name_fr: str
    name_en: str
    min_seats: int
    max_seats: int
    rules_version: str
    #: JSON Schema of the game's own settings (labels `label_fr` / `label_en` per field).
    settings: dict[str, Any]
    bots: list[GameBot]
    #: Numbers the client shows: hand size, call limit… (integers or lists of integers).
    limits: dict[str, Any]
    #: Seconds per decision a host may choose (the platform's, the same for every game).
    timer_range: list[int]


# ---------------------------------------------------------------- client → server


class ActionIn(BaseModel):
    """Play an engine action against room version `version`; `id` is chosen by the client."""

    model_config = STRICT

    type: Literal["action"]
    id: Annotated[str, Field(min_length=1, max_length=64)]
    version: int
    action: dict[str, Any]


class PingIn(BaseModel):
    model_config = STRICT

    type: Literal["ping"]


CLIENT_TYPES = ("action", "ping")
ClientMessage = Annotated[ActionIn | PingIn, Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[ActionIn | PingIn] = TypeAdapter(ClientMessage)
_ACTION_ID_MAX: int = next(m.max_length for m in ActionIn.model_fields["id"].metadata
                           if getattr(m, "max_length", None) is not None)


def plain_action(data: Any) -> tuple[str, int, dict[str, Any]] | None:
    """An action message's id, version and action without pydantic's validation when `data`
    is plainly one (the four fields of `ActionIn`, of their exact types, the id's length in
    bounds): every action a client sends, at a small part of the cost. None for anything
    else, which `CLIENT_MESSAGE` then validates and words the errors of.
    `tests/server/test_plain_action.py` checks that this accepts nothing `ActionIn` refuses,
    and reads it the same."""
    if type(data) is not dict or len(data) != 4 or data.get("type") != "action":
        return None
    message_id = data.get("id")
    version = data.get("version")
    action = data.get("action")
    if (type(message_id) is not str or not 1 <= len(message_id) <= _ACTION_ID_MAX
            or type(version) is not int or type(action) is not dict):
        return None
    return message_id, version, action


# ---------------------------------------------------------------- server → client


class StateOut(BaseModel):
    """After every change: the room, this connection's own view, and the change's events."""

    type: Literal["state"] = "state"
    version: int
    room: dict[str, Any]
    view: dict[str, Any] | None
    events: list[dict[str, Any]]
    #: When the seat that must act will be played for (epoch ms), or None without a timer.
    deadline: int | None


class AckOut(BaseModel):
    type: Literal["ack"] = "ack"
    id: str
    version: int


class ErrorOut(BaseModel):
    type: Literal["error"] = "error"
    id: str | None
    code: str
    message: str
    message_en: str


class PongOut(BaseModel):
    type: Literal["pong"] = "pong"


class PresenceOut(BaseModel):
    """A seat connected or left; no version change (nothing of the game changed)."""

    type: Literal["presence"] = "presence"
    version: int
    seats: list[dict[str, Any]]


class JournalOut(BaseModel):
    """On connect, after the first `state`: the match's latest events, oldest first, redacted
    for this connection exactly as they were when broadcast, so a page opened again shows the
    journal it had. Not sent while no match exists (the lobby)."""

    type: Literal["journal"] = "journal"
    version: int
    events: list[dict[str, Any]]


#: Every server → client message model (the schema lists them from here).
SERVER_MODELS = (StateOut, AckOut, ErrorOut, PongOut, PresenceOut, JournalOut)
ServerMessage = Annotated[
    StateOut | AckOut | ErrorOut | PongOut | PresenceOut | JournalOut,
    Field(discriminator="type"),
]
SERVER_MESSAGE: TypeAdapter[
    StateOut | AckOut | ErrorOut | PongOut | PresenceOut | JournalOut
] = TypeAdapter(ServerMessage)
_TYPE_TAGS: dict[type[BaseModel], str] = {
    model: model.model_fields["type"].default for model in SERVER_MODELS
}


def outgoing(model: type[BaseModel], **fields: Any) -> str:
    """JSON text of a server → client message of `model`'s shape (its `type` tag added)."""
    return orjson.dumps({"type": _TYPE_TAGS[model], **fields}).decode()


def outgoing_bytes(model: type[BaseModel], **fields: Any) -> bytes:
    """`outgoing` as UTF-8 bytes, for the hot path: a socket's direct frame write takes them
    as they are (`connections.Connection`), with no decode and encode again."""
    return orjson.dumps({"type": _TYPE_TAGS[model], **fields})


_STATE_HEAD = b'{"type":"%s","version":' % _TYPE_TAGS[StateOut].encode()


def state_bytes(version: int, room: bytes, view: bytes, events: bytes,
                deadline: int | None) -> bytes:
    """A `StateOut` message from the JSON texts of its parts, joined: what
    `outgoing_bytes(StateOut, ...)` writes (`tests/server/test_state_message.py` checks it), without
    a dict and a second copy of every part per seat."""
    return b"".join((_STATE_HEAD, b"%d" % version, b',"room":', room, b',"view":', view,
                     b',"events":', events, b',"deadline":',
                     b"null" if deadline is None else b"%d" % deadline, b"}"))
