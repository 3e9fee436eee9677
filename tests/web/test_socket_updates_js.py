"""The browser client's socket (web/static/js/socket.js) asks for `update` messages and hands
the page whole states only (PROTOCOL.md 5.4), run by Node on the module itself with a fake
WebSocket: an update's view fields replace the held ones, its room summary the held one when
it has one (else the held one, at the new version); an update with no state held drops the
socket, so that the next one starts with a whole state."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

SOCKET_JS = Path(__file__).resolve().parents[2] / "web" / "static" / "js" / "socket.js"

SCRIPT = """
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
  send() {}
  close() { this.closed = true; }
}
FakeSocket.all = [];
globalThis.WebSocket = FakeSocket;
globalThis.location = { protocol: 'https:', host: 'example.test' };
globalThis.setTimeout = () => 1;  // no reconnect during the script
globalThis.setInterval = () => 1;
globalThis.clearInterval = () => {};
const { RoomSocket } = await import(process.argv[1]);
const got = [];
const statuses = [];
const socket = new RoomSocket('AB CD', 'a&b',
  { onMessage: (m) => got.push(m), onStatus: (up) => statuses.push(up) });
socket.connect();
const ws = FakeSocket.all[0];
ws.open();
const say = (m) => ws.fire('message', { data: JSON.stringify(m) });
const room = { code: 'ABCD', version: 5, seats: [{ seat: 0, connected: true }], your_seat: 0 };
say({ type: 'state', version: 5, room, deadline: null, events: [],
      view: { viewer: 0, hand: ['AS', '2S'], history: [1, 2], step: 3 } });
say({ type: 'update', version: 6, room: null, deadline: 99, events: [{ type: 'Drew' }],
      view: { viewer: 0, hand: ['AS'], step: 4 } });
const room7 = { ...room, version: 7, seats: [{ seat: 0, connected: false }] };
say({ type: 'update', version: 7, room: room7, deadline: null, events: [],
      view: { viewer: 0, hand: ['AS'], history: [1, 2, 3] } });
say({ type: 'pong' });
const before = FakeSocket.all.length;
socket.connect();  // a new socket holds nothing: an update on it is not applied
const second = FakeSocket.all[before];
second.open();
second.fire('message', { data: JSON.stringify({ type: 'update', version: 8, room: null,
  deadline: null, events: [], view: { viewer: 0 } }) });
console.log(JSON.stringify({ url: ws.url, got, statuses, secondClosed: second.closed }));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")
def test_updates_are_merged_into_whole_states() -> None:
    out = subprocess.run(
        ["node", "--input-type=module", "-e", SCRIPT, SOCKET_JS.as_uri()],
        capture_output=True, text=True, check=True, timeout=60,
    )
    result = json.loads(out.stdout)
    assert result["url"] == "wss://example.test/ws/AB%20CD?updates=1&token=a%26b"
    room = {"code": "ABCD", "version": 5, "seats": [{"seat": 0, "connected": True}],
            "your_seat": 0}
    first, second, third, pong = result["got"]
    assert first["view"] == {"viewer": 0, "hand": ["AS", "2S"], "history": [1, 2], "step": 3}
    assert second == {
        "type": "state", "version": 6, "room": {**room, "version": 6}, "deadline": 99,
        "events": [{"type": "Drew"}],
        "view": {"viewer": 0, "hand": ["AS"], "history": [1, 2], "step": 4},
    }
    assert third == {
        "type": "state", "version": 7,
        "room": {**room, "version": 7, "seats": [{"seat": 0, "connected": False}]},
        "deadline": None, "events": [],
        "view": {"viewer": 0, "hand": ["AS"], "history": [1, 2, 3], "step": 4},
    }
    assert pong == {"type": "pong"}
    # The update with nothing held reached nobody; its socket was given up.
    assert result["secondClosed"] is True
    assert result["statuses"][0] is True and result["statuses"][-1] is False
