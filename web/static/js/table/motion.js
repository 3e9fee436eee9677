// Cards travel (FLIP with the Web Animations API): read where cards and seats are before a
// render, then move each card that changed place from where it was (or from the seat, the pile
// or the discard the events name) to where it is; cards that leave for an opponent fly as
// copies. Nothing moves under prefers-reduced-motion.
import { cardBack, cardFace } from '../cards.js';

const still = matchMedia('(prefers-reduced-motion: reduce)');
const box = (el) => (el ? el.getBoundingClientRect() : null);
const MS = 380;

/** Where every card of the table (by code), every seat and the pile are now. */
export function capture(me) {
  const cards = new Map();
  for (const el of document.querySelectorAll('#hand [data-code], #discard [data-code]')) {
    if (!cards.has(el.dataset.code)) cards.set(el.dataset.code, { r: box(el), hand: !!el.closest('#hand') });
  }
  const seats = new Map();
  for (const el of document.querySelectorAll('#opponents [data-seat]')) seats.set(Number(el.dataset.seat), box(el));
  if (me !== null && me !== undefined) seats.set(me, box(document.getElementById('hand')));
  return { cards, seats, pile: box(document.getElementById('pile-btn')) };
}

function fly(el, from, delay) {
  const to = el.getBoundingClientRect();
  if (!from || !from.width || !to.width) return;
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  if (Math.abs(dx) + Math.abs(dy) < 4) return;
  const s = Math.max(0.3, Math.min(2, from.width / to.width));
  el.animate([{ transform: `translate(${dx}px, ${dy}px) scale(${s})` }, { transform: 'none' }],
    { duration: MS, delay, easing: 'cubic-bezier(.2,.7,.3,1)', fill: 'backwards' });
}

/** A copy of a card (face when known, else its back) flying between two places. */
function ghost(code, from, to, delay) {
  if (!from || !to) return;
  const el = code ? cardFace(code) : Object.assign(document.createElement('span'), { className: 'card back' });
  if (!code) el.append(cardBack());
  el.classList.add('ghost');
  el.style.cssText = `left:${to.left + to.width / 2 - 24}px;top:${to.top + to.height / 2 - 34}px`;
  document.body.append(el);
  fly(el, from, delay);
  el.animate([{ opacity: 1 }, { opacity: 0 }], { duration: 120, delay: delay + MS, fill: 'forwards' }).onfinish = () => el.remove();
}

/** Animate what `events` did, between the `before` capture and the page as rendered now. */
export function animate(before, events, me) {
  if (still.matches || !before) return;
  const after = capture(me);
  const seat = (s) => before.seats.get(s) || after.seats.get(s);
  const origin = new Map(); // card code -> where it came from, when the card itself was not shown
  const mine = (s) => s === me;
  // Where a card leaves from: its place in my hand (or the discard) when shown, else the seat.
  const at = (s, c) => (c && before.cards.get(c) && (s === null || mine(s)) ? before.cards.get(c).r : s === null ? before.pile : seat(s));
  let n = 0;
  const next = () => 60 * n++;
  for (const e of events) {
    switch (e.type) {
      case 'Played': for (const c of e.cards) origin.set(c, seat(e.seat)); break;
      case 'Drew':
        if (e.card) origin.set(e.card, e.source === 'pile' ? before.pile : undefined);
        if (!mine(e.seat)) ghost(e.source === 'discard' ? e.card : null, at(null, e.source === 'discard' && e.card), seat(e.seat), next());
        break;
      case 'QueenDrew': if (!mine(e.seat)) for (let i = 0; i < e.count; i++) ghost(null, before.pile, seat(e.seat), next()); break;
      case 'QueenKept': for (let i = 0; i < e.returned_count; i++) ghost(null, seat(e.seat), after.pile, next()); break;
      case 'FourAnswered': case 'FourExchanged': {
        const [from, to] = e.type === 'FourAnswered' ? [e.seat, e.asker] : [e.seat, e.target];
        if (!e.given && e.type === 'FourAnswered') break;
        if (mine(to) && e.card) origin.set(e.card, seat(from));
        else ghost(mine(from) ? e.card : null, at(from, e.card), seat(to), next());
        break;
      }
      case 'KingSwapped':
        if (mine(e.seat) && e.taken) origin.set(e.taken, seat(e.target));
        if (mine(e.target) && e.given) origin.set(e.given, seat(e.seat));
        if (!mine(e.target)) ghost(mine(e.seat) ? e.given : null, at(e.seat, e.given), seat(e.target), next());
        if (!mine(e.seat)) ghost(mine(e.target) ? e.taken : null, seat(e.target), seat(e.seat), next());
        break;
      default: break;
    }
  }
  for (const el of document.querySelectorAll('#hand [data-code], #discard [data-code]')) {
    const code = el.dataset.code;
    const was = before.cards.get(code);
    const inHand = !!el.closest('#hand');
    if (was && was.hand === inHand) continue; // stayed where it was
    fly(el, was ? was.r : origin.get(code) || before.pile, next());
  }
}

/** A new deal: the hand's cards come from the pile one after the other. */
export function deal() {
  if (still.matches) return;
  const pile = box(document.getElementById('pile-btn'));
  document.querySelectorAll('#hand [data-code]').forEach((el, i) => fly(el, pile, 70 * i));
}
