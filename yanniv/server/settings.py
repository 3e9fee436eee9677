"""Server settings from the environment (`YANNIV_*`, `DATABASE_URL`), read when the app is made."""

from __future__ import annotations

import ipaddress
from typing import Literal

from pydantic import AliasChoices, Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from yanniv.db.session import DEFAULT_URL, SQLITE_CACHE_KIB
from yanniv.games import MOST_SEATS


class Settings(BaseSettings):
    """Everything tunable about the server; tests pass their own instance to `create_app`."""

    model_config = SettingsConfigDict(env_prefix="YANNIV_", extra="ignore", populate_by_name=True)

    database_url: str = Field(
        default=DEFAULT_URL, validation_alias=AliasChoices("DATABASE_URL", "YANNIV_DATABASE_URL")
    )
    #: Threads running blocking database calls (SQLite always uses one writer thread).
    db_threads: int = 4
    #: Seconds the group commit of actions waits after the first action of a batch before
    #: writing it, so that actions of other rooms arriving meanwhile share its transaction
    #: (`writer.ActionWriter`); 0 writes the first at once. Every action waits up to this
    #: long more before its `ack`, less once the batch is full (`writer.BATCH_TARGET`): the
    #: wait is paid at low load only, where each batch's fixed cost is shared by few actions
    #: (20 ms against 10 at 250 rooms: 7-8 % less CPU an action, docs/OPERATIONS.md).
    group_commit_window: float = 0.020
    #: On SQLite, write the group commit's batches on the event loop, with a connection that
    #: never waits for a lock (a locked database sends the batch to the database thread);
    #: off: always in the thread (docs/OPERATIONS.md, « The write path »).
    sqlite_group_commit_on_loop: bool = True
    #: SQLite's page cache per connection, in KiB (SQLite's own default is 2,000). The hot
    #: write path touches few pages (the last pages of the action log and its key, the rooms'
    #: rows), and each connection's cache is resident memory that stays once filled: 2 MB a
    #: connection was 4 KB a socket at 250 rooms (docs/OPERATIONS.md, « Memory »).
    sqlite_cache_kib: int = Field(default=SQLITE_CACHE_KIB, ge=64)
    #: Multiplies every timer deadline; tests use a small value to expire timers quickly.
    timer_scale: float = 1.0
    #: Largest WebSocket message accepted from a client, in bytes: a bigger one (up to
    #: `ws_max_frame_bytes`) gets the error `message_too_large` and the socket stays open.
    max_message_bytes: int = 4096
    #: Largest WebSocket message the server reads at all (uvicorn's `ws_max_size`): a bigger
    #: one closes the socket with 1009 before the app sees it.
    ws_max_frame_bytes: int = 2 * 1024 * 1024
    #: Messages uvicorn buffers per socket ahead of the app (memory: this × the frame cap).
    ws_max_queue: int = 4
    #: Seconds between the WebSocket ping frames the server sends each socket it has not
    #: heard from meanwhile, and how long it waits for an answer before closing a dead one (a
    #: client gone without a word: its seat then shows as disconnected, and its place among
    #: the seat's sockets is freed).
    ws_ping_interval: float = 5.0
    ws_ping_timeout: float = 10.0
    #: Accept the permessage-deflate compression browsers offer. Off: a state message is
    #: about 2 KB, and per socket zlib keeps two windows (memory per socket roughly
    #: doubles) and costs CPU on every frame; measured with `bench/loadtest/ramp.py
    #: --deflate` (docs/OPERATIONS.md).
    ws_per_message_deflate: bool = False
    #: The WebSocket protocol under uvicorn: "yanniv" (`socket_protocol.SocketProtocol`:
    #: uvicorn's sans-I/O one with a direct frame write), or one of uvicorn's own (its `ws`
    #: option), for comparison (docs/OPERATIONS.md).
    ws_protocol: Literal["yanniv", "websockets-sansio", "websockets", "wsproto"] = "yanniv"
    #: Largest HTTP request body accepted by the room API, in bytes.
    max_body_bytes: int = 16384
    #: Flood protection per socket: sustained messages per second, and the burst allowed.
    flood_rate: float = 10.0
    flood_burst: int = 40
    #: Unknown room codes allowed per client address within `wrong_code_window` seconds;
    #: past them only that address's unknown codes are refused, never an existing room.
    wrong_code_limit: int = 20
    wrong_code_window: float = 300.0
    #: Room lookups by code from a client address that holds no seat of that room (joins,
    #: spectators, summaries or seat routes without a valid token), known codes included, per
    #: `code_lookup_window` seconds. Far above what people do; it keeps probing codes slow
    #: once the wrong-code limit answers (a known code answers differently from an unknown one).
    code_lookup_limit: int = 120
    code_lookup_window: float = 60.0
    #: Where the wrong-code, lookup and failed-login counts live, as a `limits` storage URI:
    #: `memory://` (this process), or e.g. `redis://host:6379` in a cluster, so the processes
    #: count one client together instead of each allowing it the whole limit (docs/cluster.md).
    limits_storage: str = "memory://"
    #: Direct peers (IPs or CIDRs, comma-separated) whose `X-Forwarded-For` names the client;
    #: empty: the header is ignored and the client is the direct peer.
    trusted_proxies: str = ""
    #: Concurrent sockets per client address (an IPv6 /64 counts as one address), seats and
    #: spectators alike: a school class behind one NAT, 30 pupils with a tab or two each, fits.
    max_sockets_per_ip: int = 64
    #: Concurrent home-page sockets (`/ws/lobby`, the public list pushed) per client address;
    #: past it a page polls the list instead, so a low cap costs nothing but freshness.
    max_lobby_sockets_per_ip: int = 16
    #: Least seconds between two pushes of the public list by one process: a burst of
    #: changes within it makes one push.
    lobby_push_interval: float = 0.25
    #: Seconds between the reads of the public list a process with home-page listeners makes
    #: even without a change it heard of (in a cluster: rooms of a dead process leaving the
    #: list, an announcement lost while Redis was away).
    lobby_refresh_seconds: float = 3.0
    #: Concurrent sockets per room. Seats keep `MOST_SEATS * max_sockets_per_seat` of them, so
    #: spectators (who share the rest) can never lock a player out of their own match.
    max_sockets_per_room: int = 48
    #: Concurrent sockets holding one seat's token (tabs and devices of one player).
    max_sockets_per_seat: int = 4
    #: Messages waiting for a slow socket before it is closed.
    send_queue_limit: int = 512
    #: Finished rooms younger than this are reloaded at start (for a rematch).
    keep_finished_hours: float = 24.0
    #: Multiplies the human-like delay before a computer player acts; tests make it tiny.
    bot_delay_scale: float = 1.0
    #: A room with computer players and no person connected for this long is closed.
    bot_room_grace_seconds: float = 300.0
    #: A waiting or playing room with nobody connected for this long is closed (its match
    #: abandoned), so abandoned rooms do not pile up in memory and in every restart.
    idle_room_hours: float = 24.0
    #: Several server processes share the database (docs/cluster.md): at start a process takes
    #: only the rooms whose lease nobody holds, and later takes over those whose lease runs
    #: out. Off (one process, the default): it takes every live room's lease at start.
    cluster: bool = False
    #: Seconds a room's lease lasts without renewal: how long the rooms of a process that
    #: died wait before another process takes them over.
    lease_seconds: float = 5.0
    #: Seconds between renewals of this process's leases (in a cluster, each renewal also
    #: takes over the rooms whose lease ran out).
    lease_renew_seconds: float = 1.5
    #: This process's own address as the other processes of a cluster reach it, e.g.
    #: `http://10.0.0.5:8000` (docs/cluster.md, routing): stored with the leases it takes, so a
    #: request for one of its rooms that reaches another process is sent on here. Empty: the
    #: other processes cannot send it anything (they answer `room_not_found` as alone).
    #: `auto`: `yanniv serve` works it out at start (`yanniv.server.cluster.advertise`: the address
    #: it
    #: listens on, or its host name's, e.g. a container's own IP; docker-compose.yml).
    advertise_url: str = ""
    #: The Redis a cluster shares (docs/cluster.md): lobby changes announced on pub/sub,
    #: socket caps per address summed over the processes. Empty: `limits_storage` when it
    #: names Redis, else none (each process caps its own sockets; lists follow by reads).
    redis_url: str = ""
    #: Mark the `yanniv_owner` cookie Secure (behind HTTPS).
    cookie_secure: bool = False
    #: Serve `GET /metrics` (Prometheus' text format) on the app's own port, to clients in
    #: `metrics_allow` only; anyone else gets 404, as with it off (docs/cluster.md, metrics).
    metrics: bool = True
    #: Who may scrape (IPs or CIDRs, comma-separated; the client as `trusted_proxies` names
    #: it): loopback and the private ranges, where a Prometheus server sits, never the
    #: public Internet. The balancer's configuration refuses `/metrics` itself as well.
    metrics_allow: str = ("127.0.0.0/8,::1,10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,"
                          "fc00::/7")
    #: `text` (the default, for a person reading a terminal) or `json`: one JSON object a
    #: line (ts, level, logger, msg, room, process), for a log collector (docs/cluster.md).
    log_format: Literal["text", "json"] = "text"

    @field_validator("trusted_proxies", "metrics_allow")
    @classmethod
    def _proxies_parse(cls, value: str) -> str:
        """A typo in the list must stop the server, not silently trust nobody (or somebody)."""
        for item in value.split(","):
            if item.strip():
                ipaddress.ip_network(item.strip(), strict=False)
        return value

    @model_validator(mode="after")
    def _room_has_spectator_places(self) -> Settings:
        if self.max_sockets_per_room <= MOST_SEATS * self.max_sockets_per_seat:
            raise ValueError("max_sockets_per_room must exceed MOST_SEATS * max_sockets_per_seat")
        return self

    @model_validator(mode="after")
    def _renewal_within_lease(self) -> Settings:
        """Two renewals must fit in a lease, so one late renewal does not lose the rooms."""
        if not 0 < 2 * self.lease_renew_seconds <= self.lease_seconds:
            raise ValueError("lease_renew_seconds must be positive and at most lease_seconds / 2")
        return self

    def trusted_proxy_list(self) -> list[str]:
        return [item.strip() for item in self.trusted_proxies.split(",") if item.strip()]

    def metrics_networks(self) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
        return [ipaddress.ip_network(item.strip(), strict=False)
                for item in self.metrics_allow.split(",") if item.strip()]
