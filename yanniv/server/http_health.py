"""Probes for a load balancer or an orchestrator (docs/cluster.md).

`/healthz` is liveness: the process's loop answers (restart it if not). `/readyz` is readiness:
the database answers and the lease keeper renewed this process's room leases recently, so the
rooms it serves are still its own (send it no traffic if not: its writes would be refused).
Neither route is under `/api/`: they are the operator's, not the client's.
"""

from __future__ import annotations

import asyncio
import logging

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from yanniv.server.deps import RoomsDep

log = logging.getLogger(__name__)
router = APIRouter(include_in_schema=False)
#: Seconds the database has to answer the readiness probe.
DATABASE_TIMEOUT = 2.0


@router.get("/healthz")
async def healthz() -> JSONResponse:
    return JSONResponse({"status": "ok"})


@router.get("/readyz")
async def readyz(rooms: RoomsDep) -> JSONResponse:
    try:
        await asyncio.wait_for(rooms.db.run(rooms.leases.ping), DATABASE_TIMEOUT)
        database = True
    except Exception as exc:
        log.warning("readiness: the database does not answer (%s)", type(exc).__name__)
        database = False
    leases = rooms.keeper.ready()
    ready = database and leases
    return JSONResponse({"ready": ready, "database": database, "leases": leases,
                         "rooms": len(rooms.rooms)}, status_code=200 if ready else 503)
