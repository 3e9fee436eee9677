// The bare Node peer: the transport job of a Yanniv server without the game, for the load
// generator to measure against in the same run (Node's `http` + the npm `ws` package).
//
//   node bench/loadtest/peer.mjs --port 8001 --sizes sizes.json [--deflate]
//
// It answers the routes the generator uses (create, join, settings, start, rematch, and
// GET /api/games as a readiness probe) and, over `/ws/{code}?token=`, takes an action from the
// seat whose turn it is at the current version, then sends what a Yanniv server sends for one
// action: an `ack` to the sender and one `state` to every seat's socket, padded to the sizes a
// real Yanniv run recorded (`--sizes`: the generator's `--sizes-out`, cycled action by
// action). The turn passes to the next seat; there are no rules. Like `yanniv serve`, it
// pings a socket not heard from for 5 s and drops one silent for 10 s more.

import fs from 'node:fs';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { WebSocketServer } from 'ws';

const { values: opt } = parseArgs({
  options: {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '8001' },
    sizes: { type: 'string' },
    deflate: { type: 'boolean', default: false },
  },
});

const SEATS = 4;
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const PLAY = { type: 'Play', cards: ['AC'] };
const samples = JSON.parse(fs.readFileSync(opt.sizes, 'utf8'));
if (!samples.length) throw new Error(`no frame sizes in ${opt.sizes}`);
let sampleIndex = 0;
const typical = samples[0][2][0];

const rooms = new Map();

function newCode() {
  for (;;) {
    const bytes = randomBytes(6);
    const code = Array.from(bytes, (b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('');
    if (!rooms.has(code)) return code;
  }
}

const newToken = () => randomBytes(24).toString('base64url');

// A frame of exactly `target` bytes (or its natural size when that is larger).
function padded(obj, target) {
  const text = JSON.stringify(obj);
  const room = target - text.length - 9; // ,"pad":""
  return room > 0 ? `${text.slice(0, -1)},"pad":"${'x'.repeat(room)}"}` : text;
}

function summary(room, yourSeat) {
  return {
    code: room.code, public: false, status: room.status, version: room.version, host_seat: 0,
    seats: room.seats.map((s, i) => ({
      seat: i, pseudo: s.pseudo, connected: s.sockets.size > 0, is_host: i === 0,
      is_bot: false, bot_level: null,
    })),
    settings: { game: 'yanniv', public: false, timer_seconds: null, manches: room.manches },
    your_seat: yourSeat,
  };
}

function stateFrame(room, seat, size) {
  const view = room.status === 'playing' ? {
    viewer: seat, pending: { seat: room.turn },
    legal_actions: seat === room.turn ? [PLAY] : [], finished: false,
  } : null;
  return padded({
    type: 'state', version: room.version,
    room: { code: room.code, status: room.status, version: room.version, your_seat: seat },
    view, events: [], deadline: null,
  }, size);
}

function broadcast(room, actorSeat, sample) {
  let other = 0;
  room.seats.forEach((s, seat) => {
    let size = typical;
    if (sample) size = seat === actorSeat ? sample[1] : sample[2][other++ % sample[2].length];
    const frame = stateFrame(room, seat, size);
    for (const ws of s.sockets) ws.send(frame);
  });
}

function readBody(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      try { resolve(text ? JSON.parse(text) : {}); } catch { resolve(null); }
    });
  });
}

function reply(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': text.length });
  res.end(text);
}

