// Reconnecting WebSocket to /ws/{code}: sends actions with a client id and the room version.

/** 128 random bits as 32 hex digits: an action id no other tab or reload of this seat will
 * reuse (the server refuses an id already used for another action with `duplicate_id`).
 * `crypto.randomUUID` only exists in secure contexts; `getRandomValues` exists everywhere. */
export function newActionId() {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID().replaceAll('-', '');
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export class RoomSocket {
  constructor(code, token, { onMessage, onStatus }) {
    this.code = code;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.retry = 0;
    this.closed = false;
    this.pingTimer = 0;
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
    ws.addEventListener('open', () => {
      this.retry = 0;
      if (this.unanswered) ws.send(JSON.stringify(this.unanswered));
      this.onStatus(true);
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: 'ping' }), 20000);
    });
    ws.addEventListener('message', (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if ((msg.type === 'ack' || msg.type === 'error') && this.unanswered && msg.id === this.unanswered.id) {
        this.unanswered = null;
      }
      this.onMessage(msg);
    });
    ws.addEventListener('close', (ev) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.onStatus(false, ev.code);
      // Bad token, removed seat, unknown room, rate limited, too many sockets: do not hammer the server.
      if ([4401, 4403, 4404, 4429, 4430].includes(ev.code)) { this.onMessage({ type: 'closed', code: ev.code, reason: ev.reason }); return; }
      const delay = Math.min(5000, 300 * 2 ** this.retry++);
      setTimeout(() => this.connect(), delay);
    });
  }

  send(obj) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) { this.ws.send(JSON.stringify(obj)); return true; }
    return false;
  }

  /** Send an action; returns its client id, or null when the socket is down. */
  sendAction(action, version) {
    const message = { type: 'action', id: newActionId(), version, action };
    if (!this.send(message)) return null;
    this.unanswered = message;
    return message.id;
  }

  close() { this.closed = true; clearInterval(this.pingTimer); if (this.ws) this.ws.close(); }
}
