// The load generator: R rooms of 4 WebSocket seats that play about `rate` legal actions per
// room per second against a Yanniv server (or a bare peer speaking the same protocol subset).
//
//   node bench/loadtest/generator.mjs --base http://127.0.0.1:8000 --rooms 250 \
//        --duration 60 --warmup 10 --server-pid 1234 [--manches 6] [--deflate] [--match-end]
//        [--match-end-rate 1] [--client-pings]
//
// Written from docs/PROTOCOL.md alone, as an outside client would be: rooms are created and
// joined over HTTP (each player from its own 127.x.y.z source address, with its own owner
// cookie, so that per-address limits see 4 R players, not one), every seat opens its socket,
// the host starts, and each room acts on a fixed 1/rate schedule: at a tick, the seat named by
// `view.pending.seat` sends one of its `legal_actions`; if the previous action's view has not
// arrived yet, the action goes as soon as it does (at most one owed per room, so a saturated
// server shows as fewer actions per second, not as a growing backlog). A finished match is
// rematched and restarted, so R stays constant. With `--client-pings`, each seat also sends
// what a page sends (web/static/js/socket.js): a `ping` message after 2.5 s without sending
// anything, which the server answers with a `pong` message.
//
// Prints JSON lines on stdout: {"event": "phase", ...} while it works, "window-start" and
// "window-end" around the measured window (the harness samples other processes then), and one
// final {"event": "result", ...}. Latency is from `send` to the new `state` at the actor and
// at each other seat; server CPU is utime+stime of /proc/<pid>/stat over the window.

import fs from 'node:fs';
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';

const { values: opt } = parseArgs({
  options: {
    base: { type: 'string', default: 'http://127.0.0.1:8000' },
    rooms: { type: 'string', default: '10' },
    duration: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '5' },
    rate: { type: 'string', default: '1' },
    'server-pid': { type: 'string' },
    'clk-tck': { type: 'string', default: '100' },
    manches: { type: 'string' },
    deflate: { type: 'boolean', default: false },
    seed: { type: 'string', default: '1' },
    'sizes-out': { type: 'string' },
    'source-net': { type: 'string', default: '127.77' },
    'setup-concurrency': { type: 'string', default: '16' },
    'connect-concurrency': { type: 'string', default: '64' },
    'action-timeout': { type: 'string', default: '30' },
    'match-end': { type: 'boolean', default: false },
    'match-end-timeout': { type: 'string', default: '900' },
    // Actions per room per second while matches are played to their end: by default the
    // window's rate, so that the memory read at the end is what a match leaves behind, not
    // the high-water mark of a saturated server; 0 = as fast as each room's views come back.
    'match-end-rate': { type: 'string' },
    'client-pings': { type: 'boolean', default: false },
  },
});

const BASE = new URL(opt.base);
const ROOMS = Number(opt.rooms);
const DURATION = Number(opt.duration) * 1000;
const WARMUP = Number(opt.warmup) * 1000;
const PERIOD = 1000 / Number(opt.rate);
const END_RATE = Number(opt['match-end-rate'] ?? opt.rate);
const END_PERIOD = END_RATE > 0 ? 1000 / END_RATE : 0;
const SERVER_PID = opt['server-pid'] ? Number(opt['server-pid']) : null;
const CLK_TCK = Number(opt['clk-tck']);
const ACTION_TIMEOUT = Number(opt['action-timeout']) * 1000;
const SEATS = 4;
// The page's heartbeat (web/static/js/socket.js, HEARTBEAT): a `ping` message once PING_AFTER
// ms passed without sending, looked at every TICK ms.
const PAGE_PING_AFTER = 2500;
const PAGE_PING_TICK = 500;

function emit(obj) {
  process.stdout.write(`${JSON.stringify(obj)}\n`);
}