function seatOf(room, token) {
  return room ? room.seats.findIndex((s) => s.token === token) : -1;
}

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, 'http://peer');
  const parts = url.pathname.split('/').filter(Boolean); // api rooms CODE verb
  const body = await readBody(req);
  if (req.method === 'GET' && url.pathname === '/api/games') return reply(res, 200, []);
  if (parts[0] !== 'api' || parts[1] !== 'rooms' || body === null) {
    return reply(res, 404, { code: 'not_found' });
  }
  if (req.method === 'POST' && parts.length === 2) {
    const room = {
      code: newCode(), version: 1, status: 'waiting', turn: 0, manches: 6,
      seats: [{ pseudo: body.pseudo, token: newToken(), sockets: new Set() }],
    };
    rooms.set(room.code, room);
    return reply(res, 201, { code: room.code, seat: 0, token: room.seats[0].token,
      room: summary(room, 0) });
  }
  const room = rooms.get(parts[2]);
  if (!room) return reply(res, 404, { code: 'room_not_found' });
  const seat = seatOf(room, req.headers['x-seat-token']);
  const verb = parts[3];
  if (req.method === 'POST' && verb === 'join') {
    if (room.seats.length >= SEATS) return reply(res, 409, { code: 'room_full' });
    const token = newToken();
    room.seats.push({ pseudo: body.pseudo, token, sockets: new Set() });
    room.version += 1;
    const mine = room.seats.length - 1;
    return reply(res, 200, { code: room.code, seat: mine, token, room: summary(room, mine) });
  }
  if (seat < 0) return reply(res, 403, { code: 'bad_token' });
  if (req.method === 'PATCH' && verb === 'settings') {
    if (typeof body.manches === 'number') room.manches = body.manches;
    room.version += 1;
    return reply(res, 200, summary(room, seat));
  }
  if (req.method === 'POST' && (verb === 'start' || verb === 'rematch')) {
    room.status = verb === 'start' ? 'playing' : 'waiting';
    room.turn = 0;
    room.version += 1;
    broadcast(room, null, null);
    return reply(res, 200, summary(room, seat));
  }
  return reply(res, 404, { code: 'not_found' });
});

const wss = new WebSocketServer({
  noServer: true, perMessageDeflate: opt.deflate, maxPayload: 2 * 1024 * 1024,
});

function onAction(room, seat, ws, text) {
  let msg;
  try { msg = JSON.parse(text); } catch { msg = null; }
  if (!msg || msg.type === 'ping') {
    ws.send(msg ? '{"type":"pong"}' : '{"type":"error","id":null,"code":"bad_json"}');
    return;
  }
  if (msg.version !== room.version || seat !== room.turn || room.status !== 'playing') {
    ws.send(JSON.stringify({ type: 'error', id: msg.id, code: 'stale_version' }));
    return;
  }
  const sample = samples[sampleIndex++ % samples.length];
  room.version += 1;
  room.turn = (room.turn + 1) % SEATS;
  ws.send(padded({ type: 'ack', id: msg.id, version: room.version }, sample[0]));
  broadcast(room, seat, sample);
}

server.on('upgrade', (req, socket, head) => {
  const url = new URL(req.url, 'http://peer');
  const room = rooms.get(url.pathname.split('/')[2]);
  const seat = seatOf(room, url.searchParams.get('token'));
  wss.handleUpgrade(req, socket, head, (ws) => {
    if (seat < 0) {
      ws.send('{"type":"error","id":null,"code":"bad_token"}');
      ws.close(4401);
      return;
    }
    ws.alive = true;
    ws.heardAt = Date.now();
    ws.on('pong', () => { ws.alive = true; ws.heardAt = Date.now(); });
    room.seats[seat].sockets.add(ws);
    ws.send(stateFrame(room, seat, typical));
    ws.on('message', (data) => { ws.heardAt = Date.now(); onAction(room, seat, ws, data); });
    ws.on('close', () => room.seats[seat].sockets.delete(ws));
  });
});

// The heartbeat of `yanniv serve` (`socket_protocol.SocketProtocol.beat`): a ping every 5 s to
// a socket not heard from (a message or a pong) within them, a close after 10 s without answer.
setInterval(() => {
  const now = Date.now();
  for (const ws of wss.clients) {
    if (ws.pingedAt && ws.heardAt > ws.pingedAt) ws.alive = true;
    if (!ws.alive && now - ws.pingedAt > 10000) { ws.terminate(); continue; }
    if (now - ws.heardAt < 5000) continue;
    if (ws.alive) { ws.alive = false; ws.pingedAt = now; ws.ping(); }
  }
}, 5000);

server.listen(Number(opt.port), opt.host);
