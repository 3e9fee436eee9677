// A prompt for every pending decision of mine; for others, what we are waiting for.
import { t } from '../i18n.js';
import { h, replace } from '../dom.js';
import { cardFace, cardLabel, rankName } from '../cards.js';
import { legal, legalOf, seatName, pseudoOf, describeAction } from './common.js';

const btn = (text, onclick, attrs = {}) => h('button', { type: 'button', onclick, ...attrs }, text);

function cardOptions(ctx, actions, key, label) {
  return h('div', { class: 'options', role: 'group', 'aria-label': label },
    actions.map((a) => cardFace(a[key], { focusKey: `opt-${a.type}-${a[key]}`, disabled: ctx.busy, onclick: () => ctx.act(a) })));
}

function skipButton(ctx, text) {
  const skip = legalOf(ctx.state.view, 'Skip')[0];
  return skip ? btn(text || t('prompt.skip'), () => ctx.act(skip), { class: 'secondary', 'data-focus': 'skip', id: 'skip-btn', disabled: ctx.busy }) : null;
}

/** Play at once the card just drawn or received, or keep it. */
function atOnce(ctx, p, key) {
  const play = legalOf(ctx.state.view, 'PlayAtOnce')[0];
  const card = play ? play.card : p.cards[0];
  return [
    h('h3', null, t(`${key}.title`)),
    h('p', null, t(`${key}.text`, { card: card ? cardLabel(card) : '' })),
    h('div', { class: 'options' },
      play ? btn(t('prompt.play_drawn.play', { card: cardLabel(play.card) }), () => ctx.act(play), { 'data-focus': 'at-once', id: 'at-once-btn', disabled: ctx.busy }) : null,
      skipButton(ctx, t('prompt.keep'))),
  ];
}