// Seeded choices (mulberry32), so a run's decisions do not depend on Math.random.
function mulberry32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rnd = mulberry32(Number(opt.seed));
// The frame sizes the peers replay: a uniform sample of the whole window's (a reservoir), from
// a stream of its own so that sampling leaves the decisions as they were.
const SIZES_KEPT = 5000;
const sampleRnd = mulberry32(Number(opt.seed) ^ 0x5eed5);
let sizesSeen = 0;
function keepSizes(sizes) {
  sizesSeen += 1;
  if (win.sizes.length < SIZES_KEPT) win.sizes.push(sizes);
  else {
    const slot = Math.floor(sampleRnd() * sizesSeen);
    if (slot < SIZES_KEPT) win.sizes[slot] = sizes;
  }
}

// ---- /proc readings ----------------------------------------------------------------------

function procCpuSeconds(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK; // utime, stime (fields 14, 15)
}

function procRssKb(pid) {
  const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line.split(/\s+/)[1]);
}

function machineTicks() {
  const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1, 9)
    .map(Number);
  const idle = cpu[3] + cpu[4];
  return { busy: cpu.reduce((a, b) => a + b, 0) - idle };
}

function sample() {
  const usage = process.cpuUsage();
  return {
    t: performance.now(),
    server: SERVER_PID ? procCpuSeconds(SERVER_PID) : 0,
    self: (usage.user + usage.system) / 1e6,
    machine: machineTicks().busy / CLK_TCK,
  };
}

const rss = () => (SERVER_PID ? procRssKb(SERVER_PID) : 0);

// ---- HTTP ----------------------------------------------------------------------------------

function request(method, path, body, player) {
  const payload = body === undefined ? null : Buffer.from(JSON.stringify(body));
  const headers = { accept: 'application/json' };
  if (payload) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = payload.length;
  }
  if (player?.token) headers['x-seat-token'] = player.token;
  if (player?.cookie) headers.cookie = player.cookie;
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: BASE.hostname, port: BASE.port, method, path, headers, agent: false,
      localAddress: player?.address,
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const cookie = (res.headers['set-cookie'] || []).map((c) => c.split(';')[0])
          .find((c) => c.startsWith('yanniv_owner='));
        if (cookie && player) player.cookie = cookie;
        const text = Buffer.concat(chunks).toString('utf8');
        let json = null;
        try { json = text ? JSON.parse(text) : null; } catch { json = null; }
        resolve({ status: res.statusCode, json });
      });
    });
    req.on('error', reject);
    req.setTimeout(60000, () => req.destroy(new Error('HTTP timeout')));
    if (payload) req.write(payload);
    req.end();
  });
}

// ---- counters ------------------------------------------------------------------------------

const stats = {
  errors: {}, httpErrors: {}, closeCodes: {}, disconnects: 0, timeouts: 0, setupErrors: [],
  matchesFinished: 0, rematches: 0, deflated: 0, matchEndActions: 0,
};
function count(table, key) { table[key] = (table[key] || 0) + 1; }
function httpError(route, res) {
  count(stats.httpErrors, `${route} ${res.status} ${res.json?.code ?? ''}`.trim());
}

let phase = 'setup';
const win = {
  sent: 0, acked: 0, frames: 0, bytes: 0, pings: 0, pongs: 0, quiet: 0,
  ack: [], actor: [], others: [], sizes: [], start: null, end: null,
  // Actor latencies by the wall-clock second the action was sent: where in the window the
  // tail is, to set beside the server's own log (collections, checkpoints).
  seconds: new Map(),
  lateBySecond: new Map(),
  gcBySecond: new Map(),
};
const inWindow = () => phase === 'window';

// ---- the policy: from the view's legal actions alone (PROTOCOL.md §10) -------------------

const RANK_VALUE = { A: 1, T: 10, J: 10, Q: 10, K: 10 };
const cardValue = (code) => RANK_VALUE[code[0]] ?? Number(code[0]);

function choose(actions) {
  const call = actions.find((a) => a.type === 'CallYanniv');
  if (call) return call; // ends manches, so matches end
  const plays = actions.filter((a) => a.type === 'Play');
  if (plays.length) {
    const worth = (a) => a.cards.reduce((s, c) => s + cardValue(c), 0) * 10 + a.cards.length;
    return plays.reduce((best, a) => (worth(a) > worth(best) ? a : best));
  }
  return actions[Math.floor(rnd() * actions.length)];
}

// ---- rooms, players, sockets -------------------------------------------------------------

