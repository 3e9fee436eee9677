"""The lobby: create a room, join it, seat a computer player, change settings, remove a seat,
start the match, and go back to the lobby for a rematch.

Every change of an existing room is one `change_room` under the room's lock (checks first,
then the write, then memory and the broadcast), so a refused or failed request changes
nothing. Creating a room is the exception: there is no room to lock yet, and a code already
used by an old room in the database is simply drawn again.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from typing import Any

from sqlalchemy.exc import IntegrityError

from yanniv.db.session import Database
from yanniv.games import DEFAULT_GAME, Game, get_game
from yanniv.profiles.identity import pseudo_key
from yanniv.server.errors import game_error
from yanniv.server.realtime.connections import CLOSE_REMOVED
from yanniv.server.realtime.protocol import ErrorOut, outgoing
from yanniv.server.rooms import bot_turns as bots
from yanniv.server.rooms.bot_turns import bot_pseudo
from yanniv.server.rooms.changes import change_room, utcnow
from yanniv.server.rooms.codes import new_code
from yanniv.server.rooms.idle import IdleRooms
from yanniv.server.rooms.play import Play
from yanniv.server.rooms.pseudos import confusable
from yanniv.server.rooms.room import LiveMatch, Room
from yanniv.server.rooms.room_settings import default_settings, patched_settings
from yanniv.server.rooms.seat import Seat, new_bot_seat, new_seat
from yanniv.server.rooms.tokens import new_token
from yanniv.server.rooms.validation import clean_pseudo
from yanniv.server.store.room_store import RoomStore

log = logging.getLogger(__name__)


class Lobby:
    """Changes of rooms before and between matches, on `rooms` (shared with the registry)."""

    def __init__(self, db: Database, store: RoomStore, rooms: dict[str, Room], play: Play,
                 idle: IdleRooms) -> None:
        self.db = db
        self.store = store
        self.rooms = rooms
        #: Arms the first deadline and bot turn of a match, disarms them at a rematch.
        self.play = play
        self.idle = idle
        #: Seeds of new matches; tests may replace it to replay a known match.
        self.seed_factory: Callable[[], str] = lambda: secrets.token_hex(8)
        #: Told after each broadcast of a room (the lobby feed: `Room.watcher`).
        self.watcher: Callable[[Room], None] | None = None
        self._created = 0

    # ------------------------------------------------------------ seats

    async def _check_pseudo(self, pseudo: str, owner_secret: str | None) -> None:
        refusal = await self.db.run(self.store.check_pseudo, pseudo, owner_secret)
        if refusal is not None:
            raise game_error("pseudo_owned", *refusal)

    async def create(self, raw_pseudo: object, public: bool, owner_secret: str | None,
                     game: Game | None = None) -> tuple[Room, Seat, str]:
        """A new room of `game` (the default game if None) with its creator as host."""
        game = game or get_game(DEFAULT_GAME)
        pseudo = clean_pseudo(raw_pseudo)
        self._created += 1
        if self._created % 256 == 0:
            self.idle.forget_old_rooms()
        await self._check_pseudo(pseudo, owner_secret)
        now = utcnow()
        token = new_token()
        for _attempt in range(20):
            code = new_code()
            if code in self.rooms:
                continue
            seat = new_seat(0, pseudo, token, owner_secret, now)
            room = Room(code=code, status="waiting", host_seat=0, game=game,
                        settings=default_settings(game, public=public), version=1,
                        created_at=now, updated_at=now, seats=[seat], watcher=self.watcher)
            try:
                room.lease_epoch = await self.db.run(self.store.create_room, room.row(),
                                                     seat.row())
            except IntegrityError:  # code used by an old room in the database
                continue
            self.rooms[code] = room
            self.idle.watch_humans(room)  # closed if its host never connects
            self.play.metrics.room_created(room)
            log.info("room %s: created (%s, %s)", code, game.id,
                     "public" if public else "private")
            return room, seat, token
        raise game_error("server_error")

    async def join(self, room: Room, raw_pseudo: object,
                   owner_secret: str | None) -> tuple[Seat, str]:
        pseudo = clean_pseudo(raw_pseudo)
        await self._check_pseudo(pseudo, owner_secret)
        async with room.lock:
            if room.status != "waiting":
                raise game_error("room_started")
            if len(room.seats) >= room.game.max_seats:
                raise game_error("room_full")
            key = pseudo_key(pseudo)
            for seated in room.seats:
                # The profiles' key: two spellings of one profile are one pseudo ("Léa"
                # composed or decomposed, full-width letters), not look-alikes.
                if pseudo_key(seated.pseudo) == key:
                    raise game_error("pseudo_taken")
                if confusable(seated.pseudo, pseudo):
                    raise game_error("pseudo_confusable", seated.pseudo)
            token = new_token()
            seat = new_seat(len(room.seats), pseudo, token, owner_secret, utcnow())
            await self._seat(room, seat)
            return seat, token

    async def add_bot(self, room: Room, actor: Seat, level: object) -> Seat:
        """The host seats a computer player of `level` on the next free seat (room waiting)."""
        async with room.lock:
            _require_host(room, actor)
            if room.status != "waiting":
                raise game_error("not_waiting")
            if not isinstance(level, str) or level not in {b.key for b in room.game.bot_levels}:
                raise game_error("bad_bot_level")
            if len(room.seats) >= room.game.max_seats:
                raise game_error("room_full")
            pseudo = bot_pseudo(level, (s.pseudo for s in room.seats))
            seat = new_bot_seat(len(room.seats), pseudo, level, utcnow())
            await self._seat(room, seat)
            return seat

    async def _seat(self, room: Room, seat: Seat) -> None:
        """Persist a new seat, then show it to everyone (call under the room's lock)."""
        await change_room(
            self.db, room, lambda snapshot: self.store.add_seat(snapshot, seat.row()),
            lambda _: room.seats.append(seat), what="a new seat", lost=self.play.drop,
        )
        self.idle.watch_humans(room)  # a table nobody connects to leaves no room behind

    async def remove_seat(self, room: Room, actor: Seat, index: int) -> None:
        """The host removes a seated player, or a player leaves, while the room waits."""
        async with room.lock:
            if actor.seat != index:
                _require_host(room, actor)
            if room.status != "waiting":
                raise game_error("not_waiting")
            target = room.seat_at(index)
            if target is None:
                raise game_error("seat_not_found")
            if target.seat == room.host_seat:
                raise game_error("cannot_remove_host")
            remaining = [s for s in room.seats if s is not target]
            rows = [{**s.row(), "seat": number} for number, s in enumerate(remaining)]
            host = next(n for n, s in enumerate(remaining) if s.seat == room.host_seat)
            settings = room.settings
            if isinstance(settings.first_player, int) and settings.first_player >= len(remaining):
                settings = settings.model_copy(update={"first_player": "random"})

            def commit(_: None) -> None:
                for number, s in enumerate(remaining):
                    s.seat = number
                room.seats = remaining
                room.settings = settings
                _kick(room, target)  # before the broadcast: the removed seat hears no more

            await change_room(
                self.db, room, lambda snapshot: self.store.update_room(snapshot, rows), commit,
                what="a seat's removal", host_seat=host, settings=settings.model_dump(),
                lost=self.play.drop,
            )

    # ------------------------------------------------------------ settings, start, rematch

    async def update_settings(self, room: Room, seat: Seat, patch: object,
                              based_on: int | None = None) -> None:
        """The host changes the fields of `patch`; `based_on`, the room version the host saw
        them at: refused if the room changed since (the client reloads and applies again)."""
        async with room.lock:
            _require_host(room, seat)
            if room.status != "waiting":
                raise game_error("not_waiting")
            if based_on is not None and based_on != room.version:
                raise game_error("stale_settings", room.version)
            settings = patched_settings(room.settings, patch)
            if settings == room.settings:  # nothing changes: no new version, no broadcast
                return
            game = get_game(settings.game)
            if len(room.seats) > game.max_seats:
                raise game_error("too_many_for_game", game.max_seats)
            _require_bot_levels(room, game)

            def commit(_: None) -> None:
                if game is not room.game:
                    room.game = game
                    room.encoder = game.view_encoder()
                room.settings = settings

            await change_room(
                self.db, room, lambda snapshot: self.store.update_room(snapshot), commit,
                what="settings", settings=settings.model_dump(), public=settings.public,
                game=game.id, lost=self.play.drop,
            )

    async def start(self, room: Room, actor: Seat) -> None:
        async with room.lock:
            _require_host(room, actor)
            if room.status != "waiting":
                raise game_error("not_waiting")
            if len(room.seats) < 2:
                raise game_error("not_enough_players")
            first = room.settings.first_player
            first_seat = (None if first == "random"
                          else room.host_seat if first == "host" else int(first))
            if first_seat is not None and first_seat >= len(room.seats):
                raise game_error("first_player_absent")
            game = room.game
            config = game.match_config(room.settings, len(room.seats), first_seat)
            seed = self.seed_factory()
            state, events = game.new_match(config, seed)
            now = utcnow()
            deadline = self.play.deadline(room, game.is_over(state))
            config_data = game.config_to_data(config)
            match_row: dict[str, Any] = {
                "seed": seed, "game": game.id, "rules_version": game.rules_version,
                "config": config_data, "seats": len(room.seats),
                "manches": config_data.get("manches", 0),
                "first_player": first_seat, "pseudos": [s.pseudo for s in room.seats],
                "started_at": now, "deadline_ms": deadline,
            }

            def commit(match_id: int) -> None:
                room.match = LiveMatch(id=match_id, seed=seed, config=config,
                                       rules_version=game.rules_version, state=state,
                                       pseudos=match_row["pseudos"], started_at=now,
                                       deadline_ms=deadline)
                bots.new_memories(room, seed, events)
                self.play.arm(room)

            await change_room(
                self.db, room, lambda snapshot: self.store.start_match(snapshot, match_row),
                commit, what="the match's start", events=events, status="playing",
                lost=self.play.drop,
            )
            self.play.metrics.match(room, "started")
            log.info("room %s: match %s started (%d seats)", room.code,
                     room.match.id if room.match else "?", len(room.seats))

    async def rematch(self, room: Room, actor: Seat) -> None:
        """Back to the lobby with the same players and settings; the host starts again."""
        async with room.lock:
            if room.status != "finished":
                raise game_error("not_finished")

            def commit(_: None) -> None:
                room.match = None
                self.play.disarm(room)

            await change_room(
                self.db, room, lambda snapshot: self.store.update_room(snapshot), commit,
                what="a rematch", status="waiting", lost=self.play.drop,
            )
            log.info("room %s: back to the lobby for a rematch", room.code)


def _require_host(room: Room, seat: Seat) -> None:
    if seat.seat != room.host_seat:
        raise game_error("not_host")


def _require_bot_levels(room: Room, game: Game) -> None:
    """A change of game keeps the seats: refused while a computer player sits at a level
    the new game does not offer (it could not play), named in the room's current game."""
    offered = {b.key for b in game.bot_levels}
    for seat in room.seats:
        if seat.bot_level is not None and seat.bot_level not in offered:
            level = next((b for b in room.game.bot_levels if b.key == seat.bot_level), None)
            fr, en = (level.name_fr, level.name_en) if level else (seat.bot_level,) * 2
            raise game_error("bot_level_not_in_game", fr, en)


def _kick(room: Room, target: Seat) -> None:
    """Tell the removed seat's sockets why, and close them (their tab shows the home page)."""
    error = game_error("seat_removed")
    text = outgoing(ErrorOut, id=None, **error.body())
    for conn in list(room.connections):
        if conn.seat is target:
            conn.send(text)
            conn.close(CLOSE_REMOVED)
            room.connections.discard(conn)
