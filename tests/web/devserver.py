"""A tiny in-memory stand-in for the real server, for working on the client alone.

Implements just enough of docs/CONTRACTS.md (rooms, join, settings, start, rematch, the
WebSocket state/ack/error messages) on top of the engine. Not used by the browser tests,
which run the real app: `python tests/web/devserver.py` then open http://127.0.0.1:8765.
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from fastapi import FastAPI, Header, HTTPException, WebSocket, WebSocketDisconnect

from yanniv.games import get_game
from yanniv.games.interface import WireError
from yanniv.games.yanniv.rules import IllegalActionError, MatchConfig, apply, new_match, view
from yanniv.server.api.games import router as games_router
from yanniv.webapp.pages import mount_static, router

GAME = get_game("yanniv")

app = FastAPI()
app.include_router(router)
app.include_router(games_router)  # the real games list: the lobby draws its form from it
mount_static(app)
ROOMS: dict[str, dict[str, Any]] = {}


def summary(room: dict, token: str | None) -> dict:
    your = next((s["seat"] for s in room["seats"] if s["token"] == token), None)
    return {
        "code": room["code"], "public": room["settings"]["public"], "status": room["status"],
        "version": room["version"], "host_seat": 0,
        "seats": [{"seat": s["seat"], "pseudo": s["pseudo"], "connected": bool(s["sockets"]),
                   "is_host": s["seat"] == 0, "is_bot": False} for s in room["seats"]],
        "settings": room["settings"], "your_seat": your,
    }


def _room(code: str) -> dict:
    room = ROOMS.get(code.upper())
    if room is None:
        raise HTTPException(404, {"code": "no_room", "message": "Salle introuvable",
                                  "message_en": "No such room"})
    return room


def _seat(room: dict, pseudo: str) -> dict:
    if len(room["seats"]) >= 4 or room["status"] != "waiting":
        raise HTTPException(409, {"code": "full", "message": "Salle pleine", "message_en": "Full"})
    seat = {"seat": len(room["seats"]), "pseudo": pseudo, "token": secrets.token_urlsafe(16),
            "sockets": []}
    room["seats"].append(seat)
    return seat


@app.post("/api/rooms")
async def create(body: dict) -> dict:
    code = secrets.token_hex(3).upper()
    room = {"code": code, "status": "waiting", "version": 0, "seats": [], "state": None,
            "spectators": [], "settings": {"game": "yanniv", "public": bool(body.get("public")),
            "first_player": "random", "show_known_cards": True, "log_visible": True,
            "timer_seconds": None, **GAME.default_settings().model_dump()}}
    ROOMS[code] = room
    seat = _seat(room, body["pseudo"])
    await broadcast(room, [])
    return {"code": code, "seat": seat["seat"], "token": seat["token"],
            "room": summary(room, seat["token"])}


@app.get("/api/rooms/public")
def public() -> list:
    return [{"code": r["code"], "host": r["seats"][0]["pseudo"], "seats_taken": len(r["seats"]),
             "seats_free": 4 - len(r["seats"]), "created_at": ""}
            for r in ROOMS.values() if r["settings"]["public"] and r["status"] == "waiting"]


@app.get("/api/rooms/{code}")
def get_room(code: str, x_seat_token: str | None = Header(None)) -> dict:
    return summary(_room(code), x_seat_token)


@app.post("/api/rooms/{code}/join")
async def join(code: str, body: dict) -> dict:
    room = _room(code)
    seat = _seat(room, body["pseudo"])
    room["version"] += 1
    await broadcast(room, [])
    return {"code": room["code"], "seat": seat["seat"], "token": seat["token"],
            "room": summary(room, seat["token"])}


@app.patch("/api/rooms/{code}/settings")
async def settings(code: str, body: dict, x_seat_token: str | None = Header(None)) -> dict:
    room = _room(code)
    room["settings"].update(body)
    room["version"] += 1
    await broadcast(room, [])
    return summary(room, x_seat_token)


@app.post("/api/rooms/{code}/start")
@app.post("/api/rooms/{code}/rematch")
async def start(code: str) -> dict:
    room = _room(code)
    s = room["settings"]
    first = s["first_player"]
    first = None if first == "random" else 0 if first == "host" else int(first)
    room["state"] = new_match(MatchConfig(seats=len(room["seats"]), manches=s["manches"],
                                          first_player=first), seed=int(time.time()))
    room["status"] = "playing"
    room["version"] += 1
    await broadcast(room, [])
    return {}


async def send_state(room: dict, ws: WebSocket, seat: int | None, events: list) -> None:
    state = room["state"]
    msg = {"type": "state", "version": room["version"], "room": summary(room, None),
           "view": GAME.view_encoder().view(view(state, seat)) if state else None,
           "events": GAME.encode_events(events, seat), "deadline": None}
    msg["room"]["your_seat"] = seat
    await ws.send_json(msg)


async def broadcast(room: dict, events: list) -> None:
    for s in room["seats"]:
        for ws in list(s["sockets"]):
            await send_state(room, ws, s["seat"], events)
    for ws in list(room["spectators"]):
        await send_state(room, ws, None, events)


@app.websocket("/ws/{code}")
async def ws_endpoint(ws: WebSocket, code: str, token: str | None = None) -> None:
    room = _room(code)
    await ws.accept()
    seat = next((s for s in room["seats"] if s["token"] == token), None)
    (seat["sockets"] if seat else room["spectators"]).append(ws)
    await broadcast(room, [])
    try:
        while True:
            msg = await ws.receive_json()
            if msg.get("type") == "ping":
                await ws.send_json({"type": "pong"})
                continue
            try:
                action = GAME.decode_action(msg["action"]).action
                if seat is None or room["state"].to_act != seat["seat"]:
                    raise IllegalActionError("not_your_turn", "Pas votre tour", "Not your turn")
                room["state"], events = apply(room["state"], action)
            except (WireError, IllegalActionError) as exc:
                await ws.send_json({"type": "error", "id": msg.get("id"), "code": "illegal",
                                    "message": str(exc), "message_en": str(exc)})
                continue
            room["version"] += 1
            if room["state"].finished:
                room["status"] = "finished"
            await ws.send_json({"type": "ack", "id": msg.get("id"), "version": room["version"]})
            await broadcast(room, list(events))
    except WebSocketDisconnect:
        (seat["sockets"] if seat else room["spectators"]).remove(ws)
        await broadcast(room, [])


if __name__ == "__main__":
    import uvicorn

    uvicorn.run(app, host="127.0.0.1", port=8765)
