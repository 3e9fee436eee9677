// End of a manche: every hand revealed with its points; end of the match: ranking and "Rejouer".
import { t, tn } from '../i18n.js';
import { h, replace } from '../dom.js';
import { cardFace } from '../cards.js';
import { icon } from '../icons.js';
import { pseudoOf, rulesText } from './common.js';

const signed = (n) => (n > 0 ? `+${n}` : String(n));

function mancheResult(ctx, r) {
  const { room } = ctx.state;
  const seats = r.participants && r.participants.length ? r.participants : r.hands.map((_, i) => i);
  const title = r.tiebreak ? t('result.tiebreak_title', { n: r.manche }) : t('result.title', { n: r.manche });
  let verdict;
  if (r.winner !== null && r.winner !== undefined) verdict = t('result.winner', { name: pseudoOf(room, r.winner), ...rulesText(room) });
  else verdict = t('result.tied');
  return [
    h('h2', null, title),
    h('p', { class: 'winner' }, icon('trophy'), ` ${verdict}`,
      r.caller !== null && r.caller !== undefined ? ` — ${t('result.caller', { name: pseudoOf(room, r.caller) })}` : ''),
    h('ul', { class: 'hands' }, seats.map((s) => h('li', { dataset: { seat: String(s) } },
      h('strong', { style: 'min-width:6rem' }, pseudoOf(room, s), s === r.winner ? ' ★' : ''),
      h('span', { class: 'cards row' }, (r.hands[s] || []).map((c) => cardFace(c))),
      h('span', null, tn('table.points', r.points[s])),
      h('span', { class: 'badge' }, `${t('result.delta')} ${signed(r.deltas[s])}`),
      h('span', { class: 'muted' }, `${t('scores.total')} ${r.totals[s]}`)))),
  ];
}

export function renderResult(ctx) {
  const el = document.getElementById('result');
  const { view, room } = ctx.state;
  const r = view.last_result;
  const parts = [];
  if (view.finished) {
    parts.push(h('h2', null, t('result.match_over')));
    parts.push(h('ol', { class: 'ranking', id: 'ranking' }, view.ranking.map((s, i) => h('li', null,
      i < 3 ? [icon('medal', `place-${i + 1}`), ' '] : '', pseudoOf(room, s), ` — ${tn('table.score', view.scores[s])}`))));
    if (ctx.me !== null && ctx.me !== undefined) {
      parts.push(h('p', { class: 'row' },
        h('button', { type: 'button', class: 'big', id: 'rematch-btn', 'data-focus': 'rematch', onclick: ctx.rematch }, t('result.rematch')),
        h('a', { class: 'button secondary', href: '/' }, t('nav.home'))));
    }
    if (r) parts.push(h('details', null, h('summary', null, t('result.last_manche')), h('div', null, mancheResult(ctx, r))));
  } else if (r && ctx.state.dismissedResult !== r.manche) {
    parts.push(...mancheResult(ctx, r));
    parts.push(h('button', { type: 'button', class: 'secondary', id: 'result-close', 'data-focus': 'result-close',
      onclick: () => ctx.dispatch({ type: 'dismissResult', manche: r.manche }) }, t('result.close')));
  }
  if (!parts.length) { replace(el); el.className = ''; return; }
  el.className = 'result';
  replace(el, parts);
}
