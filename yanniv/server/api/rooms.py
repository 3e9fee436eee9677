"""HTTP routes of the rooms: create, list public ones, join, look, settings, add a computer
player, remove a seat, start, rematch.

Errors are `{"code", "message" (French), "message_en"}` with a fitting HTTP status; an unknown
room code counts against the caller's IP, and once there were too many, that IP's unknown codes
are refused for a while (429 with `Retry-After`); a room that exists is never refused so.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body

from yanniv.games import GAMES
from yanniv.server.api.deps import ClientIp, CodeLimiterDep, OwnerSecret, RoomsDep, SeatToken
from yanniv.server.errors import game_error
from yanniv.server.ops.ratelimit import WrongCodeLimiter, refuse_lookup
from yanniv.server.realtime.protocol import (
    AddBotIn,
    CreateRoomIn,
    ErrorBody,
    JoinRoomIn,
    PublicRoom,
    RoomSummary,
    SeatGranted,
)
from yanniv.server.rooms.codes import normalize_code
from yanniv.server.rooms.registry import Rooms
from yanniv.server.rooms.room import Room, Seat
from yanniv.server.rooms.room_settings import split_settings_change

router = APIRouter(prefix="/api/rooms", tags=["rooms"],
                   responses={400: {"model": ErrorBody}, 404: {"model": ErrorBody}})


async def find_room(rooms: Rooms, limiter: WrongCodeLimiter, ip: str, raw_code: str,
                    token: str | None = None) -> Room:
    """The room with this code. A request with a seat token of the room is never limited;
    any other counts as a lookup against `ip`, and an unknown code also as a wrong code."""
    room = rooms.get(normalize_code(raw_code))
    if room is not None and token and room.seat_for_token(token) is not None:
        return room
    refusal = await refuse_lookup(limiter, ip, known=room is not None)
    if refusal is not None:
        raise refusal
    assert room is not None
    return room


def require_seat(room: Room, token: str | None) -> Seat:
    if not token:
        raise game_error("missing_token")
    seat = room.seat_for_token(token)
    if seat is None:
        raise game_error("bad_token")
    return seat


@router.post("", status_code=201)
async def create_room(body: CreateRoomIn, rooms: RoomsDep, owner: OwnerSecret) -> SeatGranted:
    if body.game not in GAMES:
        raise game_error("unknown_game", body.game)
    room, seat, token = await rooms.create(body.pseudo, body.public, owner, GAMES[body.game])
    return SeatGranted.model_validate(
        {"code": room.code, "seat": seat.seat, "token": token, "room": room.summary(seat.seat)}
    )


@router.get("/public")
async def public_rooms(rooms: RoomsDep) -> list[PublicRoom]:
    return [PublicRoom.model_validate(r) for r in await rooms.public_list()]


@router.post("/{code}/join")
async def join_room(code: str, body: JoinRoomIn, rooms: RoomsDep, limiter: CodeLimiterDep,
                    ip: ClientIp, owner: OwnerSecret) -> SeatGranted:
    room = await find_room(rooms, limiter, ip, code)
    seat, token = await rooms.join(room, body.pseudo, owner)
    return SeatGranted.model_validate(
        {"code": room.code, "seat": seat.seat, "token": token, "room": room.summary(seat.seat)}
    )


@router.get("/{code}")
async def get_room(code: str, rooms: RoomsDep, limiter: CodeLimiterDep, ip: ClientIp,
                   token: SeatToken = None) -> RoomSummary:
    room = await find_room(rooms, limiter, ip, code, token)
    seat = room.seat_for_token(token)
    return RoomSummary.model_validate(room.summary(None if seat is None else seat.seat))


def _summary(room: Room, seat: Seat | None) -> RoomSummary:
    return RoomSummary.model_validate(room.summary(None if seat is None else seat.seat))


@router.patch("/{code}/settings")
async def change_settings(code: str, rooms: RoomsDep, limiter: CodeLimiterDep, ip: ClientIp,
                          token: SeatToken = None,
                          patch: dict[str, Any] = Body(...)) -> RoomSummary:  # noqa: B008
    room = await find_room(rooms, limiter, ip, code, token)
    seat = require_seat(room, token)
    changes, based_on = split_settings_change(patch)
    await rooms.update_settings(room, seat, changes, based_on)
    return _summary(room, seat)


@router.post("/{code}/bots")
async def add_bot(code: str, body: AddBotIn, rooms: RoomsDep, limiter: CodeLimiterDep,
                  ip: ClientIp, token: SeatToken = None) -> RoomSummary:
    """The host seats a computer player; removing it is `DELETE .../seats/{seat}`."""
    room = await find_room(rooms, limiter, ip, code, token)
    seat = require_seat(room, token)
    await rooms.add_bot(room, seat, body.level)
    return _summary(room, seat)


@router.delete("/{code}/seats/{seat_index}")
async def remove_seat(code: str, seat_index: int, rooms: RoomsDep, limiter: CodeLimiterDep,
                      ip: ClientIp, token: SeatToken = None) -> RoomSummary:
    room = await find_room(rooms, limiter, ip, code, token)
    seat = require_seat(room, token)
    removed_self = seat.seat == seat_index
    await rooms.remove_seat(room, seat, seat_index)
    return _summary(room, None if removed_self else seat)


@router.post("/{code}/start")
async def start_match(code: str, rooms: RoomsDep, limiter: CodeLimiterDep, ip: ClientIp,
                      token: SeatToken = None) -> RoomSummary:
    room = await find_room(rooms, limiter, ip, code, token)
    seat = require_seat(room, token)
    await rooms.start(room, seat)
    return _summary(room, seat)


@router.post("/{code}/rematch")
async def rematch(code: str, rooms: RoomsDep, limiter: CodeLimiterDep, ip: ClientIp,
                  token: SeatToken = None) -> RoomSummary:
    room = await find_room(rooms, limiter, ip, code, token)
    seat = require_seat(room, token)
    await rooms.rematch(room, seat)
    return _summary(room, seat)
