// Whose turn, manche number, constraint in force, last lap after a YANNIV.
import { t } from '../i18n.js';
import { h, replace } from '../dom.js';
import { pseudoOf } from './common.js';
import { icon } from '../icons.js';
import { timerBadge } from './opponents.js';

let shown = null;

export function renderStatus(ctx) {
  const { view, room, deadline } = ctx.state;
  const el = document.getElementById('status');
  const manche = view.tiebreak ? t('table.tiebreak', { n: view.manche }) : t('table.manche', { n: view.manche, total: view.manches });
  let turnLine;
  if (view.finished) turnLine = t('table.finished');
  else if (view.pending && view.pending.seat === ctx.me) turnLine = view.pending.kind === 'turn' ? t('table.your_turn') : t('table.your_decision');
  else turnLine = t('table.turn_of', { name: pseudoOf(room, view.turn) });
  const parts = [
    h('span', { class: 'manche' }, manche),
    h('span', { class: 'turn-line', id: 'turn-line' }, turnLine),
  ];
  if (view.pending && view.pending.seat === ctx.me && deadline) {
    parts.push(timerBadge(deadline));
  }
  const c = view.constraint;
  if (c && !view.finished) {
    const text = c.kind === 'six'
      ? t('table.constraint_six', { colour: t(`colour.${c.colour}`), symbols: c.colour === 'red' ? '♥♦' : '♠♣' })
      : t('table.constraint_seven');
    parts.push(h('p', { class: 'constraint', id: 'constraint', style: 'flex-basis:100%;margin:0' }, text));
  }
  if (view.yanniv_caller !== null && view.yanniv_caller !== undefined && !view.finished) {
    const who = view.yanniv_caller === ctx.me ? t('table.you_called') : t('table.called', { name: pseudoOf(room, view.yanniv_caller) });
    // On a short phone only the first words show (the rest is for screen readers).
    parts.push(h('p', { class: 'lastlap', id: 'lastlap', style: 'flex-basis:100%;margin:0' }, icon('megaphone'),
      ` ${who} ${t('table.last_lap')}`, h('span', { class: 'more' }, ` ${t('table.last_lap_more')}`)));
  }
  // The status bar is a live region: redrawn (and so said again) only when its words change.
  const key = JSON.stringify(parts.map((node) => [node.className, node.classList.contains('timer-badge') ? '' : node.textContent]).concat([deadline ?? null]));
  if (key === shown) return;
  shown = key;
  replace(el, parts);
}
