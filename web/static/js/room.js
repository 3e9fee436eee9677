// Room page: loads the room, keeps the seat token, opens the socket, renders lobby or table.
import { t } from './i18n.js';
import { toast } from './dom.js';
import { api, getSeat, setSeat, forgetSeat, getPseudo, setPseudo } from './api.js';
import { RoomSocket } from './socket.js';
import { createStore, initialState } from './store.js';
import { renderLobby } from './lobby.js';
import { renderHand } from './table/hand.js';
import { renderPile, renderDiscard } from './table/discard.js';
import { renderOpponents, timerText } from './table/opponents.js';
import { renderStatus } from './table/status.js';
import { renderPrompt } from './table/prompts.js';
import { renderScores } from './table/scores.js';
import { renderLog } from './table/log.js';
import { renderResult } from './table/result.js';
import { capture, animate, deal } from './table/motion.js';
import { cue, setupMute } from './table/cues.js';

const root = document.getElementById('room');
const code = root.dataset.code;
let seat = getSeat(code);
let socket = null;
const logKey = `yanniv.log.${code}`;

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

function ctxOf(state) {
  const me = state.me ? state.me.seat : null;
  return {
    state, me, room: state.room, dispatch: store.dispatch, busy: !!state.sent,
    act(action) {
      if (!socket) return;
      const id = socket.sendAction(action, store.get().version);
      if (id) {
        store.dispatch({ type: 'sent', id });
        // Never leave the buttons disabled if the answer got lost (reconnection).
        setTimeout(() => store.dispatch({ type: 'ack', id }), 5000);
      }
      else toast(t('room.offline'));
    },
    async patchSettings(settings) {
      try {
        const body = { public: !!settings.public, manches: settings.manches, first_player: settings.first_player ?? 'random',
          show_known_cards: !!settings.show_known_cards, log_visible: !!settings.log_visible, timer_seconds: settings.timer_seconds ?? null };
        const res = await api('PATCH', `/api/rooms/${code}/settings`, body, seat && seat.token);
        if (res && res.code) store.dispatch({ type: 'room', room: res });
      } catch (err) { toast(err.message); render(store.get()); }
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

let shownEvents = null;
let shownReveal = false;

function render(state) {
  conn.textContent = state.closed ? t('room.closed') : state.connected ? '' : t('room.connecting');
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
  const fresh = state.events !== shownEvents;
  shownEvents = state.events;
  const before = fresh && state.events.length ? capture(ctx.me) : null;
  renderStatus(ctx);
  renderOpponents(ctx);
  renderPile(ctx);
  renderDiscard(ctx);
  renderPrompt(ctx);
  renderHand(ctx);
  renderScores(ctx);
  renderLog(ctx);
  renderResult(ctx);
  const revealed = document.getElementById('result').className;
  if (before && !revealed) animate(before, state.events, ctx.me);
  if (shownReveal && !revealed && !state.view.finished) deal();
  shownReveal = !!revealed;
  cue(ctx, fresh);
  try {
    sessionStorage.setItem(logKey, JSON.stringify(state.log.slice(-150)));
    if (state.dismissedResult !== null) sessionStorage.setItem(`${logKey}.closed`, String(state.dismissedResult));
  } catch { /* ignore */ }
}

function onMessage(msg) {
  switch (msg.type) {
    case 'state': store.dispatch({ type: 'state', msg }); break;
    case 'ack': store.dispatch({ type: 'ack', id: msg.id }); break;
    case 'error': {
      const en = document.documentElement.lang === 'en';
      toast((en && msg.message_en) || msg.message || msg.code);
      store.dispatch({ type: 'error' });
      break;
    }
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
    const saved = JSON.parse(sessionStorage.getItem(logKey) || '[]');
    if (Array.isArray(saved) && saved.length) store.dispatch({ type: 'restoreLog', log: saved });
    const closed = sessionStorage.getItem(`${logKey}.closed`);
    if (closed !== null) store.dispatch({ type: 'dismissResult', manche: Number(closed) });
  } catch { /* ignore */ }
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
const sideBtn = document.getElementById('side-btn');
sideBtn.addEventListener('click', () => {
  const open = table.classList.toggle('side-open');
  sideBtn.setAttribute('aria-expanded', String(open));
});

boot();
