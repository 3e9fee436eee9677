// Room page: loads the room, keeps the seat token, opens the socket, renders lobby or table.
import { t } from './i18n.js';
import { scriptReady, toast } from './dom.js';
import { api, getSeat, setSeat, forgetSeat, getPseudo, setPseudo } from './api.js';
import { RoomSocket } from './socket.js';
import { NO_EVENTS, createStore, initialState } from './store.js';
import { renderLobby } from './lobby.js';
import { timerText } from './table/opponents.js';
import { setupMute } from './table/cues.js';
import { placeFocus, setupFocus } from './table/focus.js';
import { gameOf, tableFor } from './games/index.js';
import { declareShortcuts, setupKeys } from './table/keys.js';

const root = document.getElementById('room');
const code = root.dataset.code;
let seat = getSeat(code);
let socket = null;
const resultKey = `yanniv.log.${code}.closed`;  // the manche whose result panel was closed

const stats = { renders: 0, maxMs: 0, totalMs: 0 };
const store = createStore(initialState(code, seat), (state) => {
  const start = performance.now();
  render(state);
  const ms = performance.now() - start;
  stats.renders += 1;
  stats.totalMs += ms;
  stats.maxMs = Math.max(stats.maxMs, ms);
});
window.yannivStore = store; // for debugging and tests
window.yannivStats = stats;

// The host's settings changes, one at a time: each sends only the fields the host changed,
// with the room version it was chosen at. Refused as stale (the room changed meanwhile), the
// room is read again and the same fields are sent again on the new version.
let settingsQueue = Promise.resolve();
const STALE_RETRIES = 3;

async function sendSettings(change) {
  const keys = Object.keys(change);
  try {
    for (let attempt = 0; ; attempt++) {
      const version = store.get().room.version;
      try {
        const res = await api('PATCH', `/api/rooms/${code}/settings`, { ...change, version }, seat && seat.token);
        if (res && res.code) store.dispatch({ type: 'room', room: res });
        return;
      } catch (err) {
        if (err.code !== 'stale_settings' || attempt >= STALE_RETRIES) throw err;
        const fresh = await api('GET', `/api/rooms/${code}`, undefined, seat && seat.token);
        store.dispatch({ type: 'room', room: fresh });
      }
    }
  } catch (err) {
    toast(err.message);
  } finally {
    store.dispatch({ type: 'settingsPending', patch: {}, done: keys });
  }
}

function ctxOf(state) {
  const me = state.me ? state.me.seat : null;
  const offline = !state.connected;
  return {
    state, me, room: state.room, dispatch: store.dispatch, offline,
    // Nothing can be played while an action awaits its answer or the socket is down.
    busy: !!state.sent || offline,
    act(action) {
      if (!socket) return;
      // Unanswered, it stays pending (buttons disabled) and the socket resends it, same id,
      // after reconnecting: never dropped, never applied twice.
      const id = socket.sendAction(action, store.get().version);
      if (id) store.dispatch({ type: 'sent', id });
      else toast(t('room.offline'));
    },
    patchSettings(change) {
      store.dispatch({ type: 'settingsPending', patch: change });
      settingsQueue = settingsQueue.then(() => sendSettings(change));
      return settingsQueue;
    },
    async start() {
      try { await api('POST', `/api/rooms/${code}/start`, {}, seat && seat.token); } catch (err) { toast(err.message); }
    },
    async addBot(level) {
      try { await api('POST', `/api/rooms/${code}/bots`, { level }, seat && seat.token); } catch (err) { toast(err.message); }
    },
    async removeSeat(n) {
      try { await api('DELETE', `/api/rooms/${code}/seats/${n}`, undefined, seat && seat.token); } catch (err) { toast(err.message); }
    },
    async rematch() {
      try { await api('POST', `/api/rooms/${code}/rematch`, {}, seat && seat.token); } catch (err) { toast(err.message); }
    },
  };
}

const conn = document.getElementById('conn');
const joinPanel = document.getElementById('join-panel');
const lobby = document.getElementById('lobby');
const table = document.getElementById('table');

/** Parts of the page that belong to one game (`data-game`) show only for the room's game. */
function showGame(game) {
  if (document.body.dataset.game === game) return;
  document.body.dataset.game = game;
  for (const el of document.querySelectorAll('#table [data-game]')) el.hidden = el.dataset.game !== game;
}

