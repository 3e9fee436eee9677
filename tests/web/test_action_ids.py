"""The browser client's socket (web/static/js/socket.js), run by Node on the module itself:
action ids are 128 random bits, not a counter a second tab or a reload would restart (with
`crypto.randomUUID`, secure contexts, and without it, plain http); an unanswered action is
resent as it was after a reconnect; and the heartbeat finds a silent socket dead."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

SOCKET_JS = Path(__file__).resolve().parents[2] / "web" / "static" / "js" / "socket.js"

def _run(script: str) -> dict:
    """Run `script` as an ES module under Node with socket.js's address as argv[1]."""
    out = subprocess.run(
        ["node", "--input-type=module", "-e", script, SOCKET_JS.as_uri()],
        capture_output=True, text=True, check=True, timeout=60,
    )
    return json.loads(out.stdout)


SCRIPT = """
const { newActionId } = await import(process.argv[1]);
const withUuid = Array.from({ length: 2000 }, () => newActionId());
Object.defineProperty(globalThis.crypto, 'randomUUID', { value: undefined, configurable: true });
const withoutUuid = Array.from({ length: 2000 }, () => newActionId());
console.log(JSON.stringify({ withUuid, withoutUuid }));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")
def test_action_ids_are_random_128_bits() -> None:
    ids = _run(SCRIPT)
    for kind in ("withUuid", "withoutUuid"):
        values = ids[kind]
        assert all(re.fullmatch(r"[0-9a-f]{32}", v) for v in values), values[:3]
        assert len(set(values)) == len(values)
    # Two "tabs" (the two runs) share no id; hex digits are spread (not a counter).
    assert not set(ids["withUuid"]) & set(ids["withoutUuid"])
    digits = "".join(ids["withoutUuid"])
    assert min(digits.count(d) for d in "0123456789abcdef") > len(digits) / 32


RESEND = """
const sent = [];
class FakeSocket {
  static OPEN = 1;
  constructor(url) {
    this.url = url; this.readyState = 0; this.handlers = {}; FakeSocket.all.push(this);
  }
  addEventListener(kind, fn) { (this.handlers[kind] ||= []).push(fn); }
  fire(kind, ev = {}) { for (const fn of this.handlers[kind] || []) fn(ev); }
  open() { this.readyState = 1; this.fire('open'); }
  send(text) { sent.push([FakeSocket.all.indexOf(this), JSON.parse(text)]); }
  close() {}
}
FakeSocket.all = [];
globalThis.WebSocket = FakeSocket;
globalThis.location = { protocol: 'http:', host: 'example.test' };
globalThis.setTimeout = (fn) => fn();  // reconnect at once
globalThis.setInterval = () => 0;  // no pings: the script must end
globalThis.clearInterval = () => {};
const { RoomSocket } = await import(process.argv[1]);
const got = [];
const socket = new RoomSocket('ABCDEF', 'tok',
  { onMessage: (m) => got.push(m), onStatus: () => {} });
socket.connect();
FakeSocket.all[0].open();
const id = socket.sendAction({ type: 'DrawPile' }, 7);
FakeSocket.all[0].fire('close', { code: 1006 });  // dropped before any answer
FakeSocket.all[1].open();
FakeSocket.all[1].fire('message', { data: JSON.stringify({ type: 'ack', id, version: 8 }) });
FakeSocket.all[1].fire('close', { code: 1012 });  // answered: nothing to resend after this
FakeSocket.all[2].open();
console.log(JSON.stringify({ id, sent, got }));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")
def test_an_unanswered_action_is_resent_as_it_was_after_a_reconnect() -> None:
    result = _run(RESEND)
    actions = [(socket, m) for socket, m in result["sent"] if m["type"] == "action"]
    first = {"type": "action", "id": result["id"], "version": 7, "action": {"type": "DrawPile"}}
    # Sent on the first socket, resent identically on the second, not again on the third.
    assert actions == [(0, first), (1, first)]
    assert result["got"] == [{"type": "ack", "id": result["id"], "version": 8}]


