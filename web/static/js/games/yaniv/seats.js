// The other seats of a Yaniv table (2 to 8 players), in play order from the viewer's left
// (seat + 1 sits on the left: play goes clockwise). Each is compact: presence, name, cards in
// hand, total, the cards everybody saw it take (when the room shows them), whose turn with its
// clock, out of the match or sitting out a tiebreak. On a wide screen the seats sit round an
// oval table (positions computed here, as percentages of the board); on a phone, in rows.
import { t, tn } from '../../i18n.js';
import { h, replace } from '../../dom.js';
import { cardFace } from '../../cards.js';
import { icon } from '../../icons.js';
import { presenceDot, pseudoOf } from '../../table/common.js';
import { timerBadge } from '../../table/opponents.js';

/** Where seat `i` of `k` others sits round the oval, from the viewer's left to their right:
 * `y` is its middle, or its top edge on the far side (`high`: a seat grows downwards there,
 * where the board has room, never out over its top). */
function place(i, k) {
  const deg = k === 1 ? 90 : 200 - (220 * i) / (k - 1);
  const a = (deg * Math.PI) / 180;
  const high = Math.sin(a) > 0.5;
  return { x: 50 + 43 * Math.cos(a), y: 50 - 41 * Math.sin(a) - (high ? 8 : 0), high };
}

export function renderSeats(ctx) {
  const { view, room, deadline } = ctx.state;
  const el = document.getElementById('opponents');
  const showKnown = !!(room && room.settings && room.settings.show_known_cards);
  const total = room && room.settings && room.settings.timer_seconds;
  const acting = view.pending && !view.finished ? view.pending.seat : null;
  const n = view.players.length;
  const base = ctx.me ?? 0; // a spectator sees every seat, seat 1 first
  const others = view.players.filter((p) => p.seat !== ctx.me)
    .sort((a, b) => (a.seat - base + n) % n - (b.seat - base + n) % n);
  const board = document.getElementById('board');
  board.dataset.n = String(others.length);
  replace(el, others.map((p, i) => {
    const info = room && Array.isArray(room.seats) ? room.seats.find((s) => s.seat === p.seat) : null;
    const isActing = acting === p.seat;
    const { x, y, high } = place(i, others.length);
    const state = !p.in_match ? 'out' : !p.dealt ? 'idle' : '';
    const ring = isActing && deadline && total
      ? h('span', { class: 'ring', dataset: { deadline: String(deadline), total: String(total * 1000) } }) : null;
    const known = showKnown && p.in_match && p.known_cards.length
      ? h('div', { class: 'known', 'aria-label': t('table.known_cards') }, p.known_cards.map((c) => cardFace(c))) : null;
    return h('article', {
      class: `yseat${isActing ? ' acting' : ''}${state ? ` ${state}` : ''}${high ? ' high' : ''}`,
      style: `--x:${x.toFixed(1)}%;--y:${y.toFixed(1)}%`,
      dataset: { seat: String(p.seat) }, 'aria-label': pseudoOf(room, p.seat),
    },
    ring,
    h('div', { class: 'who' },
      presenceDot(ctx, info),
      h('span', { class: 'name' }, pseudoOf(room, p.seat)),
      info && info.is_bot ? h('span', { class: 'bot', title: t('lobby.bot') }, icon('bot'), h('span', { class: 'visually-hidden' }, t('lobby.bot'))) : null),
    h('div', { class: 'meta' },
      p.dealt && p.in_match ? h('span', { class: 'count', title: tn('table.cards', p.card_count) },
        h('span', { class: 'mini-back', 'aria-hidden': 'true' }), h('span', { 'aria-hidden': 'true' }, String(p.card_count)),
        h('span', { class: 'visually-hidden' }, tn('table.cards', p.card_count))) : null,
      h('span', { class: 'score' }, tn('table.points', p.score)),
      view.dealer === p.seat && p.dealt ? h('span', { class: 'dealer', title: t('yaniv.dealer') }, t('yaniv.dealer_short'),
        h('span', { class: 'visually-hidden' }, ` ${t('yaniv.dealer')}`)) : null,
      state === 'out' ? h('span', { class: 'badge out' }, t('yaniv.eliminated')) : null,
      state === 'idle' ? h('span', { class: 'badge' }, t('table.out_of_tiebreak')) : null,
      isActing && deadline ? timerBadge(deadline) : null),
    known);
  }));
}