let addressCount = 0;
function nextAddress() {
  if (opt['source-net'] === 'none') return undefined;
  const n = addressCount++;
  return `${opt['source-net']}.${Math.floor(n / 250) % 256}.${(n % 250) + 2}`;
}

const rooms = [];

function newRoom(index) {
  const room = {
    index, code: null, players: [], latest: 0, inflight: null, owed: false,
    records: new Map(), nextTick: 0, finished: false, rematching: false, done: false,
  };
  for (let s = 0; s < SEATS; s += 1) {
    room.players.push({
      room, pseudo: `L${index}s${s}`, address: nextAddress(), cookie: null, token: null,
      seat: null, ws: null, version: 0, legal: null, finished: false, closing: false, opened: null,
      lastSent: 0,
    });
  }
  return room;
}

function actorOf(room) {
  for (const p of room.players) {
    if (p.version === room.latest && p.legal && p.legal.length) return p;
  }
  return null;
}

function act(room) {
  if (room.inflight || room.done) return false;
  const p = actorOf(room);
  if (!p) return false;
  const action = choose(p.legal);
  const id = randomUUID().replaceAll('-', '');
  const rec = {
    id, t: performance.now(), actor: p, left: SEATS, version: room.latest + 1,
    counted: inWindow(), sizes: [0, 0, []],
  };
  room.records.set(rec.version, rec);
  room.inflight = rec;
  if (rec.counted) win.sent += 1;
  else if (phase === 'match-end') stats.matchEndActions += 1;
  p.ws.send(JSON.stringify({ type: 'action', id, version: room.latest, action }));
  p.lastSent = performance.now();
  return true;
}

function tick(room) {
  if (room.done) return;
  if (!act(room)) room.owed = true;
  room.nextTick += phase === 'match-end' && END_PERIOD ? END_PERIOD : PERIOD;
  setTimeout(() => tick(room), Math.max(0, room.nextTick - performance.now()));
}

function onState(p, msg, size) {
  const room = p.room;
  const now = performance.now();
  p.version = msg.version;
  // Only what acting needs is kept, not the view: a view kept until the next one (about a
  // second) outlives V8's young generation, and 8,000 of them turning over made the old one
  // fill and be collected every few seconds, pausing this loop for tens of milliseconds.
  const v = msg.view;
  p.legal = v && v.pending && v.pending.seat === v.viewer ? v.legal_actions : null;
  p.finished = Boolean(v && v.finished);
  if (msg.room && typeof msg.room.your_seat === 'number') p.seat = msg.room.your_seat;
  if (msg.version > room.latest) room.latest = msg.version;
  const rec = room.records.get(msg.version);
  if (rec) {
    const ms = now - rec.t;
    if (p === rec.actor) {
      if (rec.counted) {
        win.actor.push(ms);
        const second = Math.floor((performance.timeOrigin + rec.t) / 1000);
        if (!win.seconds.has(second)) win.seconds.set(second, []);
        win.seconds.get(second).push(ms);
      }
      rec.sizes[1] = size;
      if (room.inflight === rec) room.inflight = null;
    } else {
      if (rec.counted) win.others.push(ms);
      rec.sizes[2].push(size);
    }
    rec.left -= 1;
    if (rec.left === 0) {
      room.records.delete(msg.version);
      if (rec.counted) keepSizes(rec.sizes);
    }
  }
  if (msg.version === room.latest) {
    const finished = p.finished;
    if (finished && !room.finished) {
      stats.matchesFinished += 1;
      if (phase === 'warmup' || phase === 'window') rematch(room);
    }
    room.finished = finished;
  }
  // In an unpaced match-end phase a room acts as soon as its view comes back.
  const unpaced = phase === 'match-end' && !END_PERIOD;
  if ((room.owed || unpaced) && !room.inflight && act(room)) room.owed = false;
}

const STATE_HEAD = Buffer.from('{"type":"state","version":');
const NOT_ACTING = Buffer.from('"legal_actions":[]');
const FINISHED = Buffer.from('"finished":true');
const QUIET_VIEW = Object.freeze({ finished: false });

