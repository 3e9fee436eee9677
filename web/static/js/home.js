// Home: pseudo (kept in localStorage), create a room, play against the computer, join by code,
// live list of public rooms.
import { t, tn } from './i18n.js';
import { h, replace, scriptReady } from './dom.js';
import { api, getPseudo, setPseudo, setSeat } from './api.js';

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

document.getElementById('create-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const pseudo = requirePseudo();
  if (!pseudo) return;
  errorBox.textContent = '';
  const isPublic = ev.target.querySelector('input[name=visibility]:checked').value === 'public';
  try {
    const res = await api('POST', '/api/rooms', { pseudo, public: isPublic });
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
  const count = Number(document.getElementById('bots-count').value);
  const level = document.getElementById('bots-level').value;
  try {
    const res = await api('POST', '/api/rooms', { pseudo, public: false });
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

async function refresh() {
  let rooms;
  try { rooms = await api('GET', '/api/rooms/public'); } catch { return; }
  if (!Array.isArray(rooms)) return;
  none.hidden = rooms.length > 0;
  replace(list, rooms.map((room) => h('li', { dataset: { code: room.code } },
    h('span', null,
      h('strong', null, t('home.room_of', { host: room.host })), ' ',
      h('span', { class: 'muted small' }, `${room.code} · ${tn('home.players', room.seats_taken)} · ${tn('home.free_seats', room.seats_free)}`)),
    h('button', { type: 'button', class: 'secondary', 'data-focus': `join-${room.code}`, onclick: () => join(room.code),
      'aria-label': t('home.sit_at', { host: room.host }) }, t('home.sit')),
  )));
}
refresh();
setInterval(() => { if (!document.hidden) refresh(); }, 3000);
scriptReady();
