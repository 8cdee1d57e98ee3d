// The client harness of the real-time benchmark, the same for both servers (Rust and Node).
// It speaks Engine.IO v4 / Socket.IO v5 directly over `ws` (open, ping/pong, CONNECT, EVENT, ACK;
// text frames only), lighter than socket.io-client so that the client side is not what limits.
//
//   node tests/bench/harness.mjs --port 3100 --pid <server pid> --n 1000 --label rust --out r.json
//
// Socket i connects from 127.0.0.<addr-base + floor(i / per-addr)> (default 2, 5000 per address).
//
// Phases:
//   1. idle: server VmRSS before connecting and after N sockets are connected, each having
//      joined `order:<i % R>` and `store:<i % S>` -> bytes per socket;
//   2. fixed rate: the server publishes RATE events/s for SECONDS s, round-robin over the S
//      store rooms and the order rooms 0..S-1;
//   3. burst: the server publishes BURST events to each store room at once.
// For 2 and 3: delivery latency (receive time - sentAt, both the wall clock of this machine),
// lost (expected deliveries - received), reordered (seq not increasing per socket per room),
// and the server's CPU time (utime+stime from /proc/<pid>/stat) from the publish command until
// the last delivery -> deliveries per CPU-second.
import WebSocket from "ws";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";

const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const PORT = Number(opt("port", 3100));
const PID = Number(opt("pid", 0));
const N = Number(opt("n", 1000));
const S = Number(opt("stores", 50));
const R = Number(opt("orders", Math.max(1, Math.floor(N / 2))));
const RATE = Number(opt("rate", 200));
const SECONDS = Number(opt("seconds", 10));
const BURST = Number(opt("burst", 20));
const PAYLOAD = Number(opt("payload", 64));
const PER_ADDR = Number(opt("per-addr", 5000));
const ADDR_BASE = Number(opt("addr-base", 2)); // first source address 127.0.0.<ADDR_BASE>
const CONCURRENCY = Number(opt("concurrency", 200));
const CLK_TCK = Number(opt("clk-tck", 100));
const LABEL = opt("label", "server");
const OUT = opt("out", "");
const CONNECT_TIMEOUT_S = Number(opt("connect-timeout", 180));
const URL = `ws://127.0.0.1:${PORT}/socket.io/?EIO=4&transport=websocket`;

const nowMs = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (...a) => console.error(`[${LABEL} n=${N}]`, ...a);

function serverRss() {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${PID}/status`, "utf8"));
  return m ? Number(m[1]) * 1024 : NaN;
}
// CPU time of all the server's threads: the sum of /proc/<pid>/task/*/schedstat (ns), finer than
// the 10 ms ticks of /proc/<pid>/stat, which is the fallback.
function serverCpuSeconds() {
  try {
    let ns = 0;
    for (const t of readdirSync(`/proc/${PID}/task`)) {
      ns += Number(readFileSync(`/proc/${PID}/task/${t}/schedstat`, "utf8").split(" ")[0]);
    }
    if (ns > 0) return ns / 1e9;
  } catch {}
  const stat = readFileSync(`/proc/${PID}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK; // utime, stime (fields 14, 15)
}

// Busy and total jiffies of each core (/proc/stat), to see time the per-process counters miss
// (loopback softirq work, for one).
function coreTimes() {
  return readFileSync("/proc/stat", "utf8").split("\n").filter((l) => /^cpu\d/.test(l)).map((l) => {
    const v = l.split(/\s+/).slice(1, 9).map(Number); // user nice system idle iowait irq softirq steal
    const total = v.reduce((a, b) => a + b, 0);
    return { busy: total - v[3] - v[4], total };
  });
}

// ---- measurement state, reset per phase ----
let lat = new Float64Array(1 << 20);
let latN = 0;
let received = 0;
let reordered = 0;
let lastRecv = 0;
function record(ms) {
  if (latN === lat.length) {
    const bigger = new Float64Array(lat.length * 2);
    bigger.set(lat);
    lat = bigger;
  }
  lat[latN++] = ms;
}