/** The version of a `state` frame that asks nothing of its seat (no legal action, match not
 * finished), read off its bytes; -1 for any other frame. Three frames in four are such, and
 * none of them needs parsing: this process's CPU is the machine's, shared with the server it
 * measures. Both servers' frames begin with the same head (`{"type":"state","version":`). */
function quietVersion(data) {
  const head = STATE_HEAD.length;
  if (data.length <= head || data.compare(STATE_HEAD, 0, head, 0, head) !== 0) return -1;
  let version = 0;
  let i = head;
  for (; i < data.length && data[i] >= 48 && data[i] <= 57; i += 1) version = version * 10 + data[i] - 48;
  if (i === head || data[i] !== 44) return -1; // digits, then a comma
  return data.indexOf(NOT_ACTING, i) >= 0 && data.indexOf(FINISHED, i) < 0 ? version : -1;
}

function onMessage(p, data) {
  const size = data.length;
  let msg;
  const quiet = p.seat !== null && !p.opened ? quietVersion(data) : -1;
  if (quiet >= 0) {
    msg = { type: 'state', version: quiet, view: QUIET_VIEW };
    if (inWindow()) win.quiet += 1;
  } else {
    try { msg = JSON.parse(data); } catch { count(stats.errors, 'unparsable_frame'); return; }
  }
  if (msg.type === 'pong') { // the answer to a page's ping: not counted among an action's frames
    if (inWindow()) win.pongs += 1;
    return;
  }
  if (inWindow()) { win.frames += 1; win.bytes += size; }
  if (msg.type === 'state') {
    onState(p, msg, size);
    if (p.opened) { p.opened(); p.opened = null; }
  } else if (msg.type === 'ack') {
    const rec = p.room.inflight;
    if (rec && rec.id === msg.id) {
      if (rec.counted) { win.ack.push(performance.now() - rec.t); win.acked += 1; }
      rec.sizes[0] = size;
      if (msg.version !== rec.version) count(stats.errors, 'ack_version_mismatch');
    } else {
      const late = [...p.room.records.values()].find((r) => r.id === msg.id);
      if (late?.counted) win.acked += 1;
      if (!late) count(stats.errors, 'unexpected_ack');
    }
  } else if (msg.type === 'error') {
    count(stats.errors, msg.code);
    const rec = p.room.inflight;
    if (rec && rec.id === msg.id) {
      p.room.records.delete(rec.version);
      p.room.inflight = null;
    }
  }
}

function connect(p) {
  return new Promise((resolve) => {
    const url = `ws://${BASE.host}/ws/${p.room.code}?token=${encodeURIComponent(p.token)}`;
    const ws = new WebSocket(url, {
      localAddress: p.address, perMessageDeflate: opt.deflate, handshakeTimeout: 60000,
    });
    p.ws = ws;
    p.opened = resolve;
    ws.on('open', () => {
      if (ws.extensions.includes('permessage-deflate')) stats.deflated += 1;
    });
    ws.on('message', (data) => onMessage(p, data));
    ws.on('error', (err) => count(stats.errors, `socket_error ${err.code || err.message}`));
    ws.on('close', (code) => {
      if (!p.closing) {
        stats.disconnects += 1;
        count(stats.closeCodes, String(code));
      }
      if (p.opened) { p.opened(); p.opened = null; }
      if (p.closed) p.closed();
    });
  });
}

async function setupRoom(room) {
  const [host, ...guests] = room.players;
  const made = await request('POST', '/api/rooms', { pseudo: host.pseudo, public: false }, host);
  if (made.status !== 201) { httpError('create', made); return false; }
  room.code = made.json.code;
  host.token = made.json.token;
  host.seat = made.json.seat;
  if (opt.manches) {
    const patch = { manches: Number(opt.manches), timer_seconds: null };
    const res = await request('PATCH', `/api/rooms/${room.code}/settings`, patch, host);
    if (res.status !== 200) { httpError('settings', res); return false; }
  }
  let summary = made.json.room;
  for (const g of guests) {
    const res = await request('POST', `/api/rooms/${room.code}/join`, { pseudo: g.pseudo }, g);
    if (res.status !== 200) { httpError('join', res); return false; }
    g.token = res.json.token;
    g.seat = res.json.seat;
    summary = res.json.room;
  }
  // No computer player and no timer may act for a seat (PROTOCOL.md §12).
  const bots = summary.seats.filter((s) => s.is_bot).length;
  if (summary.settings.timer_seconds !== null || bots || summary.seats.length !== SEATS) {
    stats.setupErrors.push(`${room.code}: timer ${summary.settings.timer_seconds}, `
      + `bots ${bots}, seats ${summary.seats.length}`);
    return false;
  }
  return true;
}

