// Card codes ("AS", "TH", "QD"; a joker "XR" / "XB"; a second deck's copy "5S2") to labels
// with suit symbols, and text for screen readers.
import { t } from './i18n.js';
import { h } from './dom.js';
import { faceArt, backArt, jokerArt } from './card_art.js';

const RANKS = 'A23456789TJQK';
export const SUIT_SYMBOL = { S: '♠', H: '♥', D: '♦', C: '♣' };
/** YANNIV's power cards (a star in their corner); a game without powers turns them off. */
const POWER = new Set([4, 6, 7, 8, 9, 11, 12, 13]);
const NO_POWER = new Set();
let powers = POWER;

/** Whether faces mark YANNIV's power cards: each table says so for its game. */
export function markPowers(on) { powers = on ? POWER : NO_POWER; }

/** 1 (Ace) to 13 (King); 0 for a joker ("X"). */
export const rankOf = (code) => RANKS.indexOf(code[0]) + 1;
export const isJoker = (code) => code[0] === 'X';
export const suitOf = (code) => code[1];
export const colourOf = (code) => (code[1] === 'H' || code[1] === 'D' || code[1] === 'R' ? 'red' : 'black');
export const valueOf = (code) => Math.min(rankOf(code), 10);
export const isPower = (code) => powers.has(rankOf(code));

/** Short rank text: A, 2..10, V, D, R in French (J, Q, K in English). */
export const rankShort = (rank) => t(`rank.short.${rank}`);
export const rankName = (rank) => t(`rank.name.${rank}`);
/** "5♥", "R♠". */
export const cardLabel = (code) => (isJoker(code) ? t('card.joker_short')
  : rankShort(rankOf(code)) + SUIT_SYMBOL[suitOf(code)]);
/** "5 de cœur", "Roi de pique", "joker rouge". */
export const cardSpeech = (code) => (isJoker(code) ? t(`card.joker.${suitOf(code)}`)
  : t('card.speech', { rank: rankName(rankOf(code)), suit: t(`suit.${suitOf(code)}`) }));

/** Sort by rank (jokers first), then suit (♠♥♦♣ order), then deck copy, like the engine. */
export function sortCodes(codes) {
  const order = 'SHDCRB';
  return [...codes].sort((a, b) => rankOf(a) - rankOf(b) || order.indexOf(a[1]) - order.indexOf(b[1])
    || a.length - b.length);
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
  const art = isJoker(code) ? jokerArt(suitOf(code)) : faceArt(rank, suitOf(code), rankShort(rank), powers.has(rank));
  return h(tag, attrs, art);
}

/** A face-down card (decorative: the control around it carries the name). */
export const cardBack = () => backArt();

/** "5♥ 5♠" for logs and hints. */
export const cardsText = (codes) => codes.map(cardLabel).join(' ');