const prompts = {
  draw(ctx, p) {
    const view = ctx.state.view;
    const pile = legalOf(view, 'DrawPile')[0];
    const queen = legalOf(view, 'UseQueen')[0];
    const takes = legalOf(view, 'TakeDiscard');
    return [
      h('h3', null, t('prompt.draw.title')),
      h('p', null, takes.length ? t('prompt.draw.text') : t('prompt.draw.pile_only')),
      h('div', { class: 'options' },
        pile ? btn(t('prompt.draw.pile'), () => ctx.act(pile), { id: 'draw-pile-btn', 'data-focus': 'draw-pile', disabled: ctx.busy }) : null,
        queen ? btn(t('prompt.draw.queen'), () => ctx.act(queen), { id: 'queen-btn', class: 'secondary', 'data-focus': 'queen', disabled: ctx.busy }) : null,
        takes.map((a) => btn(t('prompt.draw.take', { card: cardLabel(a.card) }), () => ctx.act(a), { class: 'secondary', 'data-focus': `take-${a.card}`, 'data-take': a.card, disabled: ctx.busy }))),
    ];
  },
  play_drawn: (ctx, p) => atOnce(ctx, p, 'prompt.play_drawn'),
  four_play_received: (ctx, p) => atOnce(ctx, p, 'prompt.four_play'),
  choose_power(ctx) {
    return [
      h('h3', null, t('prompt.power.title')),
      h('p', null, t('prompt.power.text')),
      h('div', { class: 'options' }, legalOf(ctx.state.view, 'ChoosePower').map((a) =>
        btn(`${rankName(a.rank)} — ${t(`power.short.${a.rank}`)}`, () => ctx.act(a), { 'data-focus': `power-${a.rank}`, 'data-rank': String(a.rank), disabled: ctx.busy }))),
    ];
  },
  choose_colour(ctx) {
    return [
      h('h3', null, t('prompt.colour.title')),
      h('p', null, t('prompt.colour.text')),
      h('div', { class: 'options' }, legalOf(ctx.state.view, 'ChooseColour').map((a) =>
        btn(`${t(`colour.${a.colour}`)} ${a.colour === 'red' ? '♥♦' : '♠♣'}`, () => ctx.act(a), { 'data-focus': `colour-${a.colour}`, 'data-colour': a.colour, disabled: ctx.busy }))),
    ];
  },
  queen_keep(ctx, p) {
    const drawn = p.cards || [];
    const keep = ctx.state.local.keep && drawn.includes(ctx.state.local.keep) ? ctx.state.local.keep : null;
    const rest = drawn.filter((c) => c !== keep);
    let order = ctx.state.local.order && ctx.state.local.order.length === rest.length && rest.every((c) => ctx.state.local.order.includes(c))
      ? ctx.state.local.order : rest;
    const move = (i, d) => {
      const next = [...order];
      [next[i], next[i + d]] = [next[i + d], next[i]];
      ctx.dispatch({ type: 'local', patch: { order: next } });
    };
    const action = keep ? { type: 'QueenKeep', keep, order } : null;
    return [
      h('h3', null, t('prompt.queen.title')),
      h('p', null, t('prompt.queen.keep')),
      h('div', { class: 'options', role: 'group', 'aria-label': t('prompt.queen.keep') }, drawn.map((c) => cardFace(c, {
        selected: c === keep, pressable: true, focusKey: `keep-${c}`,
        onclick: () => ctx.dispatch({ type: 'local', patch: { keep: c, order: drawn.filter((x) => x !== c) } }),
      }))),
      keep && order.length ? h('p', null, t('prompt.queen.order')) : null,
      keep && order.length ? h('ol', { class: 'order-list' }, order.map((c, i) => h('li', null,
        cardFace(c), i === 0 ? h('span', { class: 'small' }, t('prompt.queen.top')) : null,
        btn('↑', () => move(i, -1), { class: 'secondary', disabled: i === 0, 'aria-label': t('prompt.queen.up', { card: cardLabel(c) }), 'data-focus': `up-${c}` }),
        btn('↓', () => move(i, 1), { class: 'secondary', disabled: i === order.length - 1, 'aria-label': t('prompt.queen.down', { card: cardLabel(c) }), 'data-focus': `down-${c}` })))) : null,
      h('div', { class: 'options' }, btn(t('prompt.confirm'), () => action && ctx.act(action), { id: 'queen-confirm', 'data-focus': 'queen-confirm', disabled: !action || ctx.busy })),
    ];
  },
  four_ask(ctx, p) {
    const asks = legalOf(ctx.state.view, 'AskFour');
    const targets = [...new Set(asks.map((a) => a.target))];
    const target = targets.includes(ctx.state.local.target) ? ctx.state.local.target : targets[0];
    const ranks = [...new Set(asks.filter((a) => a.target === target).map((a) => a.rank))].sort((a, b) => a - b);
    const rank = ranks.includes(ctx.state.local.rank) ? ctx.state.local.rank : null;
    const action = asks.find((a) => a.target === target && a.rank === rank);
    return [
      h('h3', null, t('prompt.four.title')),
      h('p', null, t('prompt.four.text'), p.remaining > 1 ? ` ${t('prompt.remaining', { n: p.remaining })}` : ''),
      h('div', { class: 'options', role: 'group', 'aria-label': t('prompt.player') }, targets.map((s) =>
        btn(seatName(ctx, s), () => ctx.dispatch({ type: 'local', patch: { target: s } }), { class: 'secondary', 'aria-pressed': String(s === target), 'data-focus': `target-${s}`, 'data-target': String(s) }))),
      h('div', { class: 'options', role: 'group', 'aria-label': t('prompt.value') }, ranks.map((r) =>
        btn(rankName(r), () => ctx.dispatch({ type: 'local', patch: { rank: r } }), { class: 'secondary', 'aria-pressed': String(r === rank), 'data-focus': `rank-${r}`, 'data-rank': String(r) }))),
      h('div', { class: 'options' },
        btn(t('prompt.four.ask'), () => action && ctx.act(action), { id: 'ask-btn', 'data-focus': 'ask', disabled: !action || ctx.busy }),
        skipButton(ctx)),
    ];
  },
  four_give(ctx, p) {
    return [
      h('h3', null, t('prompt.give.title')),
      h('p', null, t('prompt.give.text', { name: seatName(ctx, p.other), rank: t(`rank.a.${p.rank}`) })),
      cardOptions(ctx, legalOf(ctx.state.view, 'GiveCard'), 'card', t('prompt.give.title')),
    ];
  },
  four_exchange(ctx, p) {
    return [
      h('h3', null, t('prompt.exchange.title')),
      h('p', null, t('prompt.exchange.text', { name: seatName(ctx, p.other) })),
      cardOptions(ctx, legalOf(ctx.state.view, 'GiveCard'), 'card', t('prompt.exchange.title')),
    ];
  },
  king(ctx, p) {
    const swaps = legalOf(ctx.state.view, 'KingSwap');
    const cardsList = [...new Set(swaps.map((a) => a.card))];
    const targets = [...new Set(swaps.map((a) => a.target))];
    const card = cardsList.includes(ctx.state.local.card) ? ctx.state.local.card : null;
    const target = targets.includes(ctx.state.local.target) ? ctx.state.local.target : (targets.length === 1 ? targets[0] : null);
    const action = swaps.find((a) => a.card === card && a.target === target);
    return [
      h('h3', null, t('prompt.king.title')),
      h('p', null, t('prompt.king.text'), p.remaining > 1 ? ` ${t('prompt.remaining', { n: p.remaining })}` : ''),
      h('div', { class: 'options', role: 'group', 'aria-label': t('prompt.king.card') }, cardsList.map((c) => cardFace(c, {
        selected: c === card, pressable: true, focusKey: `king-card-${c}`,
        onclick: () => ctx.dispatch({ type: 'local', patch: { card: c } }),
      }))),
      h('div', { class: 'options', role: 'group', 'aria-label': t('prompt.player') }, targets.map((s) =>
        btn(seatName(ctx, s), () => ctx.dispatch({ type: 'local', patch: { target: s } }), { class: 'secondary', 'aria-pressed': String(s === target), 'data-focus': `king-target-${s}`, 'data-target': String(s) }))),
      h('div', { class: 'options' },
        btn(t('prompt.king.swap'), () => action && ctx.act(action), { id: 'king-btn', 'data-focus': 'king', disabled: !action || ctx.busy }),
        skipButton(ctx)),
    ];
  },
};

