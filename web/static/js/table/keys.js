// Keyboard shortcuts of the table and their help panel. A shortcut presses the visible control
// it stands for (so it does exactly what a click does, and nothing while that control is off);
// the same table below declares `aria-keyshortcuts` on those controls and writes the help.
// Shortcuts never fire while typing in a field, with Ctrl/Alt/Meta, or under a dialog.
import { t } from '../i18n.js';
import { h } from '../dom.js';
import { icon } from '../icons.js';

/** Shortcut → the controls it presses, first enabled one wins (`aria` is what we declare). */
const PRESS = [
  { keys: ['Enter'], aria: 'Enter', controls: ['#play-btn'], help: 'keys.play', shown: 'keys.enter' },
  { keys: ['p', 'P'], aria: 'P', controls: ['#draw-pile-btn', '#pile-btn', '#draw-only-btn'], help: 'keys.pile' },
  { keys: ['d', 'D'], aria: 'D', controls: ['#decision [data-take]', '#discard button.takeable'], help: 'keys.discard' },
  // The call is the game's: its help line says the call of the button the page shows.
  { keys: ['y', 'Y'], aria: 'Y', controls: ['#yanniv-btn', '#yaniv-btn'], help: 'keys.yanniv', helpBy: { '#yaniv-btn': 'keys.yaniv' } },
  { keys: ['?'], aria: '?', controls: ['#help-btn'], help: 'keys.help' },
];

const HAND_CARDS = '#hand button[data-code]';
const typing = (el) => !!el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
/** Where Enter must keep its own meaning (it presses the focused control). */
const control = (el) => !!el && !!el.closest('button, a[href], summary, input, select, textarea, [role=button]');
const enabled = (sel) => [...document.querySelectorAll(sel)].filter((el) => !el.disabled && el.getClientRects().length);

/** Mark the controls with their shortcuts (after each render: components rebuild them); the
 * help button's icon is drawn when the table first shows (hidden, it would measure nothing). */
export function declareShortcuts() {
  const help = document.getElementById('help-btn');
  if (help && !help.firstChild) help.append(icon('keys'));
  for (const s of PRESS) {
    for (const sel of s.controls) for (const el of document.querySelectorAll(sel)) el.setAttribute('aria-keyshortcuts', s.aria);
  }
  const cards = document.querySelectorAll(HAND_CARDS);
  cards.forEach((el, i) => { if (i < 10) el.setAttribute('aria-keyshortcuts', String((i + 1) % 10)); });
}

function press(s) {
  for (const sel of s.controls) {
    const found = enabled(sel);
    if (!found.length) continue;
    // Several cards may be taken from the discard: go to the choice instead of choosing.
    if (found.length > 1 && s.help === 'keys.discard') found[0].focus();
    else found[0].click();
    return true;
  }
  return false;
}

function moveInHand(key) {
  const cards = [...document.querySelectorAll(HAND_CARDS)];
  if (!cards.length) return false;
  // From the hand region itself, the arrows go in: → and Home to the first card, ← and End to the last.
  const at = document.activeElement && document.activeElement.id === 'hand'
    ? { ArrowRight: -1, Home: -1, ArrowLeft: cards.length, End: cards.length }[key] ?? -2
    : cards.indexOf(document.activeElement);
  if (at < -1) return false;
  const next = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: cards.length - 1 }[key];
  if (next === undefined) return false;
  cards[Math.max(0, Math.min(cards.length - 1, next))].focus();
  return true;
}

let flush = () => {};

function onKey(ev) {
  if (ev.defaultPrevented || ev.ctrlKey || ev.altKey || ev.metaKey || ev.isComposing) return;
  const table = document.getElementById('table');
  if (!table || table.hidden || typing(ev.target) || document.querySelector('dialog[open]')) return;
  flush();
  if (ev.key === '?') { openHelp(); ev.preventDefault(); return; }
  if (document.querySelector('#result .result')) return;  // the reveal covers the table
  let done = false;
  if (/^[0-9]$/.test(ev.key)) {
    const card = document.querySelectorAll(HAND_CARDS)[(Number(ev.key) + 9) % 10];
    if (card && !card.disabled) { card.click(); done = true; }
  } else if (ev.key in { ArrowLeft: 1, ArrowRight: 1, Home: 1, End: 1 }) {
    done = moveInHand(ev.key);
  } else {
    const s = PRESS.find((x) => x.keys.includes(ev.key));
    if (s && !(ev.key === 'Enter' && control(ev.target))) done = press(s);
  }
  if (done) ev.preventDefault();
}

let dialog = null;
let opener = null;

/** The help line of `s`: its `helpBy` entry for a control the page shows, else its own. */
function helpOf(s) {
  const shown = Object.keys(s.helpBy || {}).find((sel) => document.querySelector(sel));
  return shown ? s.helpBy[shown] : s.help;
}

const row = (key, text) => h('tr', null, h('th', { scope: 'row' }, h('kbd', null, key)), h('td', null, t(text)));
const helpRows = () => [
  row(t('keys.digits'), 'keys.select'),
  row(t('keys.arrows'), 'keys.move'),
  row(t('keys.space'), 'keys.toggle'),
  PRESS.map((s) => row(s.shown ? t(s.shown) : s.aria, helpOf(s))),
  row(t('keys.escape'), 'keys.close'),
];

function helpDialog() {
  const close = h('button', { type: 'button', class: 'secondary', id: 'help-close', onclick: () => dialog.close() }, t('keys.close_btn'));
  dialog = h('dialog', { id: 'help', class: 'help', 'aria-labelledby': 'help-title' },
    h('h2', { id: 'help-title' }, t('keys.title')),
    h('p', { class: 'small' }, t('keys.intro')),
    h('table', null,
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, t('keys.key')), h('th', { scope: 'col' }, t('keys.action')))),
      h('tbody', { id: 'help-rows' }, helpRows())),
    h('p', null, close));
  // Closed by its button or by Escape (the browser's own); the focus goes back where it was.
  // The browser fires `close` in a later task: one that arrives after the panel was opened
  // again belongs to the earlier closing and must not take the new opener.
  dialog.addEventListener('close', () => {
    if (dialog.open) return;
    if (opener && opener.isConnected && !opener.disabled) opener.focus();
    else document.getElementById('help-btn')?.focus();
    opener = null;
  });
  document.body.append(dialog);
  return dialog;
}

export function openHelp() {
  opener = document.activeElement;
  const box = dialog || helpDialog();
  document.getElementById('help-rows').replaceChildren(...helpRows().flat());
  if (!box.open) box.showModal();
  box.querySelector('#help-close').focus();
}

/** `render`: draws the store's waiting state at once, so that keys act on the current page. */
export function setupKeys(render) {
  flush = render || flush;
  document.addEventListener('keydown', onKey);
  document.getElementById('help-btn')?.addEventListener('click', openHelp);
}
