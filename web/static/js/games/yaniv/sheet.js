// The Yaniv score sheet: a row per manche, a column per seat; each cell is what the manche
// added, marked when the total landed on a number brought down (100 → 50, 200 → 100: the
// room's `limits.landings`), when the caller was caught (Assaf) or won with a bonus, and when
// the seat left the match (elimination). Also shown by the final ranking.
import { t, formatNumber } from '../../i18n.js';
import { h } from '../../dom.js';
import { pseudoOf } from '../../table/common.js';

export const signed = (n) => (n > 0 ? `+${n}` : formatNumber(n));

/** The room's landings as « 100 → 50 » texts (its `limits.landings`: from, to, from, to…). */
export function landingPairs(room) {
  const list = (room && room.limits && Array.isArray(room.limits.landings)) ? room.limits.landings : [];
  const pairs = [];
  for (let i = 0; i + 1 < list.length; i += 2) pairs.push(`${list[i]} → ${list[i + 1]}`);
  return pairs;
}

/** The total before it was brought down: the previous total plus the manche's points. */
export function landedFrom(history, i, seat) {
  const before = i > 0 ? history[i - 1].totals[seat] : 0;
  return before + history[i].deltas[seat];
}

/** The manche at which `seat` left the match, or null. */
export function leftAt(history, seat) {
  const r = (history || []).find((x) => x.eliminated.includes(seat));
  return r ? r.manche : null;
}

function cell(ctx, history, i, s) {
  const r = history[i];
  const mine = s === ctx.me ? ' me' : '';
  if (!r.participants.includes(s)) {
    return h('td', { class: `num${mine} absent` }, h('span', { 'aria-hidden': 'true' }, '—'),
      h('span', { class: 'visually-hidden' }, t('yaniv.sheet.absent')));
  }
  const marks = [];
  if (r.caller === s) {
    marks.push(h('abbr', { class: `mark${r.assaf ? ' assafed' : ' called'}`, title: t(r.assaf ? 'yaniv.sheet.assafed' : 'yaniv.sheet.called') },
      t(r.assaf ? 'yaniv.sheet.assafed_short' : 'yaniv.sheet.called_short')));
  } else if (r.assaf && r.winner === s) {
    marks.push(h('abbr', { class: 'mark assaf', title: t('yaniv.sheet.assaf') }, t('yaniv.sheet.assaf_short')));
  }
  if (r.brought_down.includes(s)) {
    const from = landedFrom(history, i, s);
    marks.push(h('span', { class: 'landing', title: t('yaniv.sheet.landing', { from, to: r.totals[s] }) },
      `${from} → ${r.totals[s]}`));
  }
  if (r.eliminated.includes(s)) marks.push(h('span', { class: 'mark out', title: t('yaniv.eliminated') }, '✕'));
  return h('td', { class: `num${mine}` }, signed(r.deltas[s]), marks.length ? ' ' : null, marks);
}

export function yanivSheet(ctx) {
  const { view, room } = ctx.state;
  const history = view.history || [];
  const seats = view.players.map((p) => p.seat);
  const head = h('tr', null, h('th', { scope: 'col' }, t('scores.manche')),
    seats.map((s) => h('th', { scope: 'col', class: `num${s === ctx.me ? ' me' : ''}` }, pseudoOf(room, s))));
  const rows = history.map((r, i) => h('tr', null,
    h('th', { scope: 'row' }, r.tiebreak ? t('scores.tiebreak') : String(r.manche)),
    seats.map((s) => cell(ctx, history, i, s))));
  const total = h('tr', { class: 'total' }, h('th', { scope: 'row' }, t('scores.total')),
    seats.map((s) => {
      const out = view.players[s] && !view.players[s].in_match;
      return h('td', { class: `num${s === ctx.me ? ' me' : ''}${out ? ' out' : ''}` },
        h('strong', null, formatNumber(view.scores[s])), out ? h('span', { class: 'small' }, ` ${t('yaniv.eliminated')}`) : null);
    }));
  const table = h('table', { class: 'yaniv-sheet' }, h('caption', { class: 'visually-hidden' }, t('table.scores')),
    h('thead', null, head), h('tbody', null, rows, total));
  // The marks the sheet holds, explained once below it.
  const used = [];
  const some = (test) => history.some(test);
  if (some((r) => !r.assaf)) used.push(['called_short', 'called']);
  if (some((r) => r.assaf)) used.push(['assafed_short', 'assafed'], ['assaf_short', 'assaf']);
  const legend = used.map(([mark, words]) => t('yaniv.sheet.legend_item', { mark: t(`yaniv.sheet.${mark}`), words: t(`yaniv.sheet.${words}`) }));
  if (some((r) => r.brought_down.length)) legend.push(t('yaniv.sheet.legend_landing', { pairs: landingPairs(room).join(', ') }));
  return [table, legend.length ? h('p', { class: 'legend small' }, legend.join(' · ')) : null];
}
