// Classic Yaniv's turn in the hand: what the selection plays, why it cannot, the Yaniv call,
// and the layout chooser when the same cards can be laid two ways (a joker at either end of a
// run, which two cards of a set are its ends: QUESTIONS.md §39–40). The legal plays come from
// the server's view; nothing here knows the combinations' rules.
import { t } from '../../i18n.js';
import { h } from '../../dom.js';
import { cardFace, cardsText, isJoker, rankOf } from '../../cards.js';
import { legalOf, rulesText } from '../../table/common.js';

/** The call button of the shared hand (hand.js) in its Yaniv form. */
export const CALL = { type: 'CallYaniv', id: 'yaniv-btn', label: 'yaniv.call', ok: 'yaniv.call_ok', no: 'yaniv.call_no' };

const sameSet = (a, b) => a.length === b.length && a.every((c) => b.includes(c));

/** Every legal way to lay exactly the selected cards. */
export const layoutsOf = (view, codes) => (codes.length ? legalOf(view, 'Play').filter((a) => sameSet(a.cards, codes)) : []);

/** The play the selection makes: the layout the player chose (`local.layout`), else the first. */
export function playOf(view, codes, local) {
  const layouts = layoutsOf(view, codes);
  const chosen = local && local.layout;
  return layouts.find((a) => a.cards.join(' ') === chosen) || layouts[0];
}

/** Why the selection cannot be put down ('' when it can). */
export function hint(view, codes) {
  if (!view || !view.pending || view.pending.kind !== 'turn') return '';
  if (!codes.length) return t('yaniv.hint.select');
  if (layoutsOf(view, codes).length) return '';
  const real = codes.filter((c) => !isJoker(c));
  if (real.length > 1 && real.length < codes.length && real.every((c) => rankOf(c) === rankOf(real[0]))) {
    return t('yaniv.hint.joker_set');
  }
  return codes.length === 2 ? t('yaniv.hint.pair') : t('yaniv.hint.combo');
}

/** The dock while it is my turn: the layouts to choose from, or what to do. */
export function turnDock(ctx) {
  const { view, selection, local } = ctx.state;
  const layouts = layoutsOf(view, selection);
  if (layouts.length < 2) {
    return h('p', { class: 'waiting-for mine' }, t('yaniv.prompt.turn', rulesText(ctx.state.room)));
  }
  const current = playOf(view, selection, local);
  // A set's layouts differ only by their ends (the middle is hidden under them): each button
  // shows its two ends; a run's show the whole run (a joker's place changes the run).
  const ranks = new Set(selection.filter((c) => !isJoker(c)).map(rankOf));
  const set = ranks.size === 1 && !selection.some(isJoker);
  return h('div', { class: 'layouts', role: 'group', 'aria-label': t('yaniv.layout.label') },
    h('span', { class: 'small' }, t(set ? 'yaniv.layout.ends' : 'yaniv.layout.label')),
    layouts.map((a, i) => {
      const on = a === current;
      const ends = [a.cards[0], a.cards[a.cards.length - 1]];
      return h('button', {
        type: 'button', class: 'secondary layout', 'aria-pressed': String(on), 'data-focus': `layout-${i}`,
        'data-layout': a.cards.join(' '),
        'aria-label': t('yaniv.layout.option', { cards: cardsText(a.cards), ends: cardsText(ends) }),
        onclick: () => ctx.dispatch({ type: 'local', patch: { layout: a.cards.join(' ') } }),
      }, (set ? ends : a.cards).map((c) => cardFace(c)));
    }));
}
