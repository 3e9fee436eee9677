"""The WebSocket protocol `yanniv serve` runs under uvicorn: uvicorn's sans-I/O one, with a
direct write for the server's own text frames and nothing kept from the handshake.

uvicorn's sans-I/O protocol (`websockets-sansio`) already parses frames in `data_received`,
with no task per socket; its legacy `websockets` one ran three tasks and a stream reader for
each (measured: the bare peer's CPU per action 0.76 → 0.48 ms and memory 34.7 → 25.6 KB per
socket at 1,000 rooms, docs/OPERATIONS.md). On top of it:

- `write_text` puts one text frame on the transport at once, from bytes the caller already
  has (orjson's), when nothing stands in the way: the ASGI path (Starlette's `send_text`, a
  message dict, uvicorn's `send`, the `websockets` frame object) decodes the text only for it
  to be encoded again, and costs more than the frame's system call. It is offered to the app
  as the ASGI extension `yanniv.write_text` (`connections.Connection` uses it when present);
  anything it declines (a socket that must wait for its reader, a closing one) goes the ASGI
  way, where uvicorn waits or refuses.
- The heartbeat (a ping every `ws_ping_interval`, a close 1011 when its pong has not come
  within `ws_ping_timeout`, as uvicorn's) is one timer for all the sockets of a server
  (`Heartbeat`), as the `ws` package's users write it in Node, where uvicorn arms two or
  three timers per socket per ping and builds each ping frame anew: at rest, 4,000 sockets
  cost the bare peer 0.13 of a core, the Node peer 0.04. Any pong counts, and so does
  anything else the client sends: a socket heard from within the interval is alive and gets
  no ping (a dead one is still closed `ws_ping_interval + ws_ping_timeout` after the last
  thing heard from it, as before). A page sends its own `ping` message after 2.5 s of
  silence (`web/static/js/socket.js`), so its socket is never pinged at all; in the load
  test without those, where each seat acts every few seconds, the server sends about half
  the pings (434 a second at 1,000 rooms instead of 800, docs/OPERATIONS.md).
- A client's frame that arrives whole and alone (a text message or a pong: nearly every read)
  is read here; anything else (fragments, several frames or part of one, other opcodes)
  goes to the `websockets` parser, whose generators cost more than the message's own work.
- Reading stops (`pause_reading`) only once `ws_max_queue` messages wait for the app, as the
  `websockets` protocol of uvicorn did, where the sans-I/O one stops after every message and
  starts again when the app has read it: two system calls per message read.
- The handshake's request and response are dropped once the socket is accepted (~2 KB a
  socket that uvicorn kept for the socket's whole life).
- The messages waiting for the app and the "writes are taken" flag are `socket_inbox`'s
  `Inbox` and `Flag`, not an `asyncio.Queue` and `asyncio.Event` (five deques, ~4.5 KB a
  socket).
- `read_text` lets the app take each message as it arrives, on this protocol's stack,
  instead of a reader task awaiting `receive` for it (the ASGI extension `yanniv.read_text`,
  `ws.SocketReader`): a socket then holds no coroutine or future waiting for its next
  message. Those were re-made with every message, so the cyclic collector found every
  socket's among its young objects each time it ran (8,000 sockets: ~48,000 of the ~140,000
  objects of one young collection). The disconnect still goes through `receive`.
"""

from __future__ import annotations

import asyncio
import heapq
import struct
import weakref
from collections.abc import Callable
from typing import Any, ClassVar

from uvicorn.config import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

from yanniv.server.realtime.socket_inbox import Flag, Inbox

try:  # the `websockets` package's own unmasking, in C when it was built with it
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover
    from websockets.utils import apply_mask

#: The ASGI scope extension under which a socket's `write_text` is offered.
WRITE_TEXT = "yanniv.write_text"
#: The ASGI scope extension under which a socket's `read_text` is offered.
READ_TEXT = "yanniv.read_text"
_FIN_TEXT = 0x81  # FIN bit + opcode 1 (text), RFC 6455 §5.2
_MEDIUM = struct.Struct("!BBH")
_LONG = struct.Struct("!BBQ")
#: A ping frame with no payload (FIN + opcode 9): the same bytes for every socket.
PING_FRAME = b"\x89\x00"


