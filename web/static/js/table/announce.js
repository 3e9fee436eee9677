// What each player does, said in words in a polite live region (#announce) for screen readers:
// « Hugo pose deux 5 et pioche », « Léa pioche le 7 de cœur dans la défausse ». It hears the
// events of each `state` message once (never the journal replayed on connecting). A play is
// held until its draw comes (one sentence for the two), or a few seconds for a slow opponent.
import { t, tn } from '../i18n.js';
import { h } from '../dom.js';
import { rankOf, suitOf, cardSpeech, isJoker } from '../cards.js';
import { pseudoOf, rulesText } from './common.js';

/** How long an opponent's play waits for its draw before it is said alone. */
export const HOLD_MS = 3000;
/** Sentences kept in the region (older ones are removed; removals are not read). */
const KEEP = 8;

/** « le 5 de cœur », « l'As de pique », « la Dame de trèfle ». */
export const theCard = (code) => (isJoker(code) ? t(`say.joker.${suitOf(code)}`)
  : t('say.card', { rank: t(`rank.the.${rankOf(code)}`), suit: t(`suit.${suitOf(code)}`) }));

/** A play in words: one card by name, a set by count (« deux 5 », « trois Dames »), a run
 * by its ranks and suit (« la suite 3, 4, 5 de pique »). */
export function playWords(codes) {
  if (codes.length === 1) return theCard(codes[0]);
  const ranks = codes.map(rankOf);
  if (ranks.every((r) => r === ranks[0])) {
    return t('say.set', { count: t(`say.count.${codes.length}`), ranks: t(`rank.plural.${ranks[0]}`) });
  }
  // A run with jokers is said as laid (low to high, each joker in its place).
  const laid = codes.some(isJoker) ? ranks : [...ranks].sort((a, b) => a - b);
  const names = laid.map((r) => (r ? t(`rank.name.${r}`) : t('say.a_joker')));
  const suit = suitOf(codes.find((c) => !isJoker(c)) || codes[0]);
  return t('say.run', { ranks: names.join(', '), suit: t(`suit.${suit}`) });
}

/** Sentences said as the journal writes them, when the viewer is not their subject. */
const AS_LOGGED = {
  'say.played': 'log.played', 'say.drew': 'log.drew', 'say.without': 'log.drew_without',
  'say.at_once': 'log.played_at_once', 'say.yanniv': 'log.yanniv', 'say.six': 'log.six', 'say.seven': 'log.seven',
  'say.yanniv_holds': 'log.yanniv_holds', 'say.yanniv_fails': 'log.yanniv_fails', 'say.four_asked': 'log.four_asked',
  'say.manche_won': 'log.manche_won', 'say.match_won': 'log.match_ended', 'say.power_chosen': 'log.power_chosen',
  'say.colour_chosen': 'log.colour_chosen', 'say.skipped': 'log.skipped',
};
/** The sentence key for `base` whose subject is `seat`: the `.you` form for the viewer. */
const form = (base, seat, me) => (seat === me ? `${base}.you` : AS_LOGGED[base] || base);

/** Between two seats, seen by one of them: `.you` (the viewer acts) or `.to_you`. */
const party = (base, seat, other, me) => (seat === me ? `${base}.you` : other === me ? `${base}.to_you` : AS_LOGGED[base] || base);

/** A play and its draw (either may be missing) as one sentence. */
function turnSentence(played, drew, ctx) {
  const seat = (played || drew).seat;
  const name = pseudoOf(ctx.room, seat);
  const params = { name };
  let key;
  if (played) {
    params.cards = playWords(played.cards);
    if (played.at_once) return t(form('say.at_once', seat, ctx.me), params);
    key = 'say.played';
  }
  if (drew) {
    if (drew.card) params.card = theCard(drew.card);
    const how = drew.source === 'discard' ? 'took' : drew.card ? 'drew_card' : 'drew';
    key = played ? `say.played_${how}` : `say.${how}`;
    if (!played && drew.without_playing && drew.source !== 'discard') key = drew.card ? 'say.without_card' : 'say.without';
  }
  return t(form(key, seat, ctx.me), params);
}