HEARTBEAT = """
const sent = [];
const statuses = [];
class FakeSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  constructor(url) {
    this.url = url; this.readyState = 0; this.handlers = {}; this.closed = false;
    FakeSocket.all.push(this);
  }
  addEventListener(kind, fn) { (this.handlers[kind] ||= []).push(fn); }
  fire(kind, ev = {}) { for (const fn of this.handlers[kind] || []) fn(ev); }
  open() { this.readyState = 1; this.fire('open'); }
  send(text) { sent.push([clock, FakeSocket.all.indexOf(this), JSON.parse(text)]); }
  close() { this.closed = true; }  // a dead network: the close event never comes
}
FakeSocket.all = [];
globalThis.WebSocket = FakeSocket;
globalThis.location = { protocol: 'http:', host: 'example.test' };
const later = [];
globalThis.setTimeout = (fn) => { later.push(fn); return later.length; };
globalThis.clearTimeout = () => {};
globalThis.setInterval = () => 1;  // the test ticks by itself, on its own clock
globalThis.clearInterval = () => {};
let clock = 0;
const { RoomSocket, HEARTBEAT } = await import(process.argv[1]);
const socket = new RoomSocket('ABCDEF', 'tok',
  { onMessage: () => {}, onStatus: (up) => statuses.push([clock, up]), now: () => clock });
const pong = (n) => FakeSocket.all[n].fire('message', { data: '{"type":"pong"}' });
// Tick every TICK ms up to `until`, running the reconnect timers at once.
function run(until) {
  while (clock < until) {
    clock += HEARTBEAT.TICK;
    socket.tick();
    while (later.length) later.shift()();
  }
}
const state = (n) => FakeSocket.all[n].fire('message', { data: '{"type":"state"}' });
socket.connect();
FakeSocket.all[0].open(); state(0);
run(2600); pong(0);        // idle: a ping after PING_AFTER, answered
const id = socket.sendAction({ type: 'DrawPile' }, 7);
const holeAt = clock;      // from now on nothing arrives on socket 0
run(holeAt + 12000);       // socket 0 found dead, socket 1 stays connecting: given up too
const deadAt = statuses.find(([, up]) => up === false)[0];
const opened = FakeSocket.all.length;
FakeSocket.all[opened - 1].open(); state(opened - 1);  // the network is back
console.log(JSON.stringify({ id, sent, statuses, holeAt, deadAt, opened,
  closed: FakeSocket.all.map((s) => s.closed), heartbeat: HEARTBEAT }));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")
def test_a_silent_socket_is_found_dead_and_replaced_and_the_action_resent() -> None:
    """The heartbeat on a fake clock: pings when idle, a socket that stops carrying data is
    dropped within 10 s of going silent, a socket stuck connecting is given up, and the
    unanswered action goes out again, same message, on the socket that opens."""
    result = _run(HEARTBEAT)
    beat = result["heartbeat"]
    pings = [(at, n) for at, n, m in result["sent"] if m["type"] == "ping"]
    assert pings and pings[0] == (beat["PING_AFTER"], 0), pings
    print(f"found dead {result['deadAt'] - result['holeAt']} ms after the last data")
    assert result["deadAt"] - result["holeAt"] <= 10_000
    assert result["closed"][0], "the dead socket is closed"
    assert result["opened"] >= 3 and result["closed"][1], "the stuck connect is given up"
    actions = [(n, m) for _, n, m in result["sent"] if m["type"] == "action"]
    first = {"type": "action", "id": result["id"], "version": 7, "action": {"type": "DrawPile"}}
    assert actions == [(0, first), (result["opened"] - 1, first)]
    ups = [up for _, up in result["statuses"]]
    assert ups[0] is True and ups[-1] is True and False in ups


MOVED = """
const statuses = [];
const got = [];
const delays = [];
class FakeSocket {
  static OPEN = 1;
  constructor(url) { this.readyState = 0; this.handlers = {}; FakeSocket.all.push(this); }
  addEventListener(kind, fn) { (this.handlers[kind] ||= []).push(fn); }
  fire(kind, ev = {}) { for (const fn of this.handlers[kind] || []) fn(ev); }
  open() { this.readyState = 1; this.fire('open'); }
  say(msg) { this.fire('message', { data: JSON.stringify(msg) }); }
  send() {}
  close() {}
}
FakeSocket.all = [];
globalThis.WebSocket = FakeSocket;
globalThis.location = { protocol: 'http:', host: 'example.test' };
globalThis.setTimeout = (fn, ms) => { delays.push(ms); fn(); return 0; };  // at once
globalThis.setInterval = () => 0;
globalThis.clearInterval = () => {};
const { RoomSocket } = await import(process.argv[1]);
const socket = new RoomSocket('ABCDEF', 'tok',
  { onMessage: (m) => got.push(m.type + ':' + (m.code || '')),
    onStatus: (up) => statuses.push(up) });
const last = () => FakeSocket.all[FakeSocket.all.length - 1];
socket.connect();
last().open(); last().say({ type: 'state' });
// The owner dies: the socket drops, then nginx answers 502 (no socket opens) six times.
last().fire('close', { code: 1006 });
for (let n = 0; n < 6; n++) last().fire('close', { code: 1006 });
// Its lease ran out: accepted only to be told `room_moved`, closed 1012, twice.
for (let n = 0; n < 2; n++) {
  last().open();
  last().say({ type: 'error', id: null, code: 'room_moved', message: 'm', message_en: 'm' });
  last().fire('close', { code: 1012 });
}
const beforeBack = statuses.slice();
last().open(); last().say({ type: 'state' });  // the new owner serves it
last().fire('close', { code: 1006 });
console.log(JSON.stringify({ statuses, beforeBack, got, delays, sockets: FakeSocket.all.length }));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")
def test_a_room_moving_to_another_process_is_followed_quietly() -> None:
    """Fail-over (docs/cluster.md): the dead owner's 502s back off up to 2 s, and a socket
    closed 1012 after `room_moved` is retried within about a second whatever came before;
    such a socket is never shown connected, resets no backoff, and its `room_moved` is no
    message for the player (the page reconnects by itself); the next state shows it up."""
    result = _run(MOVED)
    delays = result["delays"]
    assert len(delays) == 10 and result["sockets"] == 11
    # 250, 500, 1000, 2000, 2000… ms ±20 %: the dead owner's share, never more than 2.4 s.
    for delay, nominal in zip(delays[:7], (250, 500, 1000, 2000, 2000, 2000, 2000),
                              strict=True):
        assert 0.8 * nominal <= delay <= 1.2 * nominal, delays
    assert all(800 <= d <= 1200 for d in delays[7:9]), delays  # after 1012: about 1 s
    assert 200 <= delays[9] <= 300, delays  # the new owner served: the backoff starts over
    assert result["beforeBack"] == [True] + [False] * 9, result["statuses"]
    assert result["statuses"][-2:] == [True, False]
    assert result["got"] == ["state:", "state:"], "no room_moved reaches the page"
