"""Probes for a load balancer or an orchestrator, and metrics for Prometheus (docs/cluster.md).

`/healthz` is liveness: the process's loop answers (restart it if not). `/readyz` is readiness:
the database answers and the lease keeper renewed this process's room leases recently, so the
rooms it serves are still its own (send it no traffic if not: its writes would be refused).
`/metrics` is Prometheus' text format (`metrics.py`), for the addresses of
`YANNIV_METRICS_ALLOW` only. None of them is under `/api/`: they are the operator's, not the
client's.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST
from starlette.exceptions import HTTPException

from yanniv.server.api.deps import ClientIp, RoomsDep, SettingsDep
from yanniv.server.settings import Settings

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


@router.get("/metrics")
async def metrics(rooms: RoomsDep, settings: SettingsDep, ip: ClientIp) -> Response:
    """Async, so the rooms are counted on the loop, where they change (never mid-change).
    Refused as an unknown address (404): nothing tells a stranger it exists."""
    if not settings.metrics or not may_scrape(settings, ip):
        raise HTTPException(404)
    return Response(rooms.metrics.exposition(), media_type=CONTENT_TYPE_LATEST)


def may_scrape(settings: Settings, ip: str) -> bool:
    """Whether the client at `ip` is in `YANNIV_METRICS_ALLOW`."""
    try:
        address = ipaddress.ip_address(ip)
    except ValueError:  # no address (a test client): nobody knows who it is
        return False
    return any(address in network for network in settings.metrics_networks())
