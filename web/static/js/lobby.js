// Room lobby: seats (the host adds and removes computer players), code and link, the host's
// settings (read-only for others), start button. The game's own settings, its seat count and
// its computer players come from `GET /api/games` (the game's settings schema), never from
// copies here.
import { lang, t, playerName } from './i18n.js';
import { h, replace, toast } from './dom.js';
import { icon } from './icons.js';
import { presenceBadge } from './table/common.js';

const TIMER_CHOICES = [null, 15, 30, 45, 60, 90, 120];
let botLevel = 'moyen'; // the host's last choice survives re-renders

// Host only, on a free seat: a level and "Ajouter un ordinateur" (it sits on the next free seat).
function addBot(ctx, i, bots) {
  const level = h('select', { id: `bot-level-${i}`, 'data-focus': `bot-level-${i}`, 'aria-label': t('lobby.bot_level', { n: i + 1 }),
    onchange: (e) => { botLevel = e.target.value; } },
  bots.map((b) => h('option', { value: b.level }, lang === 'en' ? b.name_en : b.name_fr)));
  level.value = bots.some((b) => b.level === botLevel) ? botLevel : (bots[0] && bots[0].level);
  return h('span', { class: 'row' }, level,
    h('button', { type: 'button', class: 'secondary', id: `add-bot-${i}`, 'data-focus': `add-bot-${i}`,
      onclick: () => ctx.addBot(level.value) }, icon('bot'), t('lobby.add_bot')));
}

function field(label, control, id) {
  return h('div', { class: 'field' }, h('label', { for: id }, label), control);
}

function check(id, label, checked, disabled, onchange) {
  return h('div', { class: 'field' },
    h('label', { class: 'choice', for: id },
      h('input', { type: 'checkbox', id, checked, disabled, onchange, 'data-focus': id }), ' ', label));
}

function select(id, options, value, disabled, onchange) {
  const node = h('select', { id, disabled, onchange, 'data-focus': id },
    options.map(([v, label]) => h('option', { value: String(v) }, label)));
  node.value = String(value);
  return node;
}

//: A bounded integer with more choices than this is typed (a number field), not listed.
const LIST_MOST = 24;

// What the host is typing in a number field and has not sent yet ({ id, text }).
let typing = null;

// A wide bounded integer: a number field with the schema's bounds and step, its range said
// beside it. The server checks what is sent (a refusal shows the room's value again); a
// field emptied or not a number is put back. Text being typed survives a re-render (another
// player joining, say).
function numberField(id, label, prop, value, ro, onvalue) {
  const low = prop.minimum ?? 0;
  const high = prop.maximum ?? low;
  const step = prop.multipleOf ?? 1;
  const kept = typing && typing.id === id && document.activeElement && document.activeElement.id === id;
  const input = h('input', { type: 'number', id, min: String(low), max: String(high), step: String(step),
    inputmode: 'numeric', value: kept ? typing.text : String(value), disabled: ro, 'data-focus': id,
    'aria-describedby': `${id}-range`,
    oninput: (e) => { typing = { id, text: e.target.value }; },
    onchange: (e) => {
      typing = null;
      const typed = e.target.value.trim() === '' ? NaN : Number(e.target.value);
      if (Number.isFinite(typed)) onvalue(typed); else e.target.value = String(value);
    } });
  const range = step === 1 ? t('games.range', { min: low, max: high }) : t('games.range_step', { min: low, max: high, step });
  return h('div', { class: 'field' }, h('label', { for: id }, label),
    h('span', { class: 'row' }, input, h('span', { class: 'muted small', id: `${id}-range` }, range)));
}

// One control per field of the game's settings schema: a checkbox for a boolean, a list for a
// bounded integer of a few values, a number field for a wide one; labels in the page's
// language, from the schema.
function gameFields(game, s, ro, patch) {
  const props = (game && game.settings && game.settings.properties) || {};
  return Object.entries(props).map(([name, prop]) => {
    const id = `set-${name.replaceAll('_', '-')}`;
    const label = lang === 'en' ? prop.label_en : prop.label_fr;
    const value = s[name] ?? prop.default;
    if (prop.type === 'boolean') return check(id, label, !!value, ro, (e) => patch({ [name]: e.target.checked }));
    const low = prop.minimum ?? 0;
    const high = prop.maximum ?? low;
    const step = prop.multipleOf ?? 1;
    const count = Math.floor((high - low) / step) + 1;
    if (count > LIST_MOST) return numberField(id, label, prop, value, ro, (v) => patch({ [name]: v }));
    const options = Array.from({ length: count }, (_, k) => [low + k * step, String(low + k * step)]);
    return field(label, select(id, options, value, ro, (e) => patch({ [name]: Number(e.target.value) })), id);
  });
}

// The room's game: the host picks among the server's games (one that seats fewer than are
// seated is offered but off), everyone else reads it; its rules a link away.
function gameChoice(games, current, taken, ro, patch) {
  const node = h('select', { id: 'set-game', disabled: ro, 'data-focus': 'set-game',
    onchange: (e) => patch({ game: e.target.value }) },
  games.map((g) => h('option', { value: g.id, disabled: g.id !== current && taken > g.max_seats },
    t('games.option', { name: lang === 'en' ? g.name_en : g.name_fr, min: g.min_seats, max: g.max_seats }))));
  node.value = current;
  const game = games.find((g) => g.id === current);
  const name = game ? (lang === 'en' ? game.name_en : game.name_fr) : current;
  // `/regles/<id>`: the server sends the default game's to its own address.
  return h('div', { class: 'field' }, h('label', { for: 'set-game' }, t('games.label')),
    h('span', { class: 'row' }, node,
      h('a', { href: `/regles/${encodeURIComponent(current)}`, id: 'game-rules', class: 'rules-link' }, icon('book'), ' ', t('games.rules_of', { name }))));
}

