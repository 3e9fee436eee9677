// Reconnecting WebSocket to /ws/{code}: sends actions with a client id and the room version,
// and checks by itself that the connection still carries data (a heartbeat).

/** Heartbeat (docs/PROTOCOL.md §5.6): browsers cannot send WebSocket ping frames, so the client
 * pings in the protocol after PING_AFTER ms without sending anything; the server answers every
 * message (pong, ack, error), so a socket on which nothing arrived for DEAD_AFTER ms after we
 * sent something is dead (a network that silently stopped carrying data): closed and replaced.
 * A socket still connecting after CONNECT_TIMEOUT ms is given up the same way. One interval of
 * TICK ms drives all three (and no timer at all runs before `connect`). */
export const HEARTBEAT = { PING_AFTER: 2500, DEAD_AFTER: 6000, CONNECT_TIMEOUT: 5000, TICK: 500 };
/** Close codes after which reconnecting would only be refused again (see PROTOCOL.md §2.4). */
const FINAL_CLOSES = [4401, 4403, 4404, 4429, 4430];
/** Reconnecting: 250 ms, doubled at each failure up to MAX, jittered ±20 % (a crowd spreads
 * out). MAX bounds how long a page waits once its room is served again: after a kill -9 in a
 * cluster the sockets fail (nginx's 502, seen as 1006) until the dead owner's lease runs out
 * and another process took the room; a 4 s cap let a page sit up to 4.8 s more after that
 * (docs/cluster.md, tests/web/test_browser_failover.py). After 1012 the server restarts or the
 * room moves to another process (`room_moved`): it is back "in a moment" (`Retry-After: 1`),
 * so the next try comes within about a second, however many tries failed before. */
const RESTART_CLOSE = 1012;
export const BACKOFF = { FIRST: 250, MAX: 2000, AFTER_RESTART: 1000 };

/** 128 random bits as 32 hex digits: an action id no other tab or reload of this seat will
 * reuse (the server refuses an id already used for another action with `duplicate_id`).
 * `crypto.randomUUID` only exists in secure contexts; `getRandomValues` exists everywhere. */
export function newActionId() {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID().replaceAll('-', '');
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export class RoomSocket {
  constructor(code, token, { onMessage, onStatus, now = () => Date.now() }) {
    this.code = code;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.now = now;
    this.ws = null;
    this.retry = 0;
    this.closed = false;
    this.tickTimer = 0;
    this.reconnectTimer = 0;
    // When the current socket was created, last sent to and last heard from; and the first
    // send not yet followed by any message (null: nothing awaited).
    this.openedAt = 0;
    this.lastSent = 0;
    this.awaitingSince = null;
    // The last action sent and not yet answered (ack or error): resent as it was, same id,
    // when the socket opens again; the server applies it once (an ack again if it already had).
    this.unanswered = null;
  }

  url() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const query = this.token ? `?token=${encodeURIComponent(this.token)}` : '';
    return `${proto}//${location.host}/ws/${encodeURIComponent(this.code)}${query}`;
  }

  connect() {
    if (this.closed) return;
    const ws = new WebSocket(this.url());
    this.ws = ws;
    this.openedAt = this.now();
    this.awaitingSince = null;
    if (!this.tickTimer) this.tickTimer = setInterval(() => this.tick(), HEARTBEAT.TICK);
    // Up means serving the room: the server's first message on a socket it admits is the
    // room's state. A socket it only accepts to say why it refuses (`room_moved`, a bad
    // token…) is never shown connected, and does not reset the backoff.
    let up = false;
    ws.addEventListener('open', () => {
      if (this.ws !== ws) return;
      if (this.unanswered) this.write(JSON.stringify(this.unanswered));
    });
    ws.addEventListener('message', (ev) => {
      if (this.ws !== ws) return;
      this.awaitingSince = null;
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === 'state' && !up) {
        up = true;
        this.retry = 0;
        this.onStatus(true);
      }
      if ((msg.type === 'ack' || msg.type === 'error') && this.unanswered && msg.id === this.unanswered.id) {
        this.unanswered = null;
      }
      // The room moved to another process: this socket closes (1012) and the next one
      // finds the room there; the player is not asked to do anything.
      if (msg.type === 'error' && msg.code === 'room_moved' && !msg.id) return;
      this.onMessage(msg);
    });
    ws.addEventListener('close', (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.onStatus(false, ev.code);
      // Bad token, removed seat, unknown room, rate limited, too many sockets: do not hammer the server.
      if (FINAL_CLOSES.includes(ev.code)) {
        this.stopTicking();
        this.onMessage({ type: 'closed', code: ev.code, reason: ev.reason });
        return;
      }
      this.scheduleReconnect(ev.code === RESTART_CLOSE ? BACKOFF.AFTER_RESTART : BACKOFF.MAX);
    });
  }

  /** Give up the current socket without waiting for its close handshake (a dead network
   * never completes it) and open another after the backoff. */
  drop() {
    const ws = this.ws;
    if (!ws) return;
    this.ws = null;
    try { ws.close(); } catch { /* already closing */ }
    this.onStatus(false, 1006);
    this.scheduleReconnect();
  }

  /** The next try after the backoff (BACKOFF), at most `cap` ms before the jitter. */
  scheduleReconnect(cap = BACKOFF.MAX) {
    if (this.closed || this.reconnectTimer) return;
    const delay = Math.min(cap, BACKOFF.FIRST * 2 ** this.retry++) * (0.8 + 0.4 * Math.random());
    this.reconnectTimer = setTimeout(() => { this.reconnectTimer = 0; this.connect(); }, delay);
  }

  /** The heartbeat, every HEARTBEAT.TICK ms (tests call it with their own clock). */
  tick() {
    const ws = this.ws;
    if (!ws || this.closed) return;
    const now = this.now();
    if (ws.readyState === WebSocket.CONNECTING) {
      if (now - this.openedAt > HEARTBEAT.CONNECT_TIMEOUT) this.drop();
      return;
    }
    if (ws.readyState !== WebSocket.OPEN) return;
    if (this.awaitingSince !== null && now - this.awaitingSince > HEARTBEAT.DEAD_AFTER) { this.drop(); return; }
    if (now - this.lastSent >= HEARTBEAT.PING_AFTER) this.send({ type: 'ping' });
  }

  write(text) {
    this.ws.send(text);
    this.lastSent = this.now();
    if (this.awaitingSince === null) this.awaitingSince = this.lastSent;
  }

  send(obj) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) { this.write(JSON.stringify(obj)); return true; }
    return false;
  }

  /** Send an action; returns its client id, or null when the socket is down. */
  sendAction(action, version) {
    const message = { type: 'action', id: newActionId(), version, action };
    if (!this.send(message)) return null;
    this.unanswered = message;
    return message.id;
  }

  stopTicking() { clearInterval(this.tickTimer); this.tickTimer = 0; }

  close() {
    this.closed = true;
    this.stopTicking();
    clearTimeout(this.reconnectTimer);
    if (this.ws) this.ws.close();
  }
}