function render(state) {
  const lost = !state.closed && !state.connected && state.everConnected;
  conn.textContent = state.closed ? t('room.closed') : state.connected ? '' : t(lost ? 'room.reconnecting' : 'room.connecting');
  conn.classList.toggle('lost', lost);
  document.body.classList.toggle('offline', lost);
  const room = state.room;
  if (!room) return;
  const ctx = ctxOf(state);
  const playing = !!state.view && room.status !== 'waiting';
  const canJoin = !state.me && room.status === 'waiting';
  joinPanel.hidden = !canJoin;
  lobby.hidden = playing;
  table.hidden = !playing;
  document.body.dataset.status = playing ? 'playing' : 'waiting';
  if (!playing) { renderLobby(ctx); return; }
  const fresh = state.events !== NO_EVENTS;  // state messages came since the last render
  showGame(gameOf(room));
  tableFor(room).render(ctx, fresh);
  declareShortcuts();
  placeFocus(ctx);
  try {
    if (state.dismissedResult !== null) sessionStorage.setItem(resultKey, String(state.dismissedResult));
  } catch { /* ignore */ }
}

function onMessage(msg) {
  switch (msg.type) {
    case 'state': {
      store.dispatch({ type: 'state', msg });
      const s = store.get();
      tableFor(s.room).hear(msg.events, { room: s.room, me: s.me ? s.me.seat : null, pending: s.view && s.view.pending });
      break;
    }
    case 'ack': store.dispatch({ type: 'ack', id: msg.id }); break;
    case 'error': {
      const en = document.documentElement.lang === 'en';
      toast((en && msg.message_en) || msg.message || msg.code);
      store.dispatch({ type: 'error', id: msg.id });
      break;
    }
    case 'journal': store.dispatch({ type: 'journal', events: msg.events }); break;
    case 'presence': store.dispatch({ type: 'presence', seats: msg.seats }); break;
    case 'closed':
      if (msg.code === 4401 || msg.code === 4403) forgetSeat(code);
      store.dispatch({ type: 'closed', code: msg.code });
      break;
    default: break;
  }
}

function connect() {
  if (socket) socket.close();
  socket = new RoomSocket(code, seat && seat.token, {
    onMessage,
    onStatus: (up) => store.dispatch({ type: 'conn', up }),
  });
  socket.connect();
}

document.getElementById('join-room-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const input = document.getElementById('join-pseudo');
  const pseudo = input.value.trim();
  const errorBox = document.getElementById('join-error');
  if (!pseudo) { errorBox.textContent = t('home.need_pseudo'); input.focus(); return; }
  setPseudo(pseudo);
  try {
    const res = await api('POST', `/api/rooms/${code}/join`, { pseudo });
    setSeat(code, res.seat, res.token);
    seat = { seat: res.seat, token: res.token };
    location.reload();
  } catch (err) { errorBox.textContent = err.message; }
});

async function boot() {
  document.getElementById('join-pseudo').value = getPseudo();
  try {
    const closed = sessionStorage.getItem(resultKey);
    if (closed !== null) store.dispatch({ type: 'dismissResult', manche: Number(closed) });
  } catch { /* ignore */ }
  // The games' settings, seats and bots, fetched beside the room (the lobby draws from them).
  const games = api('GET', '/api/games').catch(() => null);
  let room;
  try {
    room = await api('GET', `/api/rooms/${code}`, undefined, seat && seat.token);
  } catch (err) {
    conn.textContent = err.status === 404 ? t('room.not_found') : err.message;
    return;
  }
  if (seat && (room.your_seat === null || room.your_seat === undefined)) {
    forgetSeat(code);
    seat = null;
  }
  if (seat) seat = { seat: room.your_seat, token: seat.token };
  store.dispatch({ type: 'me', me: seat });
  store.dispatch({ type: 'games', games: await games });
  store.dispatch({ type: 'room', room });
  connect();
}

// Timers tick without re-rendering the table; a seat's ring empties as its time runs out.
setInterval(() => {
  for (const el of document.querySelectorAll('.timer[data-deadline]')) {
    const deadline = Number(el.dataset.deadline);
    el.textContent = timerText(deadline);
    el.classList.toggle('low', deadline - Date.now() < 10000);
  }
  for (const el of document.querySelectorAll('.ring[data-deadline]')) {
    el.style.setProperty('--left', String(Math.max(0, (Number(el.dataset.deadline) - Date.now()) / Number(el.dataset.total))));
  }
}, 500);

setupMute(document.getElementById('mute-btn'));
setupKeys(store.flush);
setupFocus();
const sideBtn = document.getElementById('side-btn');
sideBtn.addEventListener('click', () => {
  const open = table.classList.toggle('side-open');
  sideBtn.setAttribute('aria-expanded', String(open));
});

scriptReady();
boot();
