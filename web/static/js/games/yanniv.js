// YANNIV's table: the shared components in their YANNIV form (powers, the last lap, the
// YANNIV call), drawn in the order the page has always drawn them.
import { markPowers } from '../cards.js';
import { renderHand } from '../table/hand.js';
import { renderPile, renderDiscard } from '../table/discard.js';
import { renderOpponents } from '../table/opponents.js';
import { renderStatus } from '../table/status.js';
import { renderPrompt } from '../table/prompts.js';
import { renderScores } from '../table/scores.js';
import { renderLog } from '../table/log.js';
import { renderResult } from '../table/result.js';
import { capture, animate, deal } from '../table/motion.js';
import { cue } from '../table/cues.js';
import { createAnnouncer } from '../table/announce.js';

const announcer = createAnnouncer();
let shownReveal = false;

function render(ctx, fresh) {
  const { state } = ctx;
  markPowers(true);
  const before = fresh && state.events.length ? capture(ctx.me) : null;
  renderStatus(ctx);
  renderOpponents(ctx);
  renderPile(ctx);
  renderDiscard(ctx);
  renderPrompt(ctx);
  renderHand(ctx);
  renderScores(ctx);
  renderLog(ctx);
  renderResult(ctx);
  const revealed = document.getElementById('result').className;
  if (before && !revealed) animate(before, state.events, ctx.me);
  if (shownReveal && !revealed && !state.view.finished) deal();
  shownReveal = !!revealed;
  cue(ctx, fresh);
}

export const yannivTable = { render, hear: (events, info) => announcer.hear(events, info) };