async function startRoom(room) {
  const res = await request('POST', `/api/rooms/${room.code}/start`, undefined, room.players[0]);
  if (res.status !== 200) { httpError('start', res); return false; }
  return true;
}

async function rematch(room) {
  if (room.rematching) return;
  room.rematching = true;
  const res = await request('POST', `/api/rooms/${room.code}/rematch`, undefined,
    room.players[0]);
  if (res.status !== 200) httpError('rematch', res);
  else if (await startRoom(room)) stats.rematches += 1;
  room.rematching = false;
}

async function pool(items, width, work) {
  let next = 0;
  const results = new Array(items.length);
  async function worker() {
    while (next < items.length) {
      const i = next++;
      try { results[i] = await work(items[i]); } catch (err) {
        stats.setupErrors.push(String(err?.message || err));
        results[i] = false;
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return results;
}

// ---- figures -------------------------------------------------------------------------------

function percentiles(values) {
  if (!values.length) return { n: 0, p50: null, p90: null, p99: null, max: null };
  const sorted = Float64Array.from(values).sort();
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  const round = (x) => Math.round(x * 100) / 100;
  return {
    n: sorted.length, p50: round(at(0.5)), p90: round(at(0.9)), p99: round(at(0.99)),
    max: round(sorted[sorted.length - 1]),
  };
}

const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const sleep = (ms) => new Promise((r) => { setTimeout(r, ms); });

async function waitFor(cond, ms) {
  const until = performance.now() + ms;
  while (!cond() && performance.now() < until) await sleep(20);
  return cond();
}

// One room set up, played a few actions and closed before the baseline is read, so that the
// server's one-time costs (first imports, caches) do not count as memory per socket.
async function warmUp() {
  const room = newRoom('w');
  if (!(await setupRoom(room))) return;
  await Promise.all(room.players.map(connect));
  if (await startRoom(room)) {
    for (let i = 0; i < 8; i += 1) {
      if (!(await waitFor(() => actorOf(room) && !room.inflight, 5000))) break;
      act(room);
    }
    await waitFor(() => !room.inflight, 5000);
  }
  await Promise.all(room.players.map((p) => new Promise((resolve) => {
    p.closing = true;
    p.closed = resolve;
    p.ws.close(1000);
    setTimeout(resolve, 5000);
  })));
  await sleep(500);
}

async function main() {
  await warmUp();
  stats.deflated = 0;
  const t0 = performance.now();
  const rssIdle = rss();
  emit({ event: 'phase', phase: 'setup', rooms: ROOMS });
  for (let i = 0; i < ROOMS; i += 1) rooms.push(newRoom(i));
  const made = await pool(rooms, Number(opt['setup-concurrency']), setupRoom);
  const ready = rooms.filter((_, i) => made[i]);
  const tSetup = performance.now();
  const rssSetup = rss();

  emit({ event: 'phase', phase: 'connect', rooms: ready.length });
  const players = ready.flatMap((r) => r.players);
  await pool(players, Number(opt['connect-concurrency']), connect);
  const tConnect = performance.now();
  const rssConnected = rss();

  emit({ event: 'phase', phase: 'start' });
  const started = await pool(ready, Number(opt['setup-concurrency']), startRoom);
  const playing = ready.filter((_, i) => started[i]);
  const tStart = performance.now();
  for (const room of playing) {
    room.owed = false;
    room.nextTick = performance.now() + rnd() * PERIOD;
    setTimeout(() => tick(room), room.nextTick - performance.now());
  }
  const pinger = opt['client-pings'] ? setInterval(() => {
    const now = performance.now();
    for (const p of players) {
      if (p.ws?.readyState === WebSocket.OPEN && now - p.lastSent >= PAGE_PING_AFTER) {
        p.ws.send('{"type":"ping"}');
        p.lastSent = now;
        if (inWindow()) win.pings += 1;
      }
    }
  }, PAGE_PING_TICK) : null;
  const sweeper = setInterval(() => {
    const now = performance.now();
    for (const room of playing) {
      for (const [v, rec] of room.records) {
        if (now - rec.t > ACTION_TIMEOUT) {
          stats.timeouts += rec.left;
          room.records.delete(v);
          if (room.inflight === rec) room.inflight = null;
        }
      }
    }
  }, 1000);

  phase = 'warmup';
  emit({ event: 'phase', phase: 'warmup' });
  await sleep(WARMUP);

  const loop = monitorEventLoopDelay({ resolution: 5 });
  const rssSamples = [];
  win.start = sample();
  loop.enable();
  phase = 'window';
  emit({ event: 'window-start' });
  const rssTimer = setInterval(() => rssSamples.push(rss()), 1000);
  // The generator's own lateness in each second of the window, to tell its stalls from the
  // server's in the timeline: how late a 5 ms timer fired, at most.
  let lastFired = performance.now();
  const lagTimer = setInterval(() => {
    const now = performance.now();
    const second = Math.floor((performance.timeOrigin + now) / 1000);
    const late = now - lastFired - 5;
    lastFired = now;
    if (late > (win.lateBySecond.get(second) ?? 0)) win.lateBySecond.set(second, late);
  }, 5);
  // The generator's own garbage collections (V8 pauses its thread for most of them).
  const gcWatch = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const second = Math.floor((performance.timeOrigin + entry.startTime) / 1000);
      win.gcBySecond.set(second, (win.gcBySecond.get(second) ?? 0) + entry.duration);
    }
  });
  gcWatch.observe({ entryTypes: ['gc'] });
  await sleep(DURATION);
  clearInterval(lagTimer);
  gcWatch.disconnect();
  phase = 'after';
  win.end = sample();
  loop.disable();
  clearInterval(rssTimer);
  const rssSteady = rss();
  emit({ event: 'window-end' });

  let matchEnd = null;
  if (opt['match-end']) {
    // Play every room to the end of its match, at `--match-end-rate` (0: as fast as its views
    // come back).
    emit({ event: 'phase', phase: 'match-end', rate: END_RATE });
    const tEnd = performance.now();
    const limit = Number(opt['match-end-timeout']) * 1000;
    phase = 'match-end';
    if (!END_PERIOD) for (const room of playing) if (!room.inflight && !act(room)) room.owed = true;
    const over = (r) => !r.rematching && r.players.every((p) => p.finished);
    while (!playing.every(over) && performance.now() - tEnd < limit) await sleep(500);
    matchEnd = {
      finished_rooms: playing.filter(over).length,
      seconds: Math.round(performance.now() - tEnd) / 1000, rss_kb: rss(),
      actions: stats.matchEndActions, rate: END_RATE,
    };
  }
  for (const room of playing) room.done = true;

  // Let the window's last views arrive, then close every socket.
  const drainUntil = performance.now() + Math.min(ACTION_TIMEOUT, 15000);
  const pendingWindow = () => playing.some((r) => [...r.records.values()].some((x) => x.counted));
  while (pendingWindow() && performance.now() < drainUntil) await sleep(100);
  let lost = 0;
  for (const room of playing) {
    for (const rec of room.records.values()) if (rec.counted) lost += rec.left;
  }
  clearInterval(sweeper);
  if (pinger) clearInterval(pinger);
  await Promise.all(players.map((p) => new Promise((resolve) => {
    if (!p.ws || p.ws.readyState === WebSocket.CLOSED) { resolve(); return; }
    p.closing = true;
    p.closed = resolve;
    p.ws.close(1000);
    setTimeout(resolve, 5000);
  })));

  const seconds = (win.end.t - win.start.t) / 1000;
  const serverCpu = win.end.server - win.start.server;
  const selfCpu = win.end.self - win.start.self;
  const machine = win.end.machine - win.start.machine;
  const sockets = players.filter((p) => p.ws).length;
  const perSocket = (kb, base) => (sockets ? Math.round(((kb - base) / sockets) * 10) / 10 : null);
  const errorCount = Object.values(stats.errors).reduce((a, b) => a + b, 0)
    + Object.values(stats.httpErrors).reduce((a, b) => a + b, 0)
    + stats.setupErrors.length + stats.timeouts + lost;
  const sizes = win.sizes;
  if (opt['sizes-out']) fs.writeFileSync(opt['sizes-out'], JSON.stringify(sizes));
  const others = sizes.flatMap((s) => s[2]);
  emit({
    event: 'result',
    rooms: ROOMS, rooms_playing: playing.length, sockets, rate: Number(opt.rate),
    deflate: opt.deflate, deflate_sockets: stats.deflated, window_s: Math.round(seconds * 100) / 100,
    actions_sent: win.sent, actions_acked: win.acked,
    actions_per_s: Math.round((win.acked / seconds) * 10) / 10,
    latency_ms: {
      ack: percentiles(win.ack), actor: percentiles(win.actor), others: percentiles(win.others),
    },
    errors: errorCount, error_codes: stats.errors, http_errors: stats.httpErrors,
    setup_errors: stats.setupErrors.slice(0, 20), timeouts: stats.timeouts, lost,
    disconnects: stats.disconnects, close_codes: stats.closeCodes,
    matches_finished: stats.matchesFinished, rematches: stats.rematches,
    client_pings: opt['client-pings']
      ? { per_s: Math.round((win.pings / seconds) * 10) / 10, sent: win.pings, pongs: win.pongs }
      : null,
    server: {
      cpu_s: Math.round(serverCpu * 1000) / 1000,
      cpu_ms_per_action: win.acked ? Math.round((serverCpu / win.acked) * 1e6) / 1000 : null,
      cores: Math.round((serverCpu / seconds) * 1000) / 1000,
      rss_idle_kb: rssIdle, rss_setup_kb: rssSetup, rss_connected_kb: rssConnected,
      rss_steady_kb: rssSteady, rss_max_kb: Math.max(rssSteady, ...rssSamples),
      kb_per_socket: perSocket(rssSteady, rssIdle),
      kb_per_socket_sockets_only: perSocket(rssSteady, rssSetup),
      kb_per_socket_match_end: matchEnd ? perSocket(matchEnd.rss_kb, rssIdle) : null,
    },
    match_end: matchEnd,
    generator: {
      cpu_s: Math.round(selfCpu * 1000) / 1000, cores: Math.round((selfCpu / seconds) * 1000) / 1000,
      loop_delay_p99_ms: Math.round(loop.percentile(99) / 1e4) / 100,
      loop_delay_max_ms: Math.round(loop.max / 1e4) / 100,
      // Node's and V8's flags it ran with (servers.GENERATOR_V8_FLAGS).
      exec_argv: process.execArgv,
    },
    machine: { busy_cores: Math.round((machine / seconds) * 1000) / 1000 },
    frames: {
      per_action: win.acked ? Math.round((win.frames / win.acked) * 100) / 100 : null,
      // State frames read without parsing (`quietVersion`).
      quiet: win.quiet,
      bytes_per_action: win.acked ? Math.round(win.bytes / win.acked) : null,
      ack_bytes: Math.round(mean(sizes.map((s) => s[0])) ?? 0),
      actor_state_bytes: Math.round(mean(sizes.map((s) => s[1])) ?? 0),
      other_state_bytes: Math.round(mean(others) ?? 0),
    },
    timeline: [...win.seconds].map(([second, values]) => ({
      second, ...percentiles(values),
      generator_late_max: Math.round((win.lateBySecond.get(second) ?? 0) * 100) / 100,
      generator_gc_ms: Math.round((win.gcBySecond.get(second) ?? 0) * 100) / 100,
    })),
    setup_s: {
      http: Math.round(tSetup - t0) / 1000, connect: Math.round(tConnect - tSetup) / 1000,
      start: Math.round(tStart - tConnect) / 1000,
    },
  });
}

main().then(() => process.exit(0), (err) => {
  emit({ event: 'fatal', message: String(err?.stack || err) });
  process.exit(1);
});
