// The game log, built from the events the server sends (only when the room shows it).
import { t } from '../i18n.js';
import { h, replace } from '../dom.js';
import { cardLabel } from '../cards.js';
import { pseudoOf, rulesText } from './common.js';

const rankA = (r) => t(`rank.a.${r}`);
const LINES = 100;
let shown = null;  // the lines on screen: the list is rebuilt (and scrolled) only when they change

export function describeEvent(ev, room) {
  const n = (s) => pseudoOf(room, s);
  const card = (c) => (c ? cardLabel(c) : null);
  switch (ev.type) {
    case 'MancheStarted': return t('log.manche_started', { n: ev.manche, name: n(ev.starter), card: card(ev.flipped) || '?' }) + (ev.tiebreak ? ` (${t('scores.tiebreak')})` : '');
    case 'Misdeal': return t('log.misdeal', { name: n(ev.seat) });
    case 'Played': return t(ev.at_once ? 'log.played_at_once' : 'log.played', { name: n(ev.seat), cards: ev.cards.map(cardLabel).join(' ') });
    case 'YannivCalled': return t('log.yanniv', { name: n(ev.seat) });
    case 'YannivChecked': return t(ev.holds ? 'log.yanniv_holds' : 'log.yanniv_fails', { name: n(ev.seat), ...rulesText(room) });
    case 'Drew':
      if (ev.source === 'discard') return t('log.took', { name: n(ev.seat), card: card(ev.card) || '?' });
      return t(ev.without_playing ? 'log.drew_without' : 'log.drew', { name: n(ev.seat) }) + (ev.card ? ` (${card(ev.card)})` : '');
    case 'PowerChosen': return t('log.power_chosen', { name: n(ev.seat), rank: t(`rank.name.${ev.rank}`) });
    case 'ColourChosen': return t('log.colour_chosen', { name: n(ev.seat), colour: t(`colour.${ev.colour}`) });
    case 'QueenDrew': return t('log.queen_drew', { name: n(ev.seat), count: ev.count });
    case 'QueenKept': return t('log.queen_kept', { name: n(ev.seat), count: ev.returned_count }) + (ev.kept ? ` (${card(ev.kept)})` : '');
    case 'FourAsked': return t('log.four_asked', { name: n(ev.seat), target: n(ev.target), rank: rankA(ev.rank) });
    case 'FourAnswered': return ev.given
      ? t('log.four_given', { name: n(ev.seat), asker: n(ev.asker), rank: rankA(ev.rank) }) + (ev.card ? ` (${card(ev.card)})` : '')
      : t('log.four_none', { name: n(ev.seat), rank: rankA(ev.rank) });
    case 'FourExchanged': return t('log.four_exchanged', { name: n(ev.seat), target: n(ev.target) }) + (ev.card ? ` (${card(ev.card)})` : '');
    case 'KingSwapped': return t('log.king', { name: n(ev.seat), target: n(ev.target) }) + (ev.given ? ` (${card(ev.given)} → ${card(ev.taken) || '?'})` : '');
    case 'PowerSkipped': return t('log.skipped', { name: n(ev.seat), rank: t(`rank.name.${ev.rank}`) });
    case 'DirectionChanged': return t('log.direction', { name: n(ev.seat) });
    case 'ConstraintSet': return ev.kind === 'six'
      ? t('log.six', { target: n(ev.target), colour: t(`colour.${ev.colour}`) })
      : t('log.seven', { target: n(ev.target) });
    case 'PileReshuffled': return t('log.reshuffled', { count: ev.count });
    case 'MancheEnded': return ev.winner !== null && ev.winner !== undefined
      ? t('log.manche_won', { n: ev.manche, name: n(ev.winner) })
      : t('log.manche_tied', { n: ev.manche });
    case 'MatchEnded': return t('log.match_ended', { name: n(ev.ranking[0]) });
    default: return null;
  }
}

/** `describe(ev, room)`: an event's line (YANNIV's by default; another game passes its own). */
export function renderLog(ctx, describe = describeEvent) {
  const { room, log } = ctx.state;
  const panel = document.getElementById('log-panel');
  const visible = !!(room && room.settings && room.settings.log_visible);
  panel.hidden = !visible;
  if (!visible) return;
  const el = document.getElementById('log');
  const lines = [];
  for (const ev of log) {
    const text = describe(ev, room);
    if (text) lines.push(text);
  }
  // In time order, oldest at the top, so that a multi-step action reads top-down; the list
  // follows the newest line unless the player scrolled up to read older ones.
  const recent = lines.slice(-LINES);
  const key = JSON.stringify(recent);
  if (key === shown) return;
  const following = shown === null || el.scrollHeight - el.scrollTop - el.clientHeight < 24;
  shown = key;
  replace(el, recent.map((text) => h('li', null, text)));
  if (following) el.scrollTop = el.scrollHeight;
}
