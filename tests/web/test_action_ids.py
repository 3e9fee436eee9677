"""The browser client's action ids (web/static/js/socket.js) are 128 random bits, not a
counter a second tab or a reload would restart: with `crypto.randomUUID` (secure contexts)
and without it (plain http), run by Node on the module itself."""

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