export function renderLobby(ctx) {
  const el = document.getElementById('lobby');
  const { room } = ctx.state;
  if (!room) { replace(el); return; }
  // The host's changes on their way are shown as made (a re-render must not flip them back).
  const s = { ...(room.settings || {}), ...ctx.state.settingsPending };
  const isHost = ctx.me !== null && ctx.me !== undefined && room.host_seat === ctx.me;
  const seats = Array.isArray(room.seats) ? room.seats : [];
  const taken = seats.filter((x) => x.pseudo);
  const link = `${location.origin}/r/${room.code}`;
  const ro = !isHost;

  const patch = (change) => ctx.patchSettings(change);  // only what the host changed
  const firstValue = s.first_player === null || s.first_player === undefined ? 'random' : s.first_player;
  const game = (ctx.state.games || []).find((g) => g.id === (s.game || 'yanniv'));
  const seatCount = game ? game.max_seats : seats.length;
  const bots = game ? game.bots : [];
  const seatRows = [];
  for (let i = 0; i < seatCount; i++) {
    const seat = seats.find((x) => x.seat === i && x.pseudo);
    if (!seat) {
      seatRows.push(h('li', { class: 'free' }, t('lobby.free_seat', { n: i + 1 }), isHost && room.status === 'waiting' && bots.length ? addBot(ctx, i, bots) : null));
      continue;
    }
    seatRows.push(h('li', { dataset: { seat: String(i) } },
      h('strong', null, playerName(seat)),
      seat.seat === ctx.me ? h('span', { class: 'badge' }, t('lobby.you')) : null,
      seat.is_host ? h('span', { class: 'badge host' }, t('lobby.host')) : null,
      seat.is_bot ? h('span', { class: 'badge' }, icon('bot'), ' ', t('lobby.bot')) : null,
      seat.is_bot ? null : presenceBadge(ctx, seat),
      isHost && seat.seat !== ctx.me ? h('button', { type: 'button', class: 'danger', 'data-focus': `kick-${i}`,
        'aria-label': t('lobby.remove', { name: playerName(seat) }), onclick: () => ctx.removeSeat(i) }, t('lobby.remove_short')) : null));
  }

  const form = h('form', { class: 'settings-form', id: 'settings-form', onsubmit: (e) => e.preventDefault() },
    h('fieldset', { style: 'border:0;padding:0;margin:0' },
      h('legend', null, h('h2', null, t('lobby.settings'))),
      gameChoice(ctx.state.games || [], s.game || 'yanniv', taken.length, ro, patch),
      check('set-public', t('lobby.public'), !!s.public, ro, (e) => patch({ public: e.target.checked })),
      ...gameFields(game, s, ro, patch),
      field(t('lobby.first_player'), select('set-first', [['random', t('lobby.first_random')], ['host', t('lobby.first_host')],
        ...taken.map((x) => [x.seat, playerName(x)])], firstValue, ro,
      (e) => patch({ first_player: ['random', 'host'].includes(e.target.value) ? e.target.value : Number(e.target.value) })), 'set-first'),
      check('set-known', t('lobby.show_known'), !!s.show_known_cards, ro, (e) => patch({ show_known_cards: e.target.checked })),
      check('set-log', t('lobby.log_visible'), !!s.log_visible, ro, (e) => patch({ log_visible: e.target.checked })),
      field(t('lobby.timer'), select('set-timer', TIMER_CHOICES.map((v) => [v === null ? 'none' : v, v === null ? t('lobby.no_timer') : t('lobby.seconds', { n: v })]),
        s.timer_seconds ?? 'none', ro, (e) => patch({ timer_seconds: e.target.value === 'none' ? null : Number(e.target.value) })), 'set-timer')));

  const copy = async () => {
    try { await navigator.clipboard.writeText(link); toast(t('lobby.copied')); } catch { toast(link); }
  };

  replace(el,
    h('div', { class: 'home-grid' },
      h('div', { class: 'panel stack' },
        h('h1', { id: 'lobby-title' }, t('room.title', { code: room.code })),
        h('p', null, h('span', { class: 'muted' }, t('lobby.code')), ' ', h('span', { class: 'room-code', id: 'room-code' }, room.code)),
        h('p', { class: 'row' },
          h('input', { type: 'text', readonly: true, value: link, id: 'room-link', 'aria-label': t('lobby.link'), style: 'flex:1;min-width:12rem' }),
          h('button', { type: 'button', class: 'secondary', id: 'copy-link', onclick: copy }, icon('link'), t('lobby.copy'))),
        h('p', { class: 'muted small' }, room.public ? t('lobby.is_public') : t('lobby.is_private')),
        h('h2', null, t('lobby.players')),
        h('ul', { class: 'seat-list', id: 'seats' }, seatRows),
        isHost
          ? h('p', { class: 'row' },
            h('button', { type: 'button', class: 'big', id: 'start-btn', 'data-focus': 'start', disabled: taken.length < 2, onclick: ctx.start }, t('lobby.start')),
            taken.length < 2 ? h('span', { class: 'muted small' }, t('lobby.need_two')) : null)
          : h('p', { class: 'waiting', id: 'waiting-host' }, t('lobby.waiting'))),
      h('div', { class: 'panel' }, form, ro ? h('p', { class: 'muted small' }, t('lobby.host_only')) : null)));
}
