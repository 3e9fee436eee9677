// Helpers shared by the table components: legal actions, seat names, hints.
import { t, playerName } from '../i18n.js';
import { h } from '../dom.js';
import { rankOf, suitOf, colourOf, rankName } from '../cards.js';

export const legal = (view) => (view && Array.isArray(view.legal_actions) ? view.legal_actions : []);
export const legalOf = (view, type) => legal(view).filter((a) => a.type === type);
export const has = (view, type) => legal(view).some((a) => a.type === type);

const sameSet = (a, b) => a.length === b.length && a.every((c) => b.includes(c));

/** The legal Play made of exactly the selected cards, or undefined. */
export const findPlay = (view, codes) => legalOf(view, 'Play').find((a) => sameSet(a.cards, codes));

export function seatName(ctx, seat) {
  if (seat === null || seat === undefined) return '';
  if (ctx.me === seat) return t('table.you');
  const info = ctx.room && Array.isArray(ctx.room.seats) ? ctx.room.seats.find((s) => s.seat === seat) : null;
  return info && info.pseudo ? playerName(info) : t('table.seat', { n: seat + 1 });
}

/** A seat's presence badge: online, disconnected, or unknown while our own socket is down
 * (what the server last said may no longer be true). */
export function presenceBadge(ctx, info) {
  if (ctx.offline) return h('span', { class: 'badge unknown' }, t('table.presence_unknown'));
  const connected = !info || info.connected !== false;
  return h('span', { class: `badge ${connected ? 'ok' : 'off'}` }, connected ? t('table.online') : t('table.offline'));
}

/** The same as a dot on a seat's corner (its words for screen readers and as its title). */
export function presenceDot(ctx, info) {
  const state = ctx.offline ? 'unknown' : !info || info.connected !== false ? 'ok' : 'off';
  const words = t({ unknown: 'table.presence_unknown', ok: 'table.online', off: 'table.offline' }[state]);
  return h('span', { class: `dot ${state}`, title: words }, h('span', { class: 'visually-hidden' }, words));
}

/** Numbers of the room's rules for texts: `limit` (YANNIV's call limit) and `bonus` (the
 * winner's score, with a real minus sign), from the room summary's `limits`. */
export function rulesText(room) {
  const limits = (room && room.limits) || {};
  const bonus = limits.winner_bonus;
  return { limit: limits.call_limit, bonus: typeof bonus === 'number' ? String(bonus).replace('-', '−') : bonus };
}

/** The seat's name, never « Vous » (for "C'est au tour de X" even when X is me). */
export function pseudoOf(room, seat) {
  const info = room && Array.isArray(room.seats) ? room.seats.find((s) => s.seat === seat) : null;
  return info && info.pseudo ? playerName(info) : t('table.seat', { n: seat + 1 });
}

function isRun(codes) {
  if (codes.length < 3) return false;
  const suit = suitOf(codes[0]);
  if (!codes.every((c) => suitOf(c) === suit)) return false;
  const ranks = codes.map(rankOf).sort((a, b) => a - b);
  return ranks.every((r, i) => i === 0 || r === ranks[i - 1] + 1);
}

/** Why the current selection cannot be played (empty string when it can). */
export function whyNot(view, codes) {
  if (!view || !view.pending || view.pending.kind !== 'turn') return '';
  if (!codes.length) {
    return legalOf(view, 'Play').length ? t('hint.select') : t('hint.no_play');
  }
  if (findPlay(view, codes)) return '';
  const ranks = new Set(codes.map(rankOf));
  const group = ranks.size === 1;
  if (!group && !isRun(codes)) return codes.length === 2 ? t('hint.pair') : t('hint.combo');
  const c = view.constraint;
  if (c && c.kind === 'six' && !codes.some((code) => colourOf(code) === c.colour)) {
    return t('hint.six', { colour: t(`colour.${c.colour}`) });
  }
  if (c && c.kind === 'seven' && codes.some((code) => rankOf(code) > 7)) return t('hint.seven');
  return t('hint.not_now');
}

/** A short text for any action, used by the generic prompt fallback. */
export function describeAction(ctx, a) {
  switch (a.type) {
    case 'Play': return t('act.play_cards', { cards: a.cards.join(' ') });
    case 'CallYanniv': return t('act.yanniv');
    case 'DrawPile': return t('act.draw_pile');
    case 'TakeDiscard': return t('act.take', { card: a.card });
    case 'UseQueen': return t('act.queen');
    case 'ChoosePower': return t('act.power', { rank: rankName(a.rank) });
    case 'ChooseColour': return t(`colour.${a.colour}`);
    case 'PlayAtOnce': return t('act.play_at_once', { card: a.card });
    case 'AskFour': return t('act.ask', { rank: rankName(a.rank), seat: seatName(ctx, a.target) });
    case 'GiveCard': return t('act.give', { card: a.card });
    case 'KingSwap': return t('act.king', { card: a.card, seat: seatName(ctx, a.target) });
    case 'Skip': return t('act.skip');
    default: return a.type;
  }
}
