// Opponents: pseudo, card count, connection, timer, score, YANNIV call, known cards.
import { t, tn } from '../i18n.js';
import { h, replace } from '../dom.js';
import { cardFace } from '../cards.js';
import { icon } from '../icons.js';
import { presenceBadge, pseudoOf } from './common.js';

export function timerText(deadline) {
  const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  return `${left} s`;
}

/** The clock icon, then the seconds left (room.js refreshes the inner `.timer` every second). */
export const timerBadge = (deadline) => h('span', { class: 'timer-badge' }, icon('timer'),
  h('span', { class: 'timer', dataset: { deadline: String(deadline) } }, timerText(deadline)));

export function renderOpponents(ctx) {
  const { view, room } = ctx.state;
  const el = document.getElementById('opponents');
  const showKnown = !!(room && room.settings && room.settings.show_known_cards);
  const acting = view.pending ? view.pending.seat : null;
  const others = view.players.filter((p) => p.seat !== ctx.me);
  replace(el, others.map((p) => {
    const info = room && Array.isArray(room.seats) ? room.seats.find((s) => s.seat === p.seat) : null;
    const isActing = acting === p.seat && !view.finished;
    const backs = [];
    for (let i = 0; i < Math.min(p.card_count, 12); i++) backs.push(h('span', { class: 'mini-back', 'aria-hidden': 'true' }));
    return h('article', { class: `opponent${isActing ? ' acting' : ''}${p.active ? '' : ' inactive'}`, dataset: { seat: String(p.seat) },
      'aria-label': pseudoOf(room, p.seat) },
      h('div', { class: 'who' },
        isActing ? h('span', { 'aria-hidden': 'true' }, '▶') : null,
        h('span', { class: 'name' }, pseudoOf(room, p.seat)),
        info && info.is_bot ? h('span', { class: 'badge' }, icon('bot'), ' ', t('lobby.bot')) : null,
        presenceBadge(ctx, info),
        p.called_yanniv ? h('span', { class: 'badge host' }, t('act.yanniv')) : null),
      h('div', { class: 'mini-backs', 'aria-hidden': 'true' }, backs),
      h('div', { class: 'meta' },
        h('span', { class: 'count' }, tn('table.cards', p.card_count)),
        h('span', null, tn('table.score', p.score)),
        isActing && ctx.state.deadline ? timerBadge(ctx.state.deadline) : null,
        p.active ? null : h('span', null, t('table.out_of_tiebreak'))),
      showKnown && p.known_cards && p.known_cards.length
        ? h('div', { class: 'known' }, h('span', null, t('table.known_cards')), ' ', ...p.known_cards.map((c) => cardFace(c)))
        : null);
  }));
}
