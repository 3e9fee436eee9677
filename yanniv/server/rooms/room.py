"""A room in memory: its seats (`seat.py`), settings, live match and connections, and what each
one sees.

The live engine state stays here between actions (no replay in normal operation); every
message to a connection is built from that connection's own seat's view only.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

import orjson

from yanniv.games import DEFAULT_GAME, Game, get_game
from yanniv.kit.events import Event
from yanniv.server.realtime.connections import Connection
from yanniv.server.realtime.protocol import (
    JournalOut,
    PresenceOut,
    RoomSettings,
    outgoing_bytes,
    state_bytes,
)
from yanniv.server.rooms.seat import Seat
from yanniv.server.rooms.shared_events import POOL
from yanniv.server.rooms.tokens import hash_token, same_hash

Status = Literal["waiting", "playing", "finished"]

#: Events of the match kept for the journal a (re)connecting socket receives: about the last
#: hundred lines the client shows (it writes nothing for a `TurnStarted`).
JOURNAL_EVENTS = 160
#: Client action ids remembered per seat of a match, the newest: its client has at most one
#: action in flight and retries only that one; two tabs of one seat make two; 4 leaves room.
SEEN_IDS = 4


@functools.cache
def _your_seat(seat: int | None) -> bytes:
    """The end of a summary (`Room.summary_head`) for one seat, or a spectator (None)."""
    return b',"your_seat":' + orjson.dumps(seat) + b"}"


@dataclass(eq=False)
class LiveMatch:
    """The match in play (or just finished): its seed, config, live state and action log."""

    id: int
    seed: str
    #: The game's config (ruleset included) and the rules code version it was stored with.
    config: Any
    state: Any
    rules_version: str
    pseudos: list[str]
    started_at: datetime
    deadline_ms: int | None = None
    #: The retry ids of each seat's latest `SEEN_IDS` applied actions (a client retries its
    #: one unanswered action, and sends no other before it is answered), by seat index, as
    #: `_ID_RECORD`s in one bytes object a seat, oldest first: ~0.8 KB a room, where a dict
    #: of a string key and a bytes value an id took ~2.7 KB; a look-up is one `bytes.find`.
    #: The action log itself lives in the database, not here: memory stays flat over a match.
    seen: list[bytes] = field(default_factory=list)
    #: The latest events of the match as the engine made them (not redacted: each socket
    #: gets them through `Game.encode_events`, the path of the live broadcast), oldest
    #: first. Equal events of all rooms are one object (`shared_events`), and a tuple is
    #: half the memory of a bounded deque of the same events.
    journal: tuple[Event, ...] = ()

    def remember(self, events: tuple[Event, ...] | list[Event]) -> None:
        if not events:
            return
        kept = self.journal + POOL.share(events)
        self.journal = kept[-JOURNAL_EVENTS:] if len(kept) > JOURNAL_EVENTS else kept

    def acknowledged(self, seat: int, client_id: str, version: int, fingerprint: bytes) -> None:
        """Remember the id of an applied action (for retries), forgetting that seat's oldest
        beyond `SEEN_IDS`."""
        seen, size = self.seen, _ID_RECORD.size
        while len(seen) <= seat:
            seen.append(b"")
        digest = _id_digest(client_id)
        mine = seen[seat]
        at = _find_record(mine, digest)
        if at >= 0:  # the same id again: one record, the latest
            mine = mine[:at] + mine[at + size:]
        if len(mine) >= SEEN_IDS * size:
            mine = mine[size:]
        seen[seat] = mine + _ID_RECORD.pack(digest, version, fingerprint)

    def acknowledgement(self, seat: int, client_id: str) -> tuple[int, bytes] | None:
        """The version acknowledged for this seat's `client_id` and the fingerprint of what
        was sent under it, or None if that id is not (or no longer) remembered."""
        if seat >= len(self.seen):
            return None
        mine = self.seen[seat]
        at = _find_record(mine, _id_digest(client_id))
        if at < 0:
            return None
        _, version, fingerprint = _ID_RECORD.unpack_from(mine, at)
        return version, fingerprint

    def retry_ids(self) -> int:
        """How many retry ids are remembered (all seats)."""
        return sum(map(len, self.seen)) // _ID_RECORD.size


@functools.lru_cache(maxsize=256)
def _settings_parts(game: Game, settings: RoomSettings) -> tuple[dict[str, Any], dict[str, Any]]:
    """`settings` as data and the game's limits under them, one pair for all the rooms whose
    settings are equal (most keep the defaults): ~2 KB a room when each had its own. Shared,
    so read-only."""
    return settings.model_dump(), game.limits(settings)


#: A remembered retry id: an 8-byte digest of the client's id (its `hash`: ids are up to 64
#: characters, and the records live in this process only, rebuilt from the log by a restore;
#: two of one seat's four sharing a digest is a 2^-62 event), the room version its `ack`
#: carried and the `action_fingerprint` of what was sent under it.
_ID_RECORD = struct.Struct(">8sQ16s")
_DIGEST = struct.Struct(">q")


def _id_digest(client_id: str) -> bytes:
    return _DIGEST.pack(hash(client_id))


def _find_record(records: bytes, digest: bytes) -> int:
    """The offset of the record whose id has this digest, or -1 (a match that straddles two
    records' other fields is skipped)."""
    size = _ID_RECORD.size
    at = records.find(digest)
    while at >= 0 and at % size:
        at = records.find(digest, at + 1)
    return at


def action_fingerprint(version: int, wire: dict[str, Any]) -> bytes:
    """16 bytes standing for an action message's payload: the version it was decided on and
    the action in its stored form (`Game.decode_action(...).data`, so restarts agree)."""
    data = orjson.dumps([version, wire], option=orjson.OPT_SORT_KEYS)
    return hashlib.blake2b(data, digest_size=16).digest()


@dataclass(eq=False)
class Room:
    code: str
    status: Status
    host_seat: int
    settings: RoomSettings
    version: int
    created_at: datetime
    updated_at: datetime
    seats: list[Seat] = field(default_factory=list)
    match: LiveMatch | None = None
    connections: set[Connection] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: The game this room plays (`settings` names it); views go through its encoder.
    game: Game = field(default_factory=lambda: get_game(DEFAULT_GAME))
    encoder: Any = None
    #: The epoch of this process's lease on the room (`leases`): every write is fenced on it.
    lease_epoch: int = 0
    #: Told after each broadcast (the lobby feed, `lobby_feed.LobbyFeed.touched`), if set.
    watcher: Callable[[Room], None] | None = field(default=None, repr=False)
    _settings_cache: tuple[RoomSettings, dict[str, Any], dict[str, Any]] | None = None
    #: `summary_head` around the version, with what it was written from (`_head_key`).
    _head_cache: tuple[tuple[Any, ...], RoomSettings, bytes, bytes] | None = None

    def __post_init__(self) -> None:
        if self.encoder is None:
            self.encoder = self.game.view_encoder()

    def settings_data(self) -> dict[str, Any]:
        """`settings` as JSON-ready data, dumped once per change of settings (read-only)."""
        return self._settings_cached()[1]

    def limits_data(self) -> dict[str, Any]:
        """The game's numbers under these settings (`Game.limits`), for the client's texts."""
        return self._settings_cached()[2]

    def _settings_cached(self) -> tuple[RoomSettings, dict[str, Any], dict[str, Any]]:
        cached = self._settings_cache
        if cached is None or cached[0] is not self.settings:
            try:
                parts = _settings_parts(self.game, self.settings)
            except TypeError:  # a game's settings with an unhashable field: this room's own
                parts = _settings_parts.__wrapped__(self.game, self.settings)
            cached = self._settings_cache = (self.settings, *parts)
        return cached

    # ------------------------------------------------------------ seats

    def seat_for_token(self, token: str | None) -> Seat | None:
        if not token:
            return None
        wanted = hash_token(token)
        for seat in self.seats:
            if same_hash(seat.token_hash, wanted):
                return seat
        return None

    def seat_at(self, index: int) -> Seat | None:
        seats = self.seats
        if 0 <= index < len(seats) and seats[index].seat == index:  # kept in order: most often
            return seats[index]
        return next((s for s in seats if s.seat == index), None)

    def humans_connected(self) -> bool:
        return any(s.connections > 0 for s in self.seats if not s.is_bot)

    def bot_seats(self) -> list[Seat]:
        return [s for s in self.seats if s.is_bot]

    # ------------------------------------------------------------ snapshots for the store

    def row(self) -> dict[str, Any]:
        return {
            "code": self.code, "game": self.game.id, "public": self.settings.public,
            "status": self.status,
            "host_seat": self.host_seat, "settings": self.settings_data(),
            "version": self.version, "created_at": self.created_at, "updated_at": self.updated_at,
            "lease_epoch": self.lease_epoch,
        }

    # ------------------------------------------------------------ what clients receive

    def summary(self, your_seat: int | None) -> dict[str, Any]:
        """The room summary (RoomSummary in protocol.py) as JSON-ready data."""
        data = self._summary_fields()
        data["your_seat"] = your_seat
        return data

    def summary_head(self) -> bytes:
        """The summary's JSON without `your_seat` and its closing brace: written once per
        change, then finished for each seat (`state_text`). Most changes (an action) change
        only the version: the text on either side of it is kept while what it was written
        from stays the same (`tests/server/test_room_summary_memory.py` checks it)."""
        key = self._head_key()
        cached = self._head_cache
        if cached is None or cached[1] is not self.settings or cached[0] != key:
            fields = self._summary_fields()
            del fields["version"]
            before = {name: fields.pop(name) for name in ("code", "public", "status")}
            cached = self._head_cache = (
                key, self.settings,
                orjson.dumps(before)[:-1] + b',"version":',
                b"," + orjson.dumps(fields)[1:-1],
            )
        return b"".join((cached[2], b"%d" % self.version, cached[3]))

    def _head_key(self) -> tuple[Any, ...]:
        """Everything of the summary but the version and the settings (compared apart, by
        identity: a change of settings replaces them)."""
        return (self.code, self.status, self.host_seat, self._seat_rows())

    def _seat_rows(self) -> tuple[tuple[Any, ...], ...]:
        """What the summary shows of each seat (`_summary_fields` writes it from these)."""
        return tuple([(s.seat, s.pseudo, s.connections > 0 or s.is_bot, s.is_bot, s.bot_level)
                      for s in self.seats])

    def _summary_fields(self) -> dict[str, Any]:
        """The summary as data; a field added here is added to `_head_key` too."""
        host = self.host_seat
        return {
            "code": self.code,
            "public": self.settings.public,
            "status": self.status,
            "version": self.version,
            "host_seat": host,
            "seats": [
                {"seat": seat, "pseudo": pseudo, "connected": connected,
                 "is_host": seat == host, "is_bot": is_bot, "bot_level": level}
                for seat, pseudo, connected, is_bot, level in self._seat_rows()
            ],
            "settings": self.settings_data(),
            "limits": self.limits_data(),
        }

    def state_text(self, seat: int | None, events: tuple[Event, ...] | list[Event],
                   summary: bytes | None = None) -> bytes:
        """The `state` message for one seat (or a spectator): its own view, redacted events.
        `summary`: the room summary's JSON up to `your_seat` (`summary_head`), when the
        caller wrote it once for several seats."""
        view_text = b"null"
        events_text = b"[]"
        deadline = None
        if self.match is not None:
            game = self.game
            state = self.match.state
            view_text = self.encoder.wire_text(
                game.view(state, seat, self.settings.show_known_cards), state
            )
            events_text = game.events_text(events, seat)
            deadline = self.match.deadline_ms
        if summary is None:
            summary = self.summary_head()
        return state_bytes(self.version, b"".join((summary, _your_seat(seat))), view_text,
                           events_text, deadline)

    def journal_text(self, seat: int | None) -> bytes | None:
        """The `journal` message for one seat (or a spectator), None while no match exists."""
        if self.match is None:
            return None
        return outgoing_bytes(JournalOut, version=self.version,
                        events=self.game.encode_events(self.match.journal, seat))

    def broadcast(self, events: tuple[Event, ...] | list[Event] = (),
                  lead: tuple[Connection, bytes] | None = None) -> None:
        """Queue the new state to every connection, serialized once per seat. The events are
        the match's journal too: what was broadcast is what a reconnecting socket reads.
        `lead`: a connection and a message it gets first (an `ack`), in the same write as
        its state."""
        if events and self.match is not None:
            self.match.remember(events)
        first, answer = lead if lead is not None else (None, b"")
        if first is not None and first not in self.connections:
            first.send(answer)
        texts: dict[int | None, bytes] = {}
        summary = self.summary_head()
        for conn in list(self.connections):
            key = conn.seat_index
            text = texts.get(key)
            if text is None:
                text = texts[key] = self.state_text(key, events, summary)
            if conn is first:
                conn.send_both(answer, text)
            else:
                conn.send(text)
        if self.watcher is not None:
            self.watcher(self)

    def broadcast_presence(self) -> None:
        text = outgoing_bytes(
            PresenceOut,
            version=self.version,
            seats=[{"seat": s.seat, "connected": s.connections > 0 or s.is_bot}
                   for s in self.seats],
        )
        for conn in list(self.connections):
            conn.send(text)
        if self.watcher is not None:
            self.watcher(self)
