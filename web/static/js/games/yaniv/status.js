// The Yaniv status bar: the manche (or tiebreak), how the match ends (over the threshold, or
// by elimination), whose turn it is, and my clock.
import { t } from '../../i18n.js';
import { h, replace } from '../../dom.js';
import { pseudoOf } from '../../table/common.js';
import { timerBadge } from '../../table/opponents.js';

let shown = null;

export function renderYanivStatus(ctx) {
  const { view, room, deadline } = ctx.state;
  const el = document.getElementById('status');
  const p = view.pending;
  let turnLine;
  if (view.finished) turnLine = t('table.finished');
  else if (p && p.seat === ctx.me) turnLine = p.kind === 'turn' ? t('table.your_turn') : t('yaniv.status.your_draw');
  else if (p) turnLine = t('table.turn_of', { name: pseudoOf(room, p.seat) });
  else turnLine = '';
  const goal = t(view.elimination ? 'yaniv.status.goal_elimination' : 'yaniv.status.goal', { n: view.threshold });
  const parts = [
    h('span', { class: 'manche' }, view.tiebreak ? t('table.tiebreak', { n: view.manche }) : t('yaniv.status.manche', { n: view.manche })),
    h('span', { class: 'goal', title: t(view.elimination ? 'yaniv.status.elimination' : 'yaniv.status.threshold', { n: view.threshold }) },
      goal, view.decks > 1 ? ` · ${t('yaniv.status.two_decks')}` : ''),
    h('span', { class: 'turn-line', id: 'turn-line' }, turnLine),
  ];
  if (p && p.seat === ctx.me && deadline && !view.finished) parts.push(timerBadge(deadline));
  // A live region: redrawn (and so said again) only when its words change.
  const key = JSON.stringify(parts.map((node) => (node.classList.contains('timer-badge') ? '' : node.textContent)).concat([deadline ?? null]));
  if (key === shown) return;
  shown = key;
  replace(el, parts);
}
