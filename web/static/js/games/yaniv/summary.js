// The rules of classic Yaniv in short, in the side panel, with the room's own numbers (its
// `limits`: the call limit, Assaf's penalty, the bonuses, the totals brought down, the
// threshold), never copies of them.
import { t, formatNumber } from '../../i18n.js';
import { h, replace } from '../../dom.js';
import { landingPairs } from './sheet.js';

let shown = null;

export function renderSummary(ctx) {
  const room = ctx.state.room;
  const limits = (room && room.limits) || {};
  const key = JSON.stringify([limits, ctx.state.view.elimination]);
  let box = document.getElementById('yaniv-summary');
  if (box && key === shown) return;
  shown = key;
  if (!box) {
    box = h('details', { id: 'yaniv-summary', class: 'powers', dataset: { game: 'yaniv' } });
    document.getElementById('side').append(box);
  }
  const pairs = landingPairs(room);
  const item = (key2, params) => h('li', null, t(key2, params));
  replace(box,
    h('summary', null, t('yaniv.summary.title')),
    h('div', null,
      h('h3', null, t('summary.turn_title')),
      h('ul', { class: 'small' },
        item('yaniv.summary.play'),
        item('yaniv.summary.jokers'),
        item('yaniv.summary.draw')),
      h('h3', null, t('yaniv.summary.call_title')),
      h('ul', { class: 'small' },
        item('yaniv.summary.call', { limit: limits.call_limit }),
        item('yaniv.summary.assaf', { penalty: limits.assaf_penalty }),
        item('yaniv.summary.bonus', { ace: formatNumber(limits.ace_bonus), joker: formatNumber(limits.joker_bonus) }),
        pairs.length ? item('yaniv.summary.landings', { pairs: pairs.join(', ') }) : null,
        item(ctx.state.view.elimination ? 'yaniv.summary.end_elimination' : 'yaniv.summary.end', { n: limits.threshold })),
      h('p', null, h('a', { href: '/regles/yaniv', target: '_blank', rel: 'noopener' }, t('summary.full_rules')))));
}
