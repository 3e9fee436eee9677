// Classic Yaniv's events in words, where they differ from YANNIV's: the call (with its
// points), the reveal (held, or Assaf), totals brought down and seats eliminated. For the
// journal (`describe`), the live region (`sentence`, with « vous » forms) and the moment over
// the table (`moment`: « Yaniv ! », then « Assaf ! » when the call was caught).
import { t, tn } from '../../i18n.js';
import { describeEvent } from '../../table/log.js';
import { pseudoOf } from '../../table/common.js';

/** How long each beat of the moment stays. */
const BEAT_MS = 1500;

/** What follows a reveal's first words: totals brought down, seats eliminated (the viewer's
 * own in the second person). */
function aftermath(ev, room, me) {
  const parts = [];
  for (const s of ev.brought_down) {
    parts.push(t(s === me ? 'yaniv.say.landing.you' : 'yaniv.log.landing', { name: pseudoOf(room, s), n: ev.totals[s] }));
  }
  if (ev.eliminated.includes(me)) parts.push(t('yaniv.say.eliminated.you'));
  const others = ev.eliminated.filter((s) => s !== me);
  if (others.length) parts.push(tn('yaniv.log.eliminated', others.length, { names: others.map((s) => pseudoOf(room, s)).join(', ') }));
  return parts.length ? ` ${parts.join(' ')}` : '';
}

function mancheWords(ev, room, me) {
  const n = (s) => pseudoOf(room, s);
  let text;
  if (ev.assaf) text = t(ev.caller === me ? 'yaniv.say.assafed.you' : ev.winner === me ? 'yaniv.say.assaf.you' : 'yaniv.log.assaf', { name: n(ev.winner), caller: n(ev.caller), n: ev.manche });
  else text = t(ev.caller === me ? 'yaniv.say.held.you' : 'yaniv.log.held', { name: n(ev.caller), n: ev.manche });
  return text + aftermath(ev, room, me);
}

/** A journal line (log.js), YANNIV's words for the events both games share. */
export function describe(ev, room) {
  switch (ev.type) {
    case 'YanivCalled': return t('yaniv.log.called', { name: pseudoOf(room, ev.seat), n: ev.points });
    case 'MancheEnded': return mancheWords(ev, room, null);
    default: return describeEvent(ev, room);
  }
}

/** A sentence for the live region (announce.js); undefined: the shared words. */
export function sentence(ev, ctx) {
  switch (ev.type) {
    case 'YanivCalled': return t(ev.seat === ctx.me ? 'yaniv.say.called.you' : 'yaniv.log.called', { name: pseudoOf(ctx.room, ev.seat), n: ev.points });
    case 'MancheEnded': return mancheWords(ev, ctx.room, ctx.me);
    default: return undefined;
  }
}

/** The moment's beats for a state message's events (cues.js). */
export function moment(events, room) {
  const called = events.find((e) => e.type === 'YanivCalled');
  if (!called) return [];
  const beats = [{ title: t('yaniv.call'), name: pseudoOf(room, called.seat), kind: 'call', ms: BEAT_MS }];
  const ended = events.find((e) => e.type === 'MancheEnded');
  if (ended && ended.assaf) beats.push({ title: t('yaniv.assaf'), name: pseudoOf(room, ended.winner), kind: 'assaf', ms: BEAT_MS });
  return beats;
}

/** How long the moment holds a fresh reveal back (result.js). */
export const holdMs = (events) => moment(events, null).reduce((sum, b) => sum + b.ms, 0);
