// The Yaniv reveal (every hand shown when someone calls: the call held, or Assaf) and the
// final ranking; result.js lays them over the table.
import { t, tn, formatNumber } from '../../i18n.js';
import { h } from '../../dom.js';
import { cardFace, isJoker, rankOf } from '../../cards.js';
import { icon } from '../../icons.js';
import { pseudoOf } from '../../table/common.js';
import { rankedName } from '../../table/result.js';
import { signed, landedFrom, leftAt } from './sheet.js';

const limitsOf = (room) => (room && room.limits) || {};

/** The words of a call that held: plain, or with the bonus of a lone Ace or joker. */
function heldVerdict(room, r) {
  const caller = pseudoOf(room, r.caller);
  const hand = r.hands[r.caller] || [];
  const delta = r.deltas[r.caller];
  if (hand.length === 1 && delta < 0) {
    const key = isJoker(hand[0]) ? 'yaniv.result.joker_bonus' : rankOf(hand[0]) === 1 ? 'yaniv.result.ace_bonus' : null;
    if (key) return t(key, { name: caller, n: formatNumber(delta) });
  }
  return t('yaniv.result.held', { name: caller });
}

export function yanivReveal(ctx, r) {
  const { room, view } = ctx.state;
  const i = (view.history || []).indexOf(r);
  const history = view.history || [];
  const title = r.tiebreak ? t('result.tiebreak_title', { n: r.manche }) : t('result.title', { n: r.manche });
  const verdict = r.assaf
    ? t('yaniv.result.assaf', { name: pseudoOf(room, r.winner), caller: pseudoOf(room, r.caller), penalty: limitsOf(room).assaf_penalty })
    : heldVerdict(room, r);
  return [
    h('h2', { id: 'result-title' }, title),
    r.assaf ? h('p', { class: 'assaf-banner', id: 'assaf' }, t('yaniv.assaf')) : null,
    h('p', { class: 'winner' }, icon('trophy'), ` ${verdict}`),
    h('ul', { class: 'hands' }, r.participants.map((s) => {
      const badges = [];
      if (s === r.caller) badges.push(h('span', { class: `badge ${r.assaf ? 'off' : 'host'}` }, t('yaniv.call')));
      if (r.assaf && s === r.winner) badges.push(h('span', { class: 'badge host' }, t('yaniv.assaf')));
      if (r.brought_down.includes(s) && i >= 0) {
        badges.push(h('span', { class: 'badge landing' }, t('yaniv.result.landing', { from: landedFrom(history, i, s), to: r.totals[s] })));
      }
      if (r.eliminated.includes(s)) badges.push(h('span', { class: 'badge out' }, t('yaniv.eliminated')));
      return h('li', { dataset: { seat: String(s) }, class: s === r.winner ? 'won' : '' },
        h('div', { class: 'who' }, h('strong', null, pseudoOf(room, s), s === r.winner ? ' ★' : ''), badges.length ? ' ' : null, badges),
        h('span', { class: 'cards' }, (r.hands[s] || []).map((c) => cardFace(c))),
        h('span', { class: 'sum' }, tn('table.points', r.points[s]), ' ',
          h('span', { class: 'badge' }, `${t('result.delta')} ${signed(r.deltas[s])}`), ' ',
          h('span', { class: 'muted' }, `${t('scores.total')} ${formatNumber(r.totals[s])}`)));
    })),
  ];
}

export function yanivRanking(ctx) {
  const { view, room } = ctx.state;
  const name = (s) => rankedName(room, s);
  return [
    h('h2', { id: 'result-title' }, t('result.match_over')),
    h('p', { class: 'bravo' }, icon('trophy'), ' ', t('result.bravo', { name: pseudoOf(room, view.ranking[0]) })),
    h('p', { class: 'small' }, t(view.elimination ? 'yaniv.status.elimination' : 'yaniv.status.threshold', { n: view.threshold })),
    h('ol', { class: 'ranking', id: 'ranking' }, view.ranking.map((s, i) => {
      const out = view.elimination ? leftAt(view.history, s) : null;
      return h('li', { class: `place-${i + 1}` },
        i < 3 ? [icon('medal', `place-${i + 1}`), ' '] : '', name(s), ` — ${tn('table.points', view.scores[s])}`,
        out ? h('span', { class: 'muted' }, ` (${t('yaniv.result.left_at', { n: out })})`) : null);
    })),
  ];
}
