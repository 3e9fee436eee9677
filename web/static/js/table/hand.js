// Your hand: sorted cards you can select, the play / YANNIV buttons, and the hint.
import { t, tn } from '../i18n.js';
import { h, replace } from '../dom.js';
import { cardFace, sortCodes } from '../cards.js';
import { findPlay, has, whyNot, legalOf, rulesText } from './common.js';

let previous = null;
// What the cards and the buttons last showed: they are redrawn only when it changes.
let shownCards = null;
let shownButtons = null;
// The hand's card nodes by code. A render updates them in place (selected, disabled, label)
// and adds or removes only the cards that came or went, so a click whose press and release
// straddle a render (one per frame: the previous click's, a state pushed by the server) still
// lands on the node it was pressed on; a replaced node would swallow it.
const cardNodes = new Map();

/** Give `node` the attributes of `fresh` (the same card drawn for the new state). */
function syncCard(node, fresh) {
  const entering = node.classList.contains('enter');
  for (const { name } of [...node.attributes]) if (!fresh.hasAttribute(name)) node.removeAttribute(name);
  for (const { name, value } of fresh.attributes) if (node.getAttribute(name) !== value) node.setAttribute(name, value);
  if (entering) node.classList.add('enter'); // its drop-in keeps playing
}

/** Show `codes` in order in `handEl`, keeping the node of every card still there. */
function renderCards(handEl, codes, make) {
  const kept = new Set(codes);
  for (const [code, node] of cardNodes) {
    if (!kept.has(code)) { node.remove(); cardNodes.delete(code); }
  }
  codes.forEach((code, i) => {
    let node = cardNodes.get(code);
    if (node) syncCard(node, make(code));
    else cardNodes.set(code, node = make(code));
    if (handEl.children[i] !== node) handEl.insertBefore(node, handEl.children[i] || null);
  });
  while (handEl.children.length > codes.length) handEl.lastElementChild.remove();
}

/** The call that ends a manche, as YANNIV has it; another game passes its own (`call`), its
 * hint (`whyNot`) and the play its selection makes (`findPlay`). */
const YANNIV_CALL = {
  type: 'CallYanniv', id: 'yanniv-btn', label: 'act.yanniv', ok: 'table.yanniv_ok', no: 'table.yanniv_no',
};

export function renderHand(ctx, { call = YANNIV_CALL, hint = whyNot, playOf = findPlay } = {}) {
  const { view, selection } = ctx.state;
  const headEl = document.getElementById('hand-head');
  const handEl = document.getElementById('hand');
  const hintEl = document.getElementById('hint');
  const actionsEl = document.getElementById('actions');
  if (!view || !view.hand) {
    replace(headEl, h('span', null, t('table.spectator')));
    replace(handEl); replace(actionsEl); hintEl.textContent = '';
    shownCards = null; shownButtons = null; cardNodes.clear();
    return;
  }
  const myTurn = view.pending && view.pending.kind === 'turn' && view.pending.seat === ctx.me;
  const zone = document.getElementById('hand-zone');
  zone.classList.toggle('acting', !!view.pending && view.pending.seat === ctx.me && !view.finished);
  zone.classList.toggle('turn', !!myTurn);
  const hand = sortCodes(view.hand);
  const prev = previous;
  previous = new Set(hand);
  replace(headEl,
    h('span', null, t('table.your_hand')),
    h('span', { class: 'hand-value' }, tn('table.points', view.hand_value ?? 0)));
  handEl.style.setProperty('--n', String(hand.length)); // app.css overlaps the cards to fit
  const cardsKey = JSON.stringify([hand, selection, myTurn, !!ctx.busy, prev === null]);
  if (cardsKey !== shownCards) {
    shownCards = cardsKey;
    renderCards(handEl, hand, (code) => cardFace(code, {
      selected: selection.includes(code),
      enter: prev !== null && !prev.has(code),
      pressable: true,
      disabled: !myTurn || ctx.busy,
      extraLabel: selection.includes(code) ? t('card.selected') : undefined,
      onclick: () => ctx.dispatch({ type: 'select', code }),
    }));
  }
  const play = myTurn ? playOf(view, selection, ctx.state.local) : undefined;
  const drawOnly = myTurn ? legalOf(view, 'DrawPile')[0] : undefined;
  const canCall = myTurn && has(view, call.type);
  const buttonsKey = JSON.stringify([myTurn, selection.length, play ?? null, !!drawOnly, canCall,
    !!ctx.busy, ctx.me ?? null]);
  hintEl.textContent = myTurn ? hint(view, selection) : '';
  if (buttonsKey === shownButtons) return;
  shownButtons = buttonsKey;
  const buttons = [];
  if (myTurn) {
    buttons.push(h('button', {
      type: 'button', class: 'big', id: 'play-btn', 'data-focus': 'play', disabled: !play || ctx.busy,
      onclick: () => play && ctx.act(play),
    }, selection.length ? t('table.play_n', { n: selection.length }) : t('table.play')));
    if (selection.length) {
      buttons.push(h('button', { type: 'button', class: 'secondary', 'data-focus': 'clear', disabled: ctx.busy, onclick: () => ctx.dispatch({ type: 'clearSelection' }) }, t('table.clear')));
    }
    if (drawOnly) {
      buttons.push(h('button', { type: 'button', class: 'secondary', id: 'draw-only-btn', 'data-focus': 'draw-only', disabled: ctx.busy, onclick: () => ctx.act(drawOnly) }, t('table.draw_without_playing')));
    }
  }
  if (ctx.me !== null && ctx.me !== undefined) {
    buttons.push(h('button', {
      type: 'button', class: 'big yanniv-btn', id: call.id, 'data-focus': 'yanniv',
      disabled: !canCall || ctx.busy,
      title: t(canCall ? call.ok : call.no, rulesText(ctx.state.room)),
      onclick: () => canCall && ctx.act({ type: call.type }),
    }, t(call.label)));
  }
  replace(actionsEl, buttons);
}