/** Any other event in words (null: nothing worth saying, e.g. a new turn). */
function eventSentence(ev, ctx) {
  const n = (s) => pseudoOf(ctx.room, s);
  const me = ctx.me;
  switch (ev.type) {
    case 'MancheStarted': return t(form('say.manche_started', ev.starter, me), { n: ev.manche, name: n(ev.starter), card: ev.flipped ? cardSpeech(ev.flipped) : '?' });
    case 'Misdeal': return t('log.misdeal', { name: n(ev.seat) });
    case 'YannivCalled': return t(form('say.yanniv', ev.seat, me), { name: n(ev.seat) });
    case 'YannivChecked': return t(form(ev.holds ? 'say.yanniv_holds' : 'say.yanniv_fails', ev.seat, me), { name: n(ev.seat), ...rulesText(ctx.room) });
    case 'PowerChosen': return t(form('say.power_chosen', ev.seat, me), { name: n(ev.seat), rank: t(`rank.name.${ev.rank}`) });
    case 'ColourChosen': return t(form('say.colour_chosen', ev.seat, me), { name: n(ev.seat), colour: t(`colour.${ev.colour}`) });
    case 'QueenDrew': return tn(form('say.queen_drew', ev.seat, me), ev.count, { name: n(ev.seat) });
    case 'QueenKept': return ev.kept
      ? tn('say.queen_kept_card', ev.returned_count, { card: theCard(ev.kept) })
      : t('log.queen_kept', { name: n(ev.seat), count: ev.returned_count });
    case 'FourAsked': return t(party('say.four_asked', ev.seat, ev.target, me), { name: n(ev.seat), target: n(ev.target), rank: t(`rank.a.${ev.rank}`) });
    case 'FourAnswered':
      if (!ev.given) return t(form('say.four_none', ev.seat, me), { name: n(ev.seat), rank: t(`rank.name.${ev.rank}`) });
      return ev.card ? t(party('say.four_given_card', ev.seat, ev.asker, me), { name: n(ev.seat), asker: n(ev.asker), card: theCard(ev.card) })
        : t('log.four_given', { name: n(ev.seat), asker: n(ev.asker), rank: t(`rank.a.${ev.rank}`) });
    case 'FourExchanged': return ev.card
      ? t(party('say.four_exchanged_card', ev.seat, ev.target, me), { name: n(ev.seat), target: n(ev.target), card: theCard(ev.card) })
      : t('log.four_exchanged', { name: n(ev.seat), target: n(ev.target) });
    case 'KingSwapped': return ev.given && ev.taken
      ? t(party('say.king_cards', ev.seat, ev.target, me), { name: n(ev.seat), target: n(ev.target), given: theCard(ev.given), taken: theCard(ev.taken) })
      : t('log.king', { name: n(ev.seat), target: n(ev.target) });
    case 'PowerSkipped': return t(form('say.skipped', ev.seat, me), { name: n(ev.seat), rank: t(`rank.name.${ev.rank}`) });
    case 'DirectionChanged': return t('log.direction');
    case 'ConstraintSet':
      if (ev.kind === 'six') return t(form('say.six', ev.target, me), { target: n(ev.target), colour: t(`colour.${ev.colour}`) });
      return t(form('say.seven', ev.target, me), { target: n(ev.target) });
    case 'PileReshuffled': return t('log.reshuffled', { count: ev.count });
    case 'MancheEnded': return ev.winner !== null && ev.winner !== undefined
      ? t(form('say.manche_won', ev.winner, me), { n: ev.manche, name: n(ev.winner) })
      : t('log.manche_tied', { n: ev.manche });
    case 'MatchEnded': return t(form('say.match_won', ev.ranking[0], me), { name: n(ev.ranking[0]) });
    default: return null;
  }
}

/**
 * The announcer: `hear(events, ctx)` with each state message's events and what the page
 * knows then (`ctx`: `room`, `me`, `pending`). Sentences go to `say` (by default, the live
 * region); a play waits for its draw while its player's draw is the pending decision.
 * `gameSentence(ev, ctx)`: a game's own words for an event (undefined: the shared ones).
 */
export function createAnnouncer(say = sayInRegion, gameSentence = () => undefined) {
  let held = null;  // a lone Played waiting for its draw
  let timer = 0;
  let lastCtx = null;
  const flush = () => {
    clearTimeout(timer);
    if (held) say(turnSentence(held, null, lastCtx));
    held = null;
  };
  return {
    hear(events, ctx) {
      lastCtx = ctx;
      for (const ev of events || []) {
        if (ev.type === 'Played' && !ev.at_once) { flush(); held = ev; continue; }
        if (ev.type === 'Drew' && held && held.seat === ev.seat) {
          clearTimeout(timer);
          say(turnSentence(held, ev, ctx));
          held = null;
          continue;
        }
        if (ev.type === 'TurnStarted') continue;
        flush();
        let text;
        if (ev.type === 'Played') text = turnSentence(ev, null, ctx);  // a card put down at once
        else if (ev.type === 'Drew') text = turnSentence(null, ev, ctx);
        else text = gameSentence(ev, ctx) ?? eventSentence(ev, ctx);
        if (text) say(text);
      }
      if (!held) return;
      const p = ctx.pending;
      if (!p || p.kind !== 'draw' || p.seat !== held.seat) { flush(); return; }
      // An opponent's slow draw: say the play alone after a while (the viewer's own waits).
      clearTimeout(timer);
      if (held.seat !== ctx.me) timer = setTimeout(flush, HOLD_MS);
    },
  };
}

function sayInRegion(text) {
  const box = document.getElementById('announce');
  if (!box) return;
  box.append(h('p', null, text));
  while (box.childElementCount > KEEP) box.firstElementChild.remove();
}
