// The room page's state, changed only through `reduce`; components render from it.

/** No events waiting: one object, so that a render without a new state message is not fresh. */
export const NO_EVENTS = Object.freeze([]);

export const initialState = (code, seat) => ({
  code,
  me: seat,               // {seat, token} or null for a spectator
  room: null,
  games: null,            // GET /api/games: each game's settings schema, seats and bots
  view: null,
  version: null,
  deadline: null,
  connected: false,
  everConnected: false,   // a socket opened once: "connection lost", not "connecting"
  events: NO_EVENTS,      // events of the state messages not rendered yet (see createStore)
  log: [],                // journal lines [{step, event}]
  selection: [],          // card codes selected in the hand
  local: {},              // prompt sub-state (queen keep/order, four target/rank, king card/target)
  sent: null,             // client id of the action awaiting its answer (kept across reconnects)
  settingsPending: {},    // the host's setting changes sent and not yet applied (shown meanwhile)
  dismissedResult: null,  // manche number of the result panel the player closed
  closed: null,
});

const LOG_MAX = 300;

function sameDecision(a, b) {
  if (!a || !b) return false;
  if (a.step !== b.step) return false;
  return true;
}

/** The room an HTTP answer or a state message brings, unless the page already has a newer
 * one: the two come by different connections, so either may arrive after the other's newer
 * room (a setting's answer before the socket's state of the change before it). */
function newerRoom(current, incoming) {
  if (!incoming) return current;
  return current && incoming.version < current.version ? current : incoming;
}

export function reduce(state, action) {
  switch (action.type) {
    case 'conn':
      return { ...state, connected: action.up, everConnected: state.everConnected || action.up };
    case 'me':
      return { ...state, me: action.me };
    case 'presence': {
      if (!state.room || !Array.isArray(action.seats)) return state;
      const up = new Map(action.seats.map((x) => [x.seat, x.connected]));
      const seats = state.room.seats.map((x) => (up.has(x.seat) ? { ...x, connected: up.get(x.seat) } : x));
      return { ...state, room: { ...state.room, seats } };
    }
    case 'room':
      return { ...state, room: newerRoom(state.room, action.room) };
    case 'games':
      return { ...state, games: action.games };
    case 'state': {
      const msg = action.msg;
      const view = msg.view ?? null;
      const keep = sameDecision(state.view, view);
      const hand = view && view.hand ? new Set(view.hand) : new Set();
      const events = Array.isArray(msg.events) ? msg.events : [];
      // Two messages may come within one frame: the render sees both messages' events (a call
      // followed at once by a bot's play still shows its moment), always a new array.
      const unseen = [...state.events, ...events];
      let log = state.log;
      if (events.length) log = [...log, ...events].slice(-LOG_MAX);
      if (!view) log = [];  // the lobby (a rematch): the next match starts a new journal
      // `sent` stays: only the action's own answer (ack or error, same id) clears it, even when
      // a state comes first (the one sent on reconnecting, before the resent action's answer).
      return {
        ...state,
        room: newerRoom(state.room, msg.room),
        view,
        version: msg.version ?? state.version,
        deadline: msg.deadline ?? null,
        events: unseen,
        log,
        selection: keep ? state.selection.filter((c) => hand.has(c)) : [],
        local: keep ? state.local : {},
      };
    }
    case 'select': {
      const has = state.selection.includes(action.code);
      return { ...state, selection: has ? state.selection.filter((c) => c !== action.code) : [...state.selection, action.code] };
    }
    case 'clearSelection':
      return { ...state, selection: [] };
    case 'local':
      return { ...state, local: { ...state.local, ...action.patch } };
    case 'sent':
      return { ...state, sent: action.id };
    case 'ack':
      return state.sent === action.id ? { ...state, sent: null } : state;
    case 'error':
      return action.id && state.sent === action.id ? { ...state, sent: null } : state;
    case 'journal':
      // On (re)connecting: the match's latest events, oldest first, as the server broadcast
      // them; they replace the log (what this page had is a part of them, or older).
      return Array.isArray(action.events) ? { ...state, log: action.events.slice(-LOG_MAX) } : state;
    case 'settingsPending': {
      const pending = { ...state.settingsPending, ...action.patch };
      for (const key of action.done || []) delete pending[key];
      return { ...state, settingsPending: pending };
    }
    case 'dismissResult':
      return { ...state, dismissedResult: action.manche };
    case 'closed':
      return { ...state, closed: action.code };
    case 'rendered':
      return state.events === NO_EVENTS ? state : { ...state, events: NO_EVENTS };
    default:
      return state;
  }
}

/** A minimal store: dispatch → reduce → one render per animation frame; after a render, the
 * events it showed are done (`rendered`), without asking for another frame. */
export function createStore(state, render) {
  let current = state;
  let scheduled = false;
  const show = () => {
    scheduled = false;
    render(current);
    // Events come only from socket messages, never during a render: all of them were shown.
    current = reduce(current, { type: 'rendered' });
  };
  const store = {
    get: () => current,
    dispatch(action) {
      current = reduce(current, action);
      if (!scheduled) {
        scheduled = true;
        requestAnimationFrame(() => { if (scheduled) show(); });
      }
    },
    /** Render now what is waiting for the next frame (a key pressed right after another acts
     * on the page as the first one left it). */
    flush() {
      if (scheduled) show();
    },
  };
  return store;
}