function waitingText(ctx, p) {
  const name = pseudoOf(ctx.state.room, p.seat);
  const other = p.other !== null && p.other !== undefined ? seatName(ctx, p.other) : '';
  const params = { name, other, rank: p.rank ? t(`rank.a.${p.rank}`) : '' };
  // To me: « à vous donner », not « à donner à Vous ».
  if (p.other === ctx.me && ctx.me !== null && ctx.me !== undefined) {
    const mine = t(`wait.${p.kind}.you`, params);
    if (mine !== `wait.${p.kind}.you`) return mine;
  }
  const key = `wait.${p.kind}`;
  const text = t(key, params);
  return text === key ? t('wait.other', { name }) : text;
}

let shownPrompt = null;

/** `turn`: what the dock shows while it is my turn (YANNIV: one line; a game may show more, its
 * nodes drawn from the selection). */
const turnLine = () => h('p', { class: 'waiting-for mine' }, t('prompt.turn'));

export function renderPrompt(ctx, { turn = turnLine } = {}) {
  const el = document.getElementById('prompt');
  const { view } = ctx.state;
  const p = view.pending;
  // The draw and the waiting lines sit above the hand; other decisions open over the table.
  el.className = p && p.seat === ctx.me && !view.finished && p.kind !== 'turn' && p.kind !== 'draw' ? 'over' : 'dock';
  // Redrawn only when what it shows changes: #prompt is a live region (a screen reader would
  // say it again at every render) and a click must not straddle a rebuild.
  const key = JSON.stringify([p, !!view.finished, legal(view), ctx.state.local, !!ctx.busy, ctx.me ?? null,
    ctx.room && Array.isArray(ctx.room.seats) ? ctx.room.seats.map((s) => [s.seat, s.pseudo]) : null,
    turn === turnLine ? null : ctx.state.selection, turn === turnLine]);
  if (key === shownPrompt) return;
  shownPrompt = key;
  if (!p || view.finished) { replace(el); return; }
  if (p.seat !== ctx.me) {
    replace(el, h('p', { class: 'waiting-for', id: 'waiting-for' }, waitingText(ctx, p)));
    return;
  }
  if (p.kind === 'turn') {
    replace(el, turn(ctx));
    return;
  }
  const make = prompts[p.kind];
  let body;
  if (make) body = make(ctx, p);
  else {
    // A decision this client does not know yet: offer every legal action as a button.
    body = [h('h3', null, t('prompt.generic')), h('div', { class: 'options' },
      legal(view).map((a, i) => btn(describeAction(ctx, a), () => ctx.act(a), { 'data-focus': `generic-${i}`, disabled: ctx.busy })))];
  }
  replace(el, h('div', { class: 'prompt', id: 'decision', dataset: { kind: p.kind }, role: 'region', 'aria-label': t('prompt.label') }, body));
}