// ---- one client: minimal Engine.IO v4 + Socket.IO v5 on namespace "/" ----
class Client {
  constructor(index, rooms) {
    this.index = index;
    this.rooms = rooms; // [orderRoom, storeRoom] or []
    this.last = new Map(); // room -> last seq this phase
    this.ackId = 0;
    this.acks = new Map();
  }
  open() {
    const localAddress = this.index < 0 ? "127.0.0.1" : `127.0.0.${ADDR_BASE + Math.floor(this.index / PER_ADDR)}`;
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(URL, { localAddress, perMessageDeflate: false });
      this.ws = ws;
      let settled = false;
      const fail = (e) => {
        if (!settled) { settled = true; reject(e); }
      };
      ws.on("error", fail);
      ws.on("close", () => { this.closed = true; fail(new Error("closed before connect")); });
      ws.on("message", (buf, isBinary) => {
        if (isBinary) return;
        const s = buf.toString();
        switch (s.charCodeAt(0)) {
          case 50: ws.send("3"); return; // "2" ping -> "3" pong
          case 48: ws.send("40"); return; // "0" open -> CONNECT "/"
          case 52: break; // "4" message
          default: return;
        }
        const t = s.charCodeAt(1);
        if (t === 50) { // "2" EVENT
          this.onEvent(s);
        } else if (t === 48) { // "0" CONNECT ok
          if (this.rooms.length === 0) { settled = true; resolve(); return; }
          this.emitAck("join", this.rooms).then(() => { settled = true; resolve(); }, fail);
        } else if (t === 51) { // "3" ACK: 43<id>[...]
          const j = s.indexOf("[");
          const id = Number(s.slice(2, j));
          const cb = this.acks.get(id);
          if (cb) { this.acks.delete(id); cb(JSON.parse(s.slice(j))); }
        } else if (t === 52) { // "4" CONNECT_ERROR
          fail(new Error(`connect error ${s}`));
        }
      });
    });
  }
  emitAck(event, arg) {
    const id = this.ackId++;
    return new Promise((resolve) => {
      this.acks.set(id, resolve);
      this.ws.send(`42${id}${JSON.stringify([event, arg])}`);
    });
  }
  onEvent(s) {
    const t = nowMs();
    const [event, tick] = JSON.parse(s.slice(2));
    if (event !== "tick") return;
    received++;
    lastRecv = t;
    record(t - tick.sentAt);
    const prev = this.last.get(tick.room);
    if (prev !== undefined && tick.seq <= prev) reordered++;
    this.last.set(tick.room, tick.seq);
  }
}

function percentile(sorted, n, p) {
  if (n === 0) return NaN;
  return sorted[Math.min(n - 1, Math.floor((p / 100) * n))];
}

// Publishes and waits for every expected delivery (or for the timeout / 5 s of silence).
async function phase(name, control, spec, expected, timeoutMs) {
  latN = 0; received = 0; reordered = 0; lastRecv = 0;
  for (const c of clients) c.last.clear();
  const cpu0 = serverCpuSeconds();
  const hcpu0 = process.cpuUsage();
  const cores0 = coreTimes();
  const t0 = nowMs();
  const ack = await Promise.race([
    control.emitAck("publish", spec),
    sleep(timeoutMs).then(() => [{ error: "publish ack timeout" }]),
  ]);
  const deadline = t0 + timeoutMs;
  while (received < expected && nowMs() < deadline && !(lastRecv > 0 && nowMs() - lastRecv > 5000)) {
    await sleep(20);
  }
  const end = received >= expected ? lastRecv : nowMs();
  const cpu = serverCpuSeconds() - cpu0;
  const h = process.cpuUsage(hcpu0);
  const coreBusyPct = coreTimes().map((c, i) => (100 * (c.busy - cores0[i].busy)) / Math.max(1, c.total - cores0[i].total));
  const wall = (end - t0) / 1000;
  const sorted = lat.subarray(0, latN).sort();
  const r = {
    phase: name,
    events: ack[0]?.emitted ?? null,
    publishMs: ack[0]?.tookMs ?? null,
    // How late the server's paced emits were at worst (the Rust server reports it).
    emitMaxLateMs: ack[0]?.maxLateMs ?? null,
    expected,
    received,
    lost: expected - received,
    reordered,
    p50: percentile(sorted, latN, 50),
    p99: percentile(sorted, latN, 99),
    p999: percentile(sorted, latN, 99.9),
    max: latN ? sorted[latN - 1] : NaN,
    wallS: wall,
    serverCpuS: cpu,
    deliveriesPerCpuS: cpu > 0 ? received / cpu : NaN,
    coreBusyPct,
    harnessCpuPct: (100 * (h.user + h.system)) / 1e6 / Math.max(wall, 1e-3),
  };
  log(`${name}: ${received}/${expected} delivered, p99 ${r.p99?.toFixed(2)} ms, server cpu ${cpu.toFixed(2)} s, harness cpu ${r.harnessCpuPct.toFixed(0)}%`);
  if (ack[0]?.error) log(`publish: ${ack[0].error}`);
  return r;
}

