// HTTP helpers and per-room seat tokens kept in localStorage (a reload keeps the seat).
const PSEUDO_KEY = 'yanniv.pseudo';
const seatKey = (code) => `yanniv.seat.${code.toUpperCase()}`;

export function getPseudo() { try { return localStorage.getItem(PSEUDO_KEY) || ''; } catch { return ''; } }
export function setPseudo(p) { try { localStorage.setItem(PSEUDO_KEY, p); } catch { /* private mode */ } }

export function getSeat(code) {
  try { return JSON.parse(localStorage.getItem(seatKey(code)) || 'null'); } catch { return null; }
}
export function setSeat(code, seat, token) {
  try { localStorage.setItem(seatKey(code), JSON.stringify({ seat, token })); } catch { /* ignore */ }
}
export function forgetSeat(code) { try { localStorage.removeItem(seatKey(code)); } catch { /* ignore */ } }

export class ApiError extends Error {
  constructor(status, message, code) { super(message); this.status = status; this.code = code; }
}

/** fetch JSON; throws ApiError with the server's French (or English) message. */
export async function api(method, path, body, token) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers['X-Seat-Token'] = token;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const lang = document.documentElement.lang;
    let message = res.statusText;
    if (data) {
      const d = data.detail && typeof data.detail === 'object' && !Array.isArray(data.detail) ? data.detail : data;
      message = (lang === 'en' && d.message_en) || d.message || (typeof data.detail === 'string' ? data.detail : message);
    }
    throw new ApiError(res.status, message, data && (data.code || (data.detail && data.detail.code)));
  }
  return data;
}
