// The public rooms list, pushed by the server on the lobby socket `/ws/lobby` whenever it
// changes (docs/PROTOCOL.md §5.7); while that socket is not open (refused, cut, not yet
// reconnected), the list is polled over HTTP as before, so the page never shows a frozen list.

/** Polling period while the socket is down; reconnect backoff; the heartbeat (the server
 * answers a `ping` with `pong`: nothing heard for DEAD_AFTER ms after a ping means a dead
 * network, the socket is dropped and polling takes over). */
export const LOBBY_FEED = { POLL_EVERY: 3000, RETRY_MIN: 1000, RETRY_MAX: 30000, PING_EVERY: 15000, DEAD_AFTER: 10000 };
/** Close codes after which reconnecting would only be refused again: keep polling. */
const FINAL_CLOSES = [4429, 4430];

export class LobbyFeed {
  /** `onRooms(rooms)` gets every list, pushed or polled; `poll()` fetches one (or throws). */
  constructor({ onRooms, poll }) {
    this.onRooms = onRooms;
    this.poll = poll;
    this.ws = null;
    this.retry = 0;
    this.pollTimer = 0;
    this.reconnectTimer = 0;
    this.pingTimer = 0;
    this.heardAt = 0;
    this.pingedAt = 0;
    this.final = false;
  }

  start() {
    this.startPolling();
    this.connect();
  }

  /** True while the list arrives by push (tests and the page's state). */
  get live() { return !!this.ws && this.ws.readyState === WebSocket.OPEN; }

  url() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${proto}//${location.host}/ws/lobby`;
  }

  connect() {
    let ws;
    try { ws = new WebSocket(this.url()); } catch { this.scheduleReconnect(); return; }
    this.ws = ws;
    ws.addEventListener('open', () => {
      if (this.ws !== ws) return;
      this.retry = 0;
      this.heardAt = Date.now();
      this.stopPolling();
      this.pingTimer = setInterval(() => this.heartbeat(), 1000);
    });
    ws.addEventListener('message', (ev) => {
      if (this.ws !== ws) return;
      this.heardAt = Date.now();
      this.pingedAt = 0;
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg && msg.type === 'rooms' && Array.isArray(msg.rooms)) this.onRooms(msg.rooms);
    });
    ws.addEventListener('close', (ev) => {
      if (this.ws !== ws) return;
      this.lost();
      if (FINAL_CLOSES.includes(ev.code)) { this.final = true; return; }
      this.scheduleReconnect();
    });
  }

  /** The socket is gone: poll until another one opens. */
  lost() {
    const ws = this.ws;
    this.ws = null;
    clearInterval(this.pingTimer);
    this.pingTimer = 0;
    if (ws) { try { ws.close(); } catch { /* already closing */ } }
    this.startPolling();
  }

  heartbeat() {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    const now = Date.now();
    if (this.pingedAt && now - this.pingedAt > LOBBY_FEED.DEAD_AFTER) { this.lost(); this.scheduleReconnect(); return; }
    if (!this.pingedAt && now - this.heardAt >= LOBBY_FEED.PING_EVERY) {
      this.pingedAt = now;
      ws.send(JSON.stringify({ type: 'ping' }));
    }
  }

  scheduleReconnect() {
    if (this.reconnectTimer || this.final) return;
    const delay = Math.min(LOBBY_FEED.RETRY_MAX, LOBBY_FEED.RETRY_MIN * 2 ** this.retry++) * (0.8 + 0.4 * Math.random());
    this.reconnectTimer = setTimeout(() => { this.reconnectTimer = 0; this.connect(); }, delay);
  }

  startPolling() {
    if (this.pollTimer) return;
    const tick = async () => {
      if (document.hidden) return;
      let rooms;
      try { rooms = await this.poll(); } catch { return; }
      if (this.pollTimer && Array.isArray(rooms)) this.onRooms(rooms);
    };
    this.pollTimer = setInterval(tick, LOBBY_FEED.POLL_EVERY);
    tick();
  }

  stopPolling() {
    clearInterval(this.pollTimer);
    this.pollTimer = 0;
  }
}
