"""Persistence of rooms, seats and match logs: blocking functions run in the database threads.

Every function takes plain values (snapshots made under the room lock) and does one
transaction. The action log is appended before the server answers or broadcasts anything.
Every write of an existing room saves its row first (an action other than a match's last, its
log row), fenced on the room's lease (`leases.held_by`): a process that lost the lease gets
`LeaseLost` and nothing is written.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Engine, Table, bindparam, delete, insert, select, update
from sqlalchemy.orm import Session, sessionmaker

from yanniv.profiles.types import FinishedMatch
from yanniv.server.cluster.leases import CHUNK, LeaseLost, Leases, held_by
from yanniv.server.store.action_sql import (
    PG_APPEND_ACTIONS,
    Busy,
    DriverConnection,
    DriverStatement,
    LoopConnection,
    LoopSQLite,
    compile_statement,
    datetime_to_driver,
    flag_to_driver,
    json_text,
)
from yanniv.server.store.models import RoomActionRow, RoomMatchRow, RoomRow, RoomSeatRow

log = logging.getLogger(__name__)
_ACTIONS: Table = RoomActionRow.__table__  # type: ignore[assignment]
_MATCHES: Table = RoomMatchRow.__table__  # type: ignore[assignment]
_ROOMS: Table = RoomRow.__table__  # type: ignore[assignment]
_ROOM_FIELDS = ("game", "public", "status", "host_seat", "settings", "version", "updated_at")
# Statements of the per-action write, built once (building them costs more than running them).
_INSERT_ACTION = insert(_ACTIONS)
# Only a deadline that changed is written: most rooms play without a timer, and rewriting
# NULL over NULL at every action cost a row write (on PostgreSQL a new row version).
_SET_DEADLINE = (
    update(_MATCHES)
    .where(_MATCHES.c.id == bindparam("b_id"),
           _MATCHES.c.deadline_ms.is_distinct_from(bindparam("b_deadline_ms")))
    .values(deadline_ms=bindparam("b_deadline_ms"))
)
_SET_ROOM = (
    update(_ROOMS)
    .where(_ROOMS.c.code == bindparam("b_code"), held_by())
    .values({name: bindparam(f"b_{name}") for name in _ROOM_FIELDS})
)
#: An action's log row, fenced (`held_by`, bound with the room's code): the row is written
#: only while this process holds the room's lease. The room's own row is not written for an
#: action: its version and last activity are the log's latest row's (`restore.restore_room`), so
#: the batch touches one table where it touched two (on SQLite each room's row rewritten,
#: settings included, and its page copied into the write-ahead log at every action).
_ACTION_COLUMNS = ("match_id", "step", "seat", "version", "action", "client_id", "by_timer",
                   "created_at")
_INSERT_ACTION_FENCED = insert(_ACTIONS).from_select(
    list(_ACTION_COLUMNS),
    select(*[bindparam(name, type_=_ACTIONS.c[name].type) for name in _ACTION_COLUMNS])
    .where(held_by()),
)


@dataclass(slots=True)
class ActionWrite:
    """What one action (not the last of its match) writes: its log row (which carries the
    room's new version) and the match's new deadline (`writer.ActionWriter` batches them)."""

    room: dict[str, Any]
    match_id: int
    action: dict[str, Any]
    deadline_ms: int | None
    #: False when the match's stored deadline is already `deadline_ms` (both None: a room
    #: without a timer): SQLite's batch then leaves the match's row alone.
    set_deadline: bool = True


@dataclass
class LoadedMatch:
    id: int
    seed: str
    game: str
    rules_version: str
    config: dict[str, Any]
    seats: int
    manches: int
    first_player: int | None
    pseudos: list[str]
    status: str
    started_at: datetime
    finished_at: datetime | None
    deadline_ms: int | None
    #: (step, seat, version, action, client_id) in step order.
    actions: list[tuple[int, int, int, dict[str, Any], str | None]] = field(default_factory=list)
    #: When the latest action was logged (None without one).
    last_action_at: datetime | None = None


@dataclass
class LoadedRoom:
    room: dict[str, Any]
    seats: list[dict[str, Any]]
    match: LoadedMatch | None


def _room_values(room: dict[str, Any]) -> dict[str, Any]:
    return {key: room[key] for key in _ROOM_FIELDS}


class RoomStore:
    """The server's tables, through one session factory; rooms written under `leases`."""

    def __init__(self, sessions: sessionmaker[Session], leases: Leases,
                 here: bool = True) -> None:
        self.sessions = sessions
        self.engine: Engine = sessions.kw["bind"]
        self.leases = leases
        dialect = self.engine.dialect
        #: PostgreSQL writes a batch on the event loop in one statement
        #: (`append_actions_on_loop`); other databases in one transaction of three
        #: statements compiled here (`append_actions`): SQLite on the event loop too when it
        #: can (`writes_here`, `sqlite_group_commit_on_loop`), else in a database thread.
        self.writes_on_loop = dialect.name == "postgresql"
        self.writes_here = dialect.name == "sqlite" and here
        self._insert_action_sql: DriverStatement = compile_statement(_INSERT_ACTION_FENCED,
                                                                     dialect)
        self._deadline_sql: DriverStatement = compile_statement(_SET_DEADLINE, dialect)
        self._moment = datetime_to_driver(dialect)
        self._flag = flag_to_driver(dialect)
        self._log_connection = DriverConnection(self.engine)
        self._loop_connection = LoopConnection(self.engine) if self.writes_on_loop else None
        self._here_connection = LoopSQLite(self.engine) if self.writes_here else None

    def _save(self, conn: Connection | Session, room: dict[str, Any]) -> None:
        """Save the room's row, fenced: `LeaseLost` (the transaction then rolls back) unless
        this process still holds the lease it read the room under. First in its transaction:
        on PostgreSQL it locks the lease row for the rest of it."""
        result = conn.execute(_SET_ROOM, {
            **self.leases.fence(room["code"], room["lease_epoch"]),
            **{f"b_{k}": v for k, v in _room_values(room).items()},
        })
        if result.rowcount != 1:  # type: ignore[attr-defined]
            raise LeaseLost(room["code"])

    # ------------------------------------------------------------ pseudos (profiles)

    def check_pseudo(self, pseudo: str, owner_secret: str | None) -> tuple[str, str] | None:
        """Why this browser may not play under `pseudo` (French, English), None if it may."""
        from yanniv.profiles.record import pseudo_refusal

        with self.sessions() as session:
            return pseudo_refusal(session, pseudo, owner_secret)

    # ------------------------------------------------------------ rooms and seats

    def create_room(self, room: dict[str, Any], seat: dict[str, Any]) -> int:
        """Insert a room, its lease (ours) and its host's seat; returns the lease's epoch.
        IntegrityError if the code is already used."""
        with self.sessions.begin() as session:
            session.add(RoomRow(code=room["code"], created_at=room["created_at"],
                                **_room_values(room)))
            session.flush()
            epoch = self.leases.insert(session.connection(), room["code"])
            session.add(RoomSeatRow(room_code=room["code"], **seat))
            return epoch

    def update_room(
        self, room: dict[str, Any], seats: list[dict[str, Any]] | None = None
    ) -> None:
        """Save the room's row; with `seats`, replace its seats too (they may be renumbered)."""
        with self.sessions.begin() as session:
            self._save(session, room)
            if seats is not None:
                session.execute(delete(RoomSeatRow).where(RoomSeatRow.room_code == room["code"]))
                session.flush()
                session.add_all(RoomSeatRow(room_code=room["code"], **seat) for seat in seats)

    def add_seat(self, room: dict[str, Any], seat: dict[str, Any]) -> None:
        with self.sessions.begin() as session:
            self._save(session, room)
            session.add(RoomSeatRow(room_code=room["code"], **seat))

    def close_room(self, room: dict[str, Any], abandoned_match: int | None) -> None:
        """Mark the room closed (never reloaded) and its unfinished match abandoned."""
        with self.sessions.begin() as session:
            self._save(session, room)
            if abandoned_match is not None:
                session.execute(
                    update(_MATCHES).where(_MATCHES.c.id == abandoned_match)
                    .values(status="abandoned")
                )

    # ------------------------------------------------------------ matches

    def start_match(self, room: dict[str, Any], match: dict[str, Any]) -> int:
        """Insert the match (seed, config, first deadline) and save the room; returns its id."""
        with self.sessions.begin() as session:
            self._save(session, room)
            row = RoomMatchRow(room_code=room["code"], status="playing", **match)
            session.add(row)
            session.flush()
            return row.id

    def append_action(
        self,
        room: dict[str, Any],
        match_id: int,
        action: dict[str, Any],
        deadline_ms: int | None,
        finished: FinishedMatch | None,
    ) -> int | None:
        """Log one action, the room's new version and deadline; on the last action, mark the
        match finished and record it for profiles in the same transaction (returns its id).

        Core statements on a plain connection (no ORM session) except for the last action,
        whose record needs a session: this runs for every action."""
        if finished is None:
            with self.engine.begin() as conn:
                self._save(conn, room)
                conn.execute(_INSERT_ACTION, {"match_id": match_id, **action})
                conn.execute(_SET_DEADLINE, {"b_id": match_id, "b_deadline_ms": deadline_ms})
            return None
        with self.sessions.begin() as session:
            self._save(session, room)
            session.execute(insert(_ACTIONS).values(match_id=match_id, **action))
            values: dict[str, Any] = {"deadline_ms": deadline_ms}
            record_id = None
            if finished is not None:
                values.update(status="finished", finished_at=finished.finished_at)
                logged = session.scalars(
                    select(_ACTIONS.c.action).where(_ACTIONS.c.match_id == match_id)
                    .order_by(_ACTIONS.c.step)
                ).all()
                finished = replace(finished, actions=tuple(logged))
                record_id = self._record(session, finished)
                values["record_id"] = record_id
            session.execute(update(_MATCHES).where(_MATCHES.c.id == match_id).values(**values))
            return record_id

    async def append_actions_on_loop(self, writes: list[ActionWrite]) -> set[str]:
        """PostgreSQL: log many rooms' actions (none the last of its match) in one statement
        on the event loop: the log rows (fenced) and the matches' deadlines. Returns the
        codes of the rooms whose lease is gone: nothing of theirs was written, the others are
        committed."""
        assert self._loop_connection is not None
        rows = []
        for w in writes:
            room, action = w.room, w.action
            rows.append({"code": room["code"], "epoch": room["lease_epoch"],
                         "match_id": w.match_id, "version": action["version"],
                         "step": action["step"], "seat": action["seat"],
                         "action": action["action"], "client_id": action["client_id"],
                         "by_timer": action["by_timer"], "created_at": action["created_at"],
                         "deadline_ms": w.deadline_ms})
        written = await self._loop_connection.run_one(PG_APPEND_ACTIONS, rows,
                                                      self.leases.owner)
        logged = {match_id for (match_id,) in written}
        return {w.room["code"] for w in writes if w.match_id not in logged}

    def append_actions(self, writes: list[ActionWrite], here: bool = False) -> set[str]:
        """Log many rooms' actions (none the last of its match) in one transaction, in a
        database thread (or `here`, on the event loop: SQLite's `LoopSQLite`, which raises
        `action_sql.Busy` rather than wait for a lock): the log rows (fenced: first, so a
        lost lease costs nothing more) and the matches' deadlines, each one `executemany` of
        driver SQL compiled once (`action_sql`). `LeaseLost` if any room's lease is gone
        (nothing is written; the writer then tries them one by one); else nothing is left
        out (an empty set, as `append_actions_on_loop` names what it left out)."""
        owner = self.leases.owner
        moment, flag = self._moment, self._flag
        actions = []
        deadlines = []
        for w in writes:
            room, action = w.room, w.action
            created = action["created_at"]
            actions.append({"match_id": w.match_id, "step": action["step"],
                            "seat": action["seat"], "version": action["version"],
                            "action": json_text(action["action"]),
                            "client_id": action["client_id"], "by_timer": flag(action["by_timer"]),
                            "created_at": moment(created), "b_code": room["code"],
                            "b_owner": owner, "b_epoch": room["lease_epoch"]})
            if w.set_deadline:
                deadlines.append({"b_id": w.match_id, "b_deadline_ms": w.deadline_ms})

        def check(step: int, rowcount: int) -> None:
            if step == 0 and rowcount != len(writes):  # one room per batch at most: its lock
                raise LeaseLost(", ".join(w.room["code"] for w in writes))  # is held

        connection = self._here_connection if here else self._log_connection
        assert connection is not None
        connection.run([(self._insert_action_sql, actions), (self._deadline_sql, deadlines)],
                       check)
        return set()

    def renew_leases_here(self, held: dict[str, int], listed: Iterable[str]) -> set[str] | None:
        """`Leases.renew` on the event loop, on SQLite's own connection of the group commit
        (`writes_here`); None where it cannot (another database, or SQLite locked by a write
        of the database thread's: `Busy`): the caller then renews in a database thread. In a
        thread the renewal had to take SQLite's lock between two of the loop's batches, under
        SQLite's back-off, and then held it while it waited for the GIL, with the loop's next
        batches queued behind it."""
        if self._here_connection is None:
            return None
        try:
            return self._here_connection.transact(
                lambda cursor: self.leases.renew(held, listed, cursor))
        except Busy:
            return None

    def checkpoint(self) -> None:
        """Copy SQLite's write-ahead log into the database file, without waiting for anyone
        (PASSIVE), in a database thread: the loop's own connection never does
        (`LoopSQLite`)."""
        with self.engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    async def close(self) -> None:
        """Give back the group commit's connections (before the engine is disposed)."""
        self._log_connection.close()
        if self._here_connection is not None:
            self._here_connection.close()
        if self._loop_connection is not None:
            await self._loop_connection.close()

    @staticmethod
    def _record(session: Session, finished: FinishedMatch) -> int | None:
        """Profiles' record, inside a savepoint: a bug there must not stop the match ending."""
        from yanniv.profiles.record import record_finished_match

        try:
            with session.begin_nested():
                return record_finished_match(session, finished)
        except Exception:
            log.exception("room %s: recording its finished match failed", finished.room_code)
            return None

    # ------------------------------------------------------------ restart

    def load(self, epochs: dict[str, int]) -> list[LoadedRoom]:
        """The rooms of `epochs` (code → the epoch of the lease just taken), with their seats
        and latest match (seed, config and full action log)."""
        codes = list(epochs)
        with self.sessions() as session:
            rooms = [row for start in range(0, len(codes), CHUNK)
                     for row in session.scalars(
                         select(RoomRow).where(RoomRow.code.in_(codes[start:start + CHUNK])))]
            loaded = []
            for row in rooms:
                seats = session.scalars(
                    select(RoomSeatRow)
                    .where(RoomSeatRow.room_code == row.code)
                    .order_by(RoomSeatRow.seat)
                ).all()
                match = None
                if row.status != "waiting":
                    match = self._load_match(session, row.code)
                loaded.append(
                    LoadedRoom(
                        room={
                            "code": row.code, "game": row.game, "public": row.public,
                            "status": row.status,
                            "host_seat": row.host_seat, "settings": row.settings,
                            "version": row.version, "created_at": row.created_at,
                            "updated_at": row.updated_at, "lease_epoch": epochs[row.code],
                        },
                        seats=[
                            {
                                "seat": s.seat, "pseudo": s.pseudo, "token_hash": s.token_hash,
                                "owner_hash": s.owner_hash, "joined_at": s.joined_at,
                                "bot_level": s.bot_level,
                            }
                            for s in seats
                        ],
                        match=match,
                    )
                )
            return loaded

    @staticmethod
    def _load_match(session: Session, code: str) -> LoadedMatch | None:
        row = session.scalars(
            select(RoomMatchRow)
            .where(RoomMatchRow.room_code == code)
            .order_by(RoomMatchRow.id.desc())
            .limit(1)
        ).first()
        if row is None:
            return None
        actions = session.execute(
            select(
                RoomActionRow.step, RoomActionRow.seat, RoomActionRow.version,
                RoomActionRow.action, RoomActionRow.client_id, RoomActionRow.created_at,
            )
            .where(RoomActionRow.match_id == row.id)
            .order_by(RoomActionRow.step)
        ).all()
        return LoadedMatch(
            id=row.id, seed=row.seed, game=row.game, rules_version=row.rules_version,
            config=dict(row.config), seats=row.seats, manches=row.manches,
            first_player=row.first_player, pseudos=list(row.pseudos), status=row.status,
            started_at=row.started_at, finished_at=row.finished_at, deadline_ms=row.deadline_ms,
            actions=[tuple(a)[:5] for a in actions],
            last_action_at=actions[-1].created_at if actions else None,
        )