const clients = [];
const result = { label: LABEL, n: N, orders: R, stores: S, rate: RATE, seconds: SECONDS, burst: BURST, payload: PAYLOAD };
const hardTimer = setTimeout(() => { log("harness timeout"); finish(2); }, (CONNECT_TIMEOUT_S + SECONDS + 240) * 1000);

function finish(code) {
  clearTimeout(hardTimer);
  if (OUT) writeFileSync(OUT, JSON.stringify(result, null, 2));
  for (const c of clients) try { c.ws?.terminate(); } catch {}
  try { control?.ws?.terminate(); } catch {}
  process.exit(code);
}
let control;

try {
  // ---- phase 1: idle ----
  await sleep(500);
  result.rssBefore = serverRss();
  const memberOf = (i) => [`order:${i % R}`, `store:${i % S}`];
  for (let i = 0; i < N; i++) clients.push(new Client(i, memberOf(i)));
  const tc = nowMs();
  let next = 0, failed = 0;
  const errors = new Map();
  const connectDeadline = tc + CONNECT_TIMEOUT_S * 1000;
  const worker = async () => {
    while (next < N && nowMs() < connectDeadline) {
      const c = clients[next++];
      try { await c.open(); c.ok = true; } catch (e) {
        failed++;
        const k = String(e?.code ?? e?.message ?? e);
        errors.set(k, (errors.get(k) ?? 0) + 1);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const connected = clients.filter((c) => c.ok).length;
  result.connected = connected;
  result.connectFailed = N - connected;
  result.connectS = (nowMs() - tc) / 1000;
  if (errors.size) log("connect errors:", Object.fromEntries(errors));
  log(`${connected}/${N} connected and joined in ${result.connectS.toFixed(1)} s`);
  control = new Client(-1, []);
  await control.open();
  await sleep(3000); // let the server settle
  result.rssIdle = serverRss();
  result.rssPerSocket = (result.rssIdle - result.rssBefore) / Math.max(1, connected);

  // Expected deliveries per room (only sockets that connected count).
  const members = new Map();
  for (const c of clients) if (c.ok) for (const r of c.rooms) members.set(r, (members.get(r) ?? 0) + 1);
  const expectedFor = (rooms, count) => rooms.reduce((a, r) => a + count * (members.get(r) ?? 0), 0);

  // ---- phase 2: fixed rate ----
  const stores = Array.from({ length: S }, (_, k) => `store:${k}`);
  const rateRooms = stores.flatMap((s, k) => [s, `order:${k % R}`]);
  const rateCount = Math.max(1, Math.round((RATE * SECONDS) / rateRooms.length));
  const rate = await phase("rate", control,
    { rooms: rateRooms, count: rateCount, rateHz: RATE, payloadSize: PAYLOAD },
    expectedFor(rateRooms, rateCount), (SECONDS + 30) * 1000);

  // ---- phase 3: burst ----
  await sleep(1000);
  const burst = await phase("burst", control,
    { rooms: stores, count: BURST, rateHz: 0, payloadSize: PAYLOAD },
    expectedFor(stores, BURST), 60_000);

  result.rssAfter = serverRss();
  result.phases = { rate, burst };
  result.stillOpen = clients.filter((c) => c.ok && !c.closed).length;
  finish(0);
} catch (e) {
  log("failed:", e?.stack ?? e);
  result.error = String(e?.message ?? e);
  finish(1);
}
