"""The room page's store (web/static/js/store.js) run by Node on the module itself: it renders
once per animation frame, so state messages that come within one frame must all reach that
render's events (a YANIV call followed at once by a bot's play once lost its moment on a slow
machine), and a render with no new state message is not fresh. A room older than the one
shown is ignored whether it comes by HTTP or by the socket (a settings test saw a late state
of the first of two quick changes undo the second on the page)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STORE = ROOT / "web" / "static" / "js" / "store.js"

SCRIPT = """
const frames = [];
globalThis.requestAnimationFrame = (f) => frames.push(f);
const frame = () => { const now = frames.splice(0); now.forEach((f) => f()); };
const { createStore, initialState, NO_EVENTS } = await import(process.argv[1]);
const seen = [];
let store;
let dispatchInRender = false;
store = createStore(initialState('ABCD', { seat: 0, token: 't' }), (s) => {
  seen.push({ events: s.events.map((e) => e.type), fresh: s.events !== NO_EVENTS });
  if (dispatchInRender) {
    dispatchInRender = false;
    store.dispatch({ type: 'select', code: 'AS' });
  }
});
const state = (version, ...types) => ({ type: 'state', msg: {
  version, view: { step: version, hand: ['AS'] }, events: types.map((type) => ({ type })) } });
// Two messages in one frame: the call and the bot's play after it.
store.dispatch(state(1, 'YanivCalled', 'MancheEnded'));
store.dispatch(state(2, 'Played'));
frame();
// A render for a click only: nothing fresh.
store.dispatch({ type: 'select', code: 'AS' });
frame();
// A state message without events is still fresh; then a flush (a key press) renders at once.
store.dispatch(state(3));
store.flush();
frame();
// A render that dispatches: what it showed is done, what came after stays for the next one.
dispatchInRender = true;
store.dispatch(state(4, 'Drawn'));
frame();
frame();
store.dispatch(state(5, 'Played'));
frame();
console.log(JSON.stringify(seen));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")
def test_a_frame_renders_the_events_of_every_message_since_the_last() -> None:
    out = subprocess.run(["node", "--input-type=module", "-e", SCRIPT, STORE.as_uri()],
                         capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(out.stdout) == [
        {"events": ["YanivCalled", "MancheEnded", "Played"], "fresh": True},
        {"events": [], "fresh": False},
        {"events": [], "fresh": True},
        {"events": ["Drawn"], "fresh": True},
        {"events": [], "fresh": False},
        {"events": ["Played"], "fresh": True},
    ]


ROOMS = """
const { reduce, initialState } = await import(process.argv[1]);
let s = initialState('ABCD', { seat: 0, token: 't' });
const room = (version, timer) => ({ version, settings: { timer_seconds: timer } });
const seen = [];
// The answer to the second setting (version 3) comes before the socket's state of the first.
s = reduce(s, { type: 'room', room: room(3, null) });
s = reduce(s, { type: 'state', msg: { version: 2, room: room(2, 30), view: null, events: [] } });
seen.push(s.room.settings.timer_seconds);
s = reduce(s, { type: 'room', room: room(2, 30) });  // a late HTTP answer: older too
seen.push(s.room.settings.timer_seconds);
s = reduce(s, { type: 'state', msg: { version: 4, room: room(4, 60), view: null, events: [] } });
seen.push(s.room.settings.timer_seconds);
console.log(JSON.stringify(seen));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")
def test_a_room_older_than_the_one_shown_is_ignored_from_either_connection() -> None:
    out = subprocess.run(["node", "--input-type=module", "-e", ROOMS, STORE.as_uri()],
                         capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(out.stdout) == [None, None, 60]
