// Over the table: the end-of-manche reveal (every hand, the points; it waits for « Continuer »
// or a few seconds before the next deal shows) and the final ranking with the match sheet.
import { t, tn } from '../i18n.js';
import { h, replace } from '../dom.js';
import { cardFace } from '../cards.js';
import { icon } from '../icons.js';
import { pseudoOf, rulesText } from './common.js';
import { scoreTable } from './scores.js';
import { MOMENT_MS } from './cues.js';

const signed = (n) => (n > 0 ? `+${n}` : String(n));
/** How long the reveal stays, in a timed room, when nobody presses « Continuer »: the server
 * does not wait, and the next turn's clock may be running. */
export const REVEAL_MS = 12000;
let autoFor = null;
let laterUntil = 0;
/** The markup the result layer shows now, as hand.js and prompts.js keep theirs. */
let shownResult = null;

/** A profile page address, as yanniv/profiles/links.py writes it. */
export const profileUrl = (p) => (p === '.' || p === '..' ? `/profil?pseudo=${encodeURIComponent(p)}` : `/profil/${encodeURIComponent(p)}`);

function mancheResult(ctx, r) {
  const { room } = ctx.state;
  const seats = r.participants && r.participants.length ? r.participants : r.hands.map((_, i) => i);
  const title = r.tiebreak ? t('result.tiebreak_title', { n: r.manche }) : t('result.title', { n: r.manche });
  let verdict;
  if (r.winner !== null && r.winner !== undefined) verdict = t('result.winner', { name: pseudoOf(room, r.winner), ...rulesText(room) });
  else verdict = t('result.tied');
  return [
    h('h2', { id: 'result-title' }, title),
    h('p', { class: 'winner' }, icon('trophy'), ` ${verdict}`,
      r.caller !== null && r.caller !== undefined ? ` — ${t('result.caller', { name: pseudoOf(room, r.caller) })}` : ''),
    h('ul', { class: 'hands' }, seats.map((s) => h('li', { dataset: { seat: String(s) }, class: s === r.winner ? 'won' : '' },
      h('strong', null, pseudoOf(room, s), s === r.winner ? ' ★' : ''),
      h('span', { class: 'cards' }, (r.hands[s] || []).map((c) => cardFace(c))),
      h('span', { class: 'sum' }, tn('table.points', r.points[s]), ' ',
        h('span', { class: 'badge' }, `${t('result.delta')} ${signed(r.deltas[s])}`), ' ',
        h('span', { class: 'muted' }, `${t('scores.total')} ${r.totals[s]}`))))),
  ];
}

// A ranked seat's name: a person's links to their profile, a computer's is plain text.
export function rankedName(room, s) {
  const info = room && room.seats ? room.seats.find((x) => x.seat === s) : null;
  const pseudo = pseudoOf(room, s);
  return info && !info.is_bot ? h('a', { href: profileUrl(pseudo) }, pseudo) : pseudo;
}

function yannivRanking(ctx) {
  const { view, room } = ctx.state;
  const name = (s) => rankedName(room, s);
  return [
    h('h2', { id: 'result-title' }, t('result.match_over')),
    h('p', { class: 'bravo' }, icon('trophy'), ' ', t('result.bravo', { name: pseudoOf(room, view.ranking[0]) })),
    h('ol', { class: 'ranking', id: 'ranking' }, view.ranking.map((s, i) => h('li', { class: `place-${i + 1}` },
      i < 3 ? [icon('medal', `place-${i + 1}`), ' '] : '', name(s), ` — ${tn('table.score', view.scores[s])}`))),
  ];
}

/** The game's parts, YANNIV's by default: `manche(ctx, r)`, `ranking(ctx)` and `sheet(ctx)`
 * draw the reveal, the final ranking and the match sheet; `last(view)` is the manche just
 * ended; `holdMs(events)` is how long the call's moment (cues.js) holds a fresh reveal back. */
const yannivHold = (events) => (events.some((e) => e.type === 'YannivCalled') ? MOMENT_MS : 0);

export function renderResult(ctx, {
  manche = mancheResult, ranking = yannivRanking, sheet = scoreTable, holdMs = yannivHold,
  last = (view) => view.last_result,
} = {}) {
  const el = document.getElementById('result');
  const { view } = ctx.state;
  const r = last(view);
  const parts = [];
  if (view.finished) {
    parts.push(...ranking(ctx));
    if (ctx.me !== null && ctx.me !== undefined) {
      parts.push(h('p', { class: 'row' },
        h('button', { type: 'button', class: 'big', id: 'rematch-btn', 'data-focus': 'rematch', onclick: ctx.rematch }, t('result.rematch')),
        h('a', { class: 'button secondary', href: '/' }, t('nav.home'))));
    }
    // A keyboard stop with a name: on the narrowest phones the sheet of many seats scrolls
    // sideways inside the dialog, and a scroll area must be reachable without a mouse.
    parts.push(h('h3', { id: 'sheet-title' }, t('result.sheet')),
      h('div', { class: 'table-wrap scores', tabindex: '0', role: 'region', 'aria-labelledby': 'sheet-title' },
        sheet(ctx)));
    if (r) parts.push(h('details', null, h('summary', null, t('result.last_manche')), h('div', null, manche(ctx, r))));
  } else if (r && ctx.state.dismissedResult !== r.manche) {
    const close = () => ctx.dispatch({ type: 'dismissResult', manche: r.manche });
    const timed = !!(ctx.room && ctx.room.settings && ctx.room.settings.timer_seconds);
    if (timed && autoFor !== r.manche) { autoFor = r.manche; setTimeout(close, REVEAL_MS); }
    parts.push(...manche(ctx, r));
    parts.push(h('button', { type: 'button', id: 'result-close', 'data-focus': 'result-close',
      class: timed ? 'big timed' : 'big', style: `--reveal:${REVEAL_MS}ms`, onclick: close }, t('result.continue')));
  }
  if (!parts.length) { replace(el); el.className = ''; shownResult = null; return; }
  const fresh = !el.className;
  // When the YANNIV call ended the manche, its moment (cues.js) plays before the reveal shows.
  if (fresh) {
    const hold = holdMs(ctx.state.events);
    laterUntil = Date.now() + hold;
    el.style.setProperty('--later', `${hold}ms`);
  }
  el.className = `result-layer${view.finished ? ' final' : ''}${Date.now() < laterUntil ? ' later' : ''}`;
  // The dialog box stays while it is shown (its entrance plays once); its content is redrawn.
  if (fresh) replace(el, h('div', { class: 'result', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'result-title' }));
  // Its content is replaced only when it reads differently: every state message redraws the
  // table, and a button replaced between the press and the release of a tap loses the tap
  // (and an opened « last manche » would close).
  const text = h('div', null, parts).innerHTML;
  if (fresh || text !== shownResult) {
    shownResult = text;
    replace(el.firstChild, parts);
  }
  if (fresh) (el.querySelector('#rematch-btn, #result-close') || el.querySelector('button'))?.focus({ preventScroll: true });
}
