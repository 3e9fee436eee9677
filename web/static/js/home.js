// Home: pseudo (kept in localStorage), the game, create a room, play against the computer,
// join by code, live list of public rooms (pushed: lobby_feed.js). The games (names, seats, computer levels) are the
// server's registry, written into the game list's options by the page.
import { t, tn } from './i18n.js';
import { h, replace, scriptReady } from './dom.js';
import { api, getPseudo, setPseudo, setSeat } from './api.js';
import { LobbyFeed } from './lobby_feed.js';

const pseudoInput = document.getElementById('pseudo');
const errorBox = document.getElementById('home-error');
// What the player typed before this script ran stays; otherwise the remembered pseudo.
pseudoInput.value = pseudoInput.value.trim() || getPseudo();
pseudoInput.addEventListener('change', () => setPseudo(pseudoInput.value.trim()));

function requirePseudo() {
  const pseudo = pseudoInput.value.trim();
  if (!pseudo) {
    errorBox.textContent = t('home.need_pseudo');
    pseudoInput.focus();
    return null;
  }
  setPseudo(pseudo);
  return pseudo;
}

function fail(err) { errorBox.textContent = err.message || String(err); }

async function join(code) {
  const pseudo = requirePseudo();
  if (!pseudo) return;
  errorBox.textContent = '';
  try {
    const res = await api('POST', `/api/rooms/${encodeURIComponent(code)}/join`, { pseudo });
    // The server's spelling of the code: the seat is remembered where the room page looks.
    setSeat(res.code, res.seat, res.token);
    location.href = `/r/${encodeURIComponent(res.code)}`;
  } catch (err) { fail(err); }
}

const gameSelect = document.getElementById('game');
const gameOption = (id) => [...gameSelect.options].find((o) => o.value === id);
const gameName = (id) => { const o = gameOption(id); return o ? o.dataset.name : id; };
const botsCount = document.getElementById('bots-count');
const botsLevel = document.getElementById('bots-level');

// Another game: its rules link, as many opponents as it seats, its computer levels (the
// choices made so far kept when the new game offers them).
function showGame() {
  const option = gameSelect.selectedOptions[0];
  const rules = document.getElementById('game-rules');
  rules.href = option.dataset.rules;
  rules.lastChild.textContent = ` ${t('games.rules_of', { name: option.dataset.name })}`;
  const most = Number(option.dataset.maxSeats) - 1;
  const count = Math.min(Number(botsCount.value) || 1, most);
  replace(botsCount, Array.from({ length: most }, (_, k) => h('option', { value: String(k + 1) }, String(k + 1))));
  botsCount.value = String(count);
  const levels = option.dataset.bots.split(' ');
  const level = botsLevel.value;
  replace(botsLevel, levels.map((key) => h('option', { value: key }, t(`bot.${key}`))));
  botsLevel.value = levels.includes(level) ? level : (levels.includes('moyen') ? 'moyen' : levels[0]);
}
gameSelect.addEventListener('change', showGame);
// A game chosen before this script ran (or kept by the browser on going back) is honoured.
showGame();

document.getElementById('create-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const pseudo = requirePseudo();
  if (!pseudo) return;
  errorBox.textContent = '';
  const isPublic = ev.target.querySelector('input[name=visibility]:checked').value === 'public';
  try {
    const res = await api('POST', '/api/rooms', { pseudo, public: isPublic, game: gameSelect.value });
    setSeat(res.code, res.seat, res.token);
    location.href = `/r/${encodeURIComponent(res.code)}`;
  } catch (err) { fail(err); }
});

// A private room with the player as host and computer players on the other seats, in the lobby.
document.getElementById('bots-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const pseudo = requirePseudo();
  if (!pseudo) return;
  errorBox.textContent = '';
  const count = Number(botsCount.value);
  const level = botsLevel.value;
  try {
    const res = await api('POST', '/api/rooms', { pseudo, public: false, game: gameSelect.value });
    setSeat(res.code, res.seat, res.token);
    for (let i = 0; i < count; i++) await api('POST', `/api/rooms/${res.code}/bots`, { level }, res.token);
    location.href = `/r/${encodeURIComponent(res.code)}`;
  } catch (err) { fail(err); }
});

document.getElementById('join-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const raw = document.getElementById('join-code').value.trim();
  // A pasted link (…/r/CODE…) or the code as typed: the server reads case, spaces and dashes
  // away (as /r/ does) and answers its own spelling.
  const match = raw.match(/\/r\/([^/?#]+)/);
  let code = raw;
  if (match) { try { code = decodeURIComponent(match[1]); } catch { code = match[1]; } }
  if (!code) { errorBox.textContent = t('home.need_code'); return; }
  join(code);
});

const list = document.getElementById('public-rooms');
const none = document.getElementById('no-rooms');

function show(rooms) {
  none.hidden = rooms.length > 0;
  replace(list, rooms.map((room) => h('li', { dataset: { code: room.code } },
    h('span', null,
      h('strong', null, t('home.room_of', { host: room.host })), ' ',
      h('span', { class: 'muted small' }, h('span', { class: 'room-game' }, gameName(room.game)),
        ` · ${room.code} · ${tn('home.players', room.seats_taken)} · ${tn('home.free_seats', room.seats_free)}`)),
    h('button', { type: 'button', class: 'secondary', 'data-focus': `join-${room.code}`, onclick: () => join(room.code),
      'aria-label': t('home.sit_at', { host: room.host }) }, t('home.sit')),
  )));
}
// Pushed by the server as it changes, polled while its socket is down (lobby_feed.js).
const feed = new LobbyFeed({ onRooms: show, poll: () => api('GET', '/api/rooms/public') });
feed.start();
scriptReady();
