// Card codes ("AS", "TH", "QD") to labels with suit symbols, and text for screen readers.
import { t } from './i18n.js';
import { h } from './dom.js';
import { faceArt, backArt } from './card_art.js';

const RANKS = 'A23456789TJQK';
export const SUIT_SYMBOL = { S: '♠', H: '♥', D: '♦', C: '♣' };
const POWER = new Set([4, 6, 7, 8, 9, 11, 12, 13]);

export const rankOf = (code) => RANKS.indexOf(code[0]) + 1;
export const suitOf = (code) => code[1];
export const colourOf = (code) => (code[1] === 'H' || code[1] === 'D' ? 'red' : 'black');
export const valueOf = (code) => Math.min(rankOf(code), 10);
export const isPower = (code) => POWER.has(rankOf(code));

/** Short rank text: A, 2..10, V, D, R in French (J, Q, K in English). */
export const rankShort = (rank) => t(`rank.short.${rank}`);
export const rankName = (rank) => t(`rank.name.${rank}`);
/** "5♥", "R♠". */
export const cardLabel = (code) => rankShort(rankOf(code)) + SUIT_SYMBOL[suitOf(code)];
/** "5 de cœur", "Roi de pique". */
export const cardSpeech = (code) => t('card.speech', { rank: rankName(rankOf(code)), suit: t(`suit.${suitOf(code)}`) });

/** Sort by rank, then suit (♠♥♦♣ order), like the engine's sorted hands. */
export function sortCodes(codes) {
  const order = 'SHDC';
  return [...codes].sort((a, b) => rankOf(a) - rankOf(b) || order.indexOf(a[1]) - order.indexOf(b[1]));
}

export const handValue = (codes) => codes.reduce((sum, c) => sum + valueOf(c), 0);

/** A card face (SVG art, named by its aria-label): a <button> when `onclick` is given, a <span> otherwise. */
export function cardFace(code, opts = {}) {
  const rank = rankOf(code);
  const classes = ['card', colourOf(code)];
  if (opts.selected) classes.push('selected');
  if (opts.takeable) classes.push('takeable');
  if (opts.enter) classes.push('enter');
  const label = cardSpeech(code) + (opts.extraLabel ? `, ${opts.extraLabel}` : '');
  const tag = opts.onclick ? 'button' : 'span';
  const attrs = {
    class: classes.join(' '),
    'aria-label': label,
    title: label,
    dataset: { code, focus: opts.focusKey || `card-${code}` },
    onclick: opts.onclick,
    type: opts.onclick ? 'button' : undefined,
    role: opts.onclick ? undefined : 'img',
    'aria-pressed': opts.onclick && opts.pressable ? String(!!opts.selected) : undefined,
    disabled: opts.disabled,
  };
  return h(tag, attrs, faceArt(rank, suitOf(code), rankShort(rank), POWER.has(rank)));
}

/** A face-down card (decorative: the control around it carries the name). */
export const cardBack = () => backArt();

/** "5♥ 5♠" for logs and hints. */
export const cardsText = (codes) => codes.map(cardLabel).join(' ');
