// Where the keyboard focus goes after each action: a control a player uses leaves the page
// when the table redraws (it is replaced or disabled), and the browser then drops the focus on
// the page body, 12 to 16 Tabs away from « Piocher ». After every render, a focus that was
// lost (or is parked on the hand while a decision of ours waits) moves to the next sensible
// control: the draw choice after a play, the first control of a power prompt, the reveal's
// button; the hand region when our turn starts or when nothing is ours to do (the status bar
// for a spectator). A focus the player put elsewhere (the scores, the journal, a button that
// is still there) is never taken away.

/** The element a focus that was lost should go to now, or null (nothing to offer). */
function target(ctx) {
  const result = document.querySelector('#result .result');
  if (result) return result.querySelector('#rematch-btn, #result-close') || result.querySelector('button, a[href]');
  const view = ctx.state.view;
  const p = view && !view.finished ? view.pending : null;
  const hand = document.getElementById('hand');
  const rest = hand.childElementCount ? hand : document.getElementById('status');
  // An action awaits its answer (a few milliseconds): wait for it rather than move twice.
  if (ctx.busy && !ctx.offline) return null;
  if (!p || p.seat !== ctx.me || ctx.busy) return rest;
  // Our turn: the hand itself, where 1…9 select, Enter plays, arrows and Tab reach the cards.
  if (p.kind === 'turn') return rest;
  if (p.kind === 'draw') return document.querySelector('#draw-pile-btn:not([disabled]), #decision button:not([disabled])') || rest;
  return document.querySelector('#decision button:not([disabled])') || rest;
}

/** Whether the focus is lost, or resting where we put it when nothing was ours to do. */
function parked() {
  const active = document.activeElement;
  if (!active || active === document.body || active === document.documentElement || !active.isConnected) return true;
  if (active.disabled || active.id === 'hand' || active.id === 'status' || active.id === 'main') return true;
  return !active.getClientRects().length;  // hidden (the reveal closed over it)
}

let lastCtx = null;

/** Boxes of the table that scroll when the screen is short: a Tab stop while they do, so the
 * keyboard can scroll them too (WCAG 2.1.1; axe's scrollable-region-focusable). */
const SCROLLERS = ['board'];
function reachScrolling() {
  for (const id of SCROLLERS) {
    const el = document.getElementById(id);
    if (!el) continue;
    const scrolls = el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1;
    if (scrolls) el.tabIndex = 0;
    else el.removeAttribute('tabindex');
  }
}

/** After each render of the table. */
export function placeFocus(ctx) {
  lastCtx = ctx;
  reachScrolling();
  if (document.querySelector('dialog[open]')) return;  // the help panel keeps its focus
  const layer = document.querySelector('#result .result');
  const active = document.activeElement;
  // The reveal and the final ranking are modal: a focus left on the table under them goes
  // into them (the page header stays free: its links lead elsewhere).
  const under = !!layer && !layer.contains(active) && document.getElementById('table').contains(active);
  if (!parked() && !under) return;
  const el = target(ctx);
  if (!el || el === active) return;
  if (el.id === 'hand' || el.id === 'status') el.tabIndex = -1;  // a place to rest, not a Tab stop
  el.focus({ preventScroll: true });
}

/** The reveal shows after the YANNIV moment (hidden until then, it could not take the focus):
 * place the focus again when its entrance ends; the board may start or stop scrolling on a
 * resize. */
export function setupFocus() {
  document.getElementById('result').addEventListener('animationend', () => lastCtx && placeFocus(lastCtx));
  window.addEventListener('resize', reachScrolling);
}
