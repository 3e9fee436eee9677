// Classic Yaniv's table (2 to 8 seats): the shared components (hand, pile and discard,
// prompts, reveal layer, journal, motion, cues, announcer) given Yaniv's parts: its seats,
// status, call, layouts, reveal with Assaf, score sheet and words.
import { markPowers } from '../../cards.js';
import { replace } from '../../dom.js';
import { renderHand } from '../../table/hand.js';
import { renderPile, renderDiscard } from '../../table/discard.js';
import { renderPrompt } from '../../table/prompts.js';
import { renderLog } from '../../table/log.js';
import { renderResult } from '../../table/result.js';
import { capture, animate, deal } from '../../table/motion.js';
import { cue } from '../../table/cues.js';
import { createAnnouncer } from '../../table/announce.js';
import { renderSeats } from './seats.js';
import { renderYanivStatus } from './status.js';
import { yanivSheet } from './sheet.js';
import { yanivReveal, yanivRanking } from './reveal.js';
import { describe, sentence, moment, holdMs } from './words.js';
import { CALL, hint, playOf, turnDock } from './play.js';
import { renderSummary } from './summary.js';

const announcer = createAnnouncer(undefined, sentence);
let shownReveal = false;
const lastOf = (view) => (view.history && view.history.length ? view.history[view.history.length - 1] : null);

function render(ctx, fresh) {
  const { state } = ctx;
  markPowers(false);
  const before = fresh && state.events.length ? capture(ctx.me) : null;
  renderYanivStatus(ctx);
  renderSeats(ctx);
  renderPile(ctx);
  renderDiscard(ctx, state.view.offer);
  renderPrompt(ctx, { turn: turnDock });
  renderHand(ctx, { call: CALL, hint, playOf });
  replace(document.getElementById('scores'), yanivSheet(ctx));
  renderLog(ctx, describe);
  renderResult(ctx, { manche: yanivReveal, ranking: yanivRanking, sheet: yanivSheet, holdMs, last: lastOf });
  renderSummary(ctx);
  const revealed = document.getElementById('result').className;
  if (before && !revealed) animate(before, state.events, ctx.me);
  if (shownReveal && !revealed && !state.view.finished) deal();
  shownReveal = !!revealed;
  cue(ctx, fresh, moment);
}

export const yanivTable = { render, hear: (events, info) => announcer.hear(events, info) };
