// Cues outside the table's boxes: short synthesised sounds (WebAudio, no sound files), the tab
// title and favicon when it is your turn, a vibration, and the YANNIV moment over the table.
import { t } from '../i18n.js';
import { h, replace } from '../dom.js';
import { pseudoOf } from './common.js';
import { icon } from '../icons.js';

const MUTE_KEY = 'yanniv.mute';
let audio = null;
let muted = false;
try { muted = localStorage.getItem(MUTE_KEY) === '1'; } catch { /* private mode */ }

/** Notes as [frequency Hz, start s, length s]; a soft attack and decay, no clicks. */
const SOUNDS = {
  turn: [[660, 0, 0.12], [880, 0.1, 0.18]],
  play: [[320, 0, 0.07]],
  yanniv: [[523, 0, 0.14], [659, 0.12, 0.14], [784, 0.24, 0.14], [1047, 0.36, 0.35]],
  end: [[784, 0, 0.16], [659, 0.15, 0.16], [523, 0.3, 0.3]],
};

export function sound(name) {
  if (muted || !window.AudioContext) return;
  try {
    audio = audio || new AudioContext();
    if (audio.state === 'suspended') audio.resume();
    const now = audio.currentTime;
    for (const [f, at, len] of SOUNDS[name]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = name === 'play' ? 'triangle' : 'sine';
      osc.frequency.value = f;
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(0.18, now + at + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + len);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + at);
      osc.stop(now + at + len + 0.02);
    }
  } catch { /* no audio device */ }
}

/** The mute switch (remembered on this device); its icon is drawn when the table first shows. */
let muteBtn = null;
const showMute = () => {
  muteBtn.setAttribute('aria-pressed', String(muted));
  muteBtn.replaceChildren(icon(muted ? 'mute' : 'sound'));
};
export function setupMute(button) {
  button.addEventListener('click', () => {
    muted = !muted;
    try { localStorage.setItem(MUTE_KEY, muted ? '1' : '0'); } catch { /* private mode */ }
    showMute();
  });
  muteBtn = button;
}

const title = document.title;
const fav = document.querySelector('link[rel=icon]');
const plainIcon = fav && fav.href;
const turnIcon = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Ccircle cx='8' cy='8' r='7' fill='%23f2b705'/%3E%3Ctext x='8' y='12' font-size='11' text-anchor='middle'%3E%E2%99%A0%3C/text%3E%3C/svg%3E";
let wasMine = false;
let momentTimer = 0;

/** After each render: title, favicon, sounds and the moment of a call for a new state message.
 * `moment(events, room)`: the beats shown over the table, each `{ title, name, kind, ms }`
 * (YANNIV's call by default; another game names its own). */
export function cue(ctx, fresh, moment = yannivMoment) {
  const { view, room } = ctx.state;
  const p = view && !view.finished ? view.pending : null;
  const mine = !!p && p.seat === ctx.me;
  if (muteBtn && !muteBtn.firstChild) showMute();
  if (mine !== wasMine) {
    document.title = mine ? `${t('title.your_turn')} — ${title}` : title;
    if (fav) fav.href = mine ? turnIcon : plainIcon;
    if (mine && p.kind === 'turn') {
      sound('turn');
      if (navigator.vibrate && navigator.userActivation && navigator.userActivation.hasBeenActive) navigator.vibrate(60);
    }
    wasMine = mine;
  }
  if (!fresh) return;
  const events = ctx.state.events;
  const beats = moment(events, room);
  if (beats.length) {
    sound('yanniv');
    const box = document.getElementById('moment');
    clearTimeout(momentTimer);
    const show = (i) => {
      if (i >= beats.length) { box.hidden = true; return; }
      replace(box, h('strong', null, beats[i].title), h('span', null, beats[i].name));
      box.dataset.beat = beats[i].kind || '';
      box.hidden = false;
      momentTimer = setTimeout(() => show(i + 1), beats[i].ms);
    };
    show(0);
  } else if (events.some((e) => e.type === 'MancheEnded')) sound('end');
  else if (events.some((e) => e.type === 'Played')) sound('play');
}

/** YANNIV's moment: the call, by whom, for 1.8 s (result.js holds the reveal as long). */
export const MOMENT_MS = 1800;
function yannivMoment(events, room) {
  const called = events.find((e) => e.type === 'YannivCalled');
  return called ? [{ title: t('act.yanniv'), name: pseudoOf(room, called.seat), ms: MOMENT_MS }] : [];
}
