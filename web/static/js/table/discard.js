// The draw pile (count, click to draw) and the discard packets (takeable cards highlighted).
import { t, tn } from '../i18n.js';
import { h, replace } from '../dom.js';
import { cardBack, cardFace, cardLabel } from '../cards.js';
import { legalOf, seatName } from './common.js';
import { icon } from '../icons.js';

let shownDirection = 0;

let seenPackets = null;

export function renderPile(ctx) {
  const { view } = ctx.state;
  const el = document.getElementById('pile');
  const draw = view.pending && view.pending.kind === 'draw' ? legalOf(view, 'DrawPile')[0] : undefined;
  const label = t('table.pile_label', { pile: t('table.pile'), cards: tn('table.cards', view.pile_count) })
    + (draw ? ` — ${t('table.click_to_draw')}` : '');
  const known = Array.isArray(view.pile_known) && view.pile_known.length
    ? h('p', { class: 'small' }, t('table.pile_known', { cards: view.pile_known.map(cardLabel).join(' ') }))
    : null;
  replace(el,
    h('span', { class: 'zone-title', id: 'pile-title' }, t('table.pile')),
    h('button', {
      type: 'button', class: 'card back', id: 'pile-btn', 'data-focus': 'pile', 'aria-label': label, title: label,
      disabled: !draw || ctx.busy, onclick: () => draw && ctx.act(draw),
    }, cardBack(), h('span', { class: 'count' }, String(view.pile_count))),
    known,
    view.direction === undefined ? null : direction(view.direction));
}

/** The direction of play, drawn as a turning arrow; it spins round when a 9 reverses it. */
function direction(d) {
  const el = h('span', { class: `direction${d === 1 ? '' : ' ccw'}`, id: 'direction', title: t('table.direction') },
    icon('dir'), d === 1 ? t('table.clockwise') : t('table.counterclockwise'));
  if (shownDirection && shownDirection !== d) el.classList.add('flip');
  shownDirection = d;
  return el;
}

/** `offered`: the index of the packet the seat to draw may take from (YANNIV's view names it
 * `previous_packet`; another game passes its own). */
export function renderDiscard(ctx, offered = ctx.state.view.previous_packet) {
  const { view } = ctx.state;
  const el = document.getElementById('discard');
  const takes = new Map(legalOf(view, 'TakeDiscard').map((a) => [a.card, a]));
  // The view lists the takeable cards and the previous packet at the top level.
  const takeableAll = new Set(Array.isArray(view.takeable) ? view.takeable : []);
  const packets = view.discard.map((p, index) => ({
    ...p,
    index,
    takeable: p.cards.filter((c) => takeableAll.has(c)),
    previous: offered === index,
  }));
  const last = packets.length - 1;
  // The newest packets, plus any older one holding a card the acting seat may take (Jack).
  const shown = packets.filter((p) => p.index >= last - 2 || p.previous || p.takeable.length);
  const prevSeen = seenPackets;
  seenPackets = new Set(packets.map((p) => `${p.index}:${p.cards.join(',')}`));
  replace(el,
    h('span', { class: 'zone-title' }, t('table.discard')),
    h('div', { class: 'packets' }, shown.map((p) => {
      const key = `${p.index}:${p.cards.join(',')}`;
      const fresh = prevSeen !== null && !prevSeen.has(key);
      const who = p.seat === null || p.seat === undefined ? t('table.flipped')
        : (p.index === last && view.turn_play && view.turn_play.length && p.seat === view.turn ? t('table.this_turn', { name: seatName(ctx, p.seat) }) : seatName(ctx, p.seat));
      return h('div', { class: `packet${p.previous ? ' previous' : ''}${p.index < last - 1 ? ' older' : ''}`, dataset: { packet: String(p.index) } },
        h('span', { class: 'who' }, who, p.previous ? ` · ${t('table.previous')}` : ''),
        h('div', { class: 'cards' }, p.cards.map((code) => {
          const take = takes.get(code);
          const takeable = p.takeable.includes(code);
          return cardFace(code, {
            takeable,
            enter: fresh,
            focusKey: `discard-${code}`,
            extraLabel: takeable ? t('table.takeable') : undefined,
            onclick: take ? () => ctx.act(take) : undefined,
            disabled: take ? ctx.busy : undefined,
          });
        })));
    })));
}
