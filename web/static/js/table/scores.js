// Scores by manche: one row per finished manche, then the totals.
import { t } from '../i18n.js';
import { h, replace } from '../dom.js';
import { pseudoOf } from './common.js';

const signed = (n) => (n > 0 ? `+${n}` : String(n));

export const renderScores = (ctx) => replace(document.getElementById('scores'), scoreTable(ctx));

/** The match sheet: also shown by the final ranking. */
export function scoreTable(ctx) {
  const { view, room } = ctx.state;
  const seats = view.players.map((p) => p.seat);
  const head = h('tr', null, h('th', { scope: 'col' }, t('scores.manche')),
    seats.map((s) => h('th', { scope: 'col', class: `num${s === ctx.me ? ' me' : ''}` }, pseudoOf(room, s))));
  const rows = (view.history || []).map((r) => h('tr', null,
    h('th', { scope: 'row' }, r.tiebreak ? t('scores.tiebreak') : String(r.manche)),
    seats.map((s) => {
      const played = !r.participants || r.participants.includes(s);
      const text = played ? signed(r.deltas[s]) : '—';
      return h('td', { class: `num${s === ctx.me ? ' me' : ''}` }, text, r.winner === s ? h('span', { title: t('scores.winner') }, ' ★') : null);
    })));
  const total = h('tr', { class: 'total' }, h('th', { scope: 'row' }, t('scores.total')),
    seats.map((s) => h('td', { class: `num${s === ctx.me ? ' me' : ''}` }, h('strong', null, String(view.scores[s])))));
  return h('table', null, h('caption', { class: 'visually-hidden' }, t('table.scores')), h('thead', null, head), h('tbody', null, rows, total));
}