def text_frame(data: bytes) -> bytes:
    """One unmasked, unfragmented text frame holding `data` (a server's frame, RFC 6455)."""
    size = len(data)
    if size < 126:
        return bytes((_FIN_TEXT, size)) + data
    if size < 65536:
        return _MEDIUM.pack(_FIN_TEXT, 126, size) + data
    return _LONG.pack(_FIN_TEXT, 127, size) + data


class SocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol with `write_text` (see the module's text)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = Inbox(self.loop)  # type: ignore[assignment]
        self.writable = Flag(self.loop)  # type: ignore[assignment]
        #: The app's taker of messages (`read_text`), if it gave one.
        self.on_text: Callable[[str | bytes], None] | None = None
        #: When the client was last heard from (the loop's clock): the heartbeat's proof of
        #: life, set by every read.
        self.heard_at = self.loop.time()

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        if self.handshake_initiated and not self.close_sent:  # the app will see the socket
            extensions: dict[str, Any] = self.scope["extensions"]  # type: ignore[assignment]
            extensions[WRITE_TEXT] = self.write_text
            extensions[READ_TEXT] = self.read_text

    async def send(self, message: Any) -> None:
        await super().send(message)
        if self.handshake_complete:
            # Read by uvicorn only until the accept (or refusal) went out.
            self.request = self.response = None  # type: ignore[assignment]

    def write_text(self, data: bytes, *more: bytes) -> bool:
        """Write `data` (UTF-8 text) as one frame now, and each of `more` as one more frame
        (one write for all), if the socket is open and its transport is not holding writes
        back; False, and nothing written, otherwise."""
        if (self.close_sent or self.disconnected or not self.handshake_complete
                or self.initial_response is not None or not self.writable.is_set()
                or self.transport.is_closing()):
            return False
        frame = text_frame(data)
        if more:
            frame = b"".join((frame, *map(text_frame, more)))
        self.transport.write(frame)
        return True

    # ------------------------------------------------------------ reading

    def read_text(self, taker: Callable[[str | bytes], None] | None) -> None:
        """From now on hand each message (text as `str`, binary as `bytes`) to `taker` as it
        arrives, and first those already waiting for `receive`, in order (None: queue them
        for `receive` again). `receive` then has only the disconnect to give. `taker` runs
        inside `data_received`: it must not raise, and it bounds its own backlog (the app's
        flood limit does)."""
        self.on_text = taker
        if taker is not None:
            for message in self.queue.take_received():  # type: ignore[attr-defined]
                text = message.get("text")
                taker(text if text is not None else message.get("bytes") or b"")

    def data_received(self, data: bytes) -> None:
        self.heard_at = self.loop.time()
        conn = self.conn
        if (self.handshake_complete and conn.state is State.OPEN and conn.current_size is None
                and not conn.reader.buffer and self._whole_frame(data)):
            return
        super().data_received(data)

    def _whole_frame(self, data: bytes) -> bool:
        """Read `data` if it is exactly one final, masked text frame (up to 64 KB) or pong
        (RFC 6455 §5.2); False, and nothing read, for anything else."""
        size = len(data)
        if size < 6 or not data[1] & 0x80:  # a client's frames are masked
            return False
        length = data[1] & 0x7F
        start = 6
        if length == 126:
            if size < 8:
                return False
            length = (data[2] << 8) | data[3]
            start = 8
        elif length == 127:
            return False
        if size != start + length:
            return False
        limit = self.conn.max_message_size
        if limit is not None and length > limit:  # the parser closes it (1009)
            return False
        head = data[0]
        if head == 0x81:  # FIN, no extension bit, text
            self.curr_msg_data_type = "text"
            self._deliver(apply_mask(data[start:], data[start - 4:start]))
            return True
        if head == 0x8A and start == 6:  # FIN, pong (a control frame: 125 bytes at most)
            self.awaiting_pong = False
            return True
        return False

    def send_receive_event_to_app(self) -> None:
        """uvicorn's, but reading pauses only once `ws_max_queue` messages wait, and the
        list of a message's frames is emptied, not made anew for every message."""
        frames = self.frames
        data = frames[0] if len(frames) == 1 else b"".join(frames)
        frames.clear()
        self._deliver(data)

    def _deliver(self, data: bytes) -> None:
        """A whole message to the app (`curr_msg_data_type` says which kind)."""
        if self.close_sent:  # past `websocket.close`: discarded, as uvicorn does
            return
        value: str | bytes = data
        if self.curr_msg_data_type == "text":
            try:
                value = data.decode()
            except UnicodeDecodeError:
                self.logger.exception("Invalid UTF-8 sequence received from client.")
                self.conn.send_close(1007)
                self.handle_parser_exception()
                return
        taker = self.on_text
        if taker is not None:
            taker(value)
            return
        kind = "text" if self.curr_msg_data_type == "text" else "bytes"
        self.queue.put_nowait({"type": "websocket.receive", kind: value})
        if not self.read_paused and self.queue.qsize() >= self.config.ws_max_queue:
            self.read_paused = True
            self.transport.pause_reading()

    # ------------------------------------------------------------ heartbeat

    def start_keepalive(self) -> None:
        self.awaiting_pong = False
        if self.ping_interval is not None and self.ping_interval > 0:
            Heartbeat.of(self.config, self.loop).add(self)

    def stop_keepalive(self) -> None:
        super().stop_keepalive()  # nothing of uvicorn's is armed; kept for its own state
        self.ping_interval = None  # the heartbeat forgets this socket at its next turn

    def handle_pong(self, event: Any) -> None:
        self.awaiting_pong = False

    def beat(self, now: float) -> float | None:
        """The heartbeat's turn for this socket: when to come back, always later than `now`
        (the heartbeat calls again while a turn is due), None to forget it. A socket heard
        from since its ping, or within the interval, needs no (more) ping.

        Each time is compared as the sum it returns, never as a difference: the loop's clock
        counts whole milliseconds, and `now - heard < interval` can hold while `heard +
        interval` rounds to `now` itself, which kept the heartbeat calling forever."""
        interval = self.ping_interval
        if (interval is None or self.close_sent or self.disconnected
                or self.transport.is_closing()):
            return None
        heard = self.heard_at
        if self.awaiting_pong and heard <= self.ping_sent_at:
            timeout = self.ping_timeout
            if timeout is not None:  # without a timeout: ping on
                closes_at = self.ping_sent_at + timeout
                if closes_at <= now:
                    self.keepalive_timeout()
                    return None
                return closes_at
        pings_at = heard + interval
        if pings_at > now:
            self.awaiting_pong = False
            return pings_at
        self.awaiting_pong = True
        self.ping_sent_at = now
        self.transport.write(PING_FRAME)
        return now + interval


class _Turn:
    """A socket's place in the heartbeat's heap: made once per socket and moved in the heap
    as its time changes, so that a ping costs no new object (a tuple per ping made every
    socket's entry a young object of the cyclic collector's)."""

    __slots__ = ("at", "protocol")

    def __init__(self, at: float, protocol: SocketProtocol) -> None:
        self.at = at
        self.protocol = protocol

    def __lt__(self, other: _Turn) -> bool:
        return self.at < other.at


class Heartbeat:
    """The pings of every socket of one server: a heap of when each is due next, looked at
    every `TICK` seconds by one timer (none while no socket is left)."""

    TICK = 0.05
    _of: ClassVar[weakref.WeakKeyDictionary[Config, Heartbeat]] = weakref.WeakKeyDictionary()

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._due: list[_Turn] = []
        self._timer: asyncio.TimerHandle | None = None

    @classmethod
    def of(cls, config: Config, loop: asyncio.AbstractEventLoop) -> Heartbeat:
        """The heartbeat of the server run with `config` (on `loop`)."""
        found = cls._of.get(config)
        if found is None or found.loop is not loop:
            found = cls._of[config] = cls(loop)
        return found

    def add(self, protocol: SocketProtocol) -> None:
        assert protocol.ping_interval is not None
        heapq.heappush(self._due, _Turn(self.loop.time() + protocol.ping_interval, protocol))
        if self._timer is None:
            self._timer = self.loop.call_later(self.TICK, self._tick)

    def _tick(self) -> None:
        self._timer = None
        now = self.loop.time()
        due = self._due
        while due and due[0].at <= now:
            turn = due[0]
            again = turn.protocol.beat(now)
            if again is None:
                heapq.heappop(due)
            else:
                turn.at = again
                heapq.heapreplace(due, turn)
        if due:
            self._timer = self.loop.call_later(self.TICK, self._tick)
