// Opponents seated around the table from the viewer's place, in play order (seat + 1 sits on
// the left, as at a real table where play goes clockwise); pseudo, cards, score, timer ring.
import { t, tn } from '../i18n.js';
import { h, replace } from '../dom.js';
import { cardFace } from '../cards.js';
import { icon } from '../icons.js';
import { presenceDot, pseudoOf } from './common.js';

export function timerText(deadline) {
  const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  return `${left} s`;
}

/** The clock icon, then the seconds left (room.js refreshes the inner `.timer` every second). */
export const timerBadge = (deadline) => h('span', { class: 'timer-badge' }, icon('timer'),
  h('span', { class: 'timer', role: 'timer', dataset: { deadline: String(deadline) } }, timerText(deadline)));

/** Places around the table, clockwise from the viewer's left, for 1 to 3 others. */
const PLACES = [[], ['top'], ['left', 'right'], ['left', 'top', 'right']];

export function renderOpponents(ctx) {
  const { view, room, deadline } = ctx.state;
  const el = document.getElementById('opponents');
  const showKnown = !!(room && room.settings && room.settings.show_known_cards);
  const total = room && room.settings && room.settings.timer_seconds;
  const acting = view.pending ? view.pending.seat : null;
  const n = view.players.length;
  const base = ctx.me ?? 0; // a spectator looks from seat 1's place, which sits at the bottom
  const others = view.players.filter((p) => p.seat !== ctx.me)
    .sort((a, b) => (a.seat - base + n) % n - (b.seat - base + n) % n);
  const places = ctx.me === null || ctx.me === undefined ? ['bottom', ...PLACES[n - 1]] : PLACES[others.length];
  document.getElementById('board').dataset.n = String(others.length);
  replace(el, others.map((p, i) => {
    const info = room && Array.isArray(room.seats) ? room.seats.find((s) => s.seat === p.seat) : null;
    const isActing = acting === p.seat && !view.finished;
    const backs = [];
    for (let k = 0; k < Math.min(p.card_count, 12); k++) backs.push(h('span', { class: 'mini-back' }));
    const ring = isActing && deadline && total
      ? { class: 'ring', dataset: { deadline: String(deadline), total: String(total * 1000) } } : null;
    return h('article', { class: `opponent seat-${places[i] || 'top'}${isActing ? ' acting' : ''}${p.active ? '' : ' inactive'}`,
      dataset: { seat: String(p.seat) }, 'aria-label': pseudoOf(room, p.seat) },
      ring ? h('span', ring) : null,
      h('div', { class: 'who' },
        presenceDot(ctx, info),
        h('span', { class: 'name' }, pseudoOf(room, p.seat)),
        info && info.is_bot ? h('span', { class: 'bot', title: t('lobby.bot') }, icon('bot'), h('span', { class: 'visually-hidden' }, t('lobby.bot'))) : null),
      h('div', { class: 'mini-backs', 'aria-hidden': 'true' }, backs),
      h('div', { class: 'meta' },
        h('span', { class: 'count' }, tn('table.cards', p.card_count)),
        h('span', null, tn('table.score', p.score)),
        isActing && deadline ? timerBadge(deadline) : null,
        p.called_yanniv ? h('span', { class: 'badge host' }, t('act.yanniv')) : null,
        p.active ? null : h('span', null, t('table.out_of_tiebreak'))),
      showKnown && p.known_cards && p.known_cards.length
        ? h('div', { class: 'known' }, h('span', null, t('table.known_cards')), ' ', ...p.known_cards.map((c) => cardFace(c)))
        : null);
  }));
}
