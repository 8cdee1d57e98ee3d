// Drives the official socket.io-client (v4) against two Rust Socket.IO nodes sharing the Redis
// adapter (tests/realtime/redis_adapter.rs).
//
//   node redis.mjs <base url of node A> <base url of node B> <scenario>
//
// Prints "OK <scenario>" and exits 0, or prints "FAIL <scenario>: <why>" and exits 1.
// Both nodes serve "/" with: `welcome` {id, recovered} on connection; `join` [room] (acks the
// rooms); `to-room` [room, event, payload]; `except-room` [room, except, event, payload]
// (acks "sent"); `room-size` [room] (this node's sockets only).
import { io } from "socket.io-client";

const [baseA, baseB, scenario] = process.argv.slice(2);
const TIMEOUT_MS = 15000;

function check(condition, what) {
  if (!condition) throw new Error(what);
}

function same(actual, expected, what) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  check(a === e, `${what}: got ${a}, expected ${e}`);
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function until(condition, what, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

function connect(base, opts = {}) {
  return io(base + "/", { forceNew: true, reconnection: false, transports: ["websocket"], ...opts });
}

function connected(socket) {
  if (socket.connected) return Promise.resolve();
  return new Promise((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("connect_error", (err) => reject(new Error(`connect_error: ${err.message}`)));
  });
}

function next(socket, event) {
  return new Promise((resolve) => socket.once(event, (...args) => resolve(args)));
}

// Records the payloads of `event` (with the offset, when there is one).
function record(socket, event) {
  const got = [];
  socket.on(event, (payload, offset) => got.push({ ...payload, offset }));
  return got;
}

async function close(...sockets) {
  for (const socket of sockets) socket.disconnect();
  await sleep(200);
}

const scenarios = {
  // An emit to a room on one node reaches that room's sockets on both nodes; `except` (a room,
  // or one socket's id) leaves sockets out on both nodes.
  async "cross-node"() {
    const a1 = connect(baseA);
    const a2 = connect(baseA, { transports: ["polling"] });
    const b1 = connect(baseB);
    const outsider = connect(baseA);
    const ctlA = connect(baseA);
    const ctlB = connect(baseB);
    const all = [a1, a2, b1, outsider, ctlA, ctlB];
    await Promise.all(all.map(connected));
    const got = new Map([a1, a2, b1, outsider].map((s) => [s, record(s, "news")]));
    for (const s of [a1, a2, b1]) await s.emitWithAck("join", "news");
    await a1.emitWithAck("join", "vip");

    const expect = async (n, receivers, what) => {
      await until(() => receivers.every((s) => got.get(s).some((e) => e.n === n)), `${what}: delivery`);
      await sleep(150);
      for (const [s, events] of got) {
        const count = events.filter((e) => e.n === n).length;
        same(count, receivers.includes(s) ? 1 : 0, `${what}: copies at ${s.id}`);
      }
    };

    same(await ctlB.emitWithAck("to-room", "news", "news", { n: 1 }), "sent", "emit on B");
    await expect(1, [a1, a2, b1], "B to news");
    await ctlA.emitWithAck("to-room", "news", "news", { n: 2 });
    await expect(2, [a1, a2, b1], "A to news");
    await ctlB.emitWithAck("except-room", "news", "vip", "news", { n: 3 });
    await expect(3, [a2, b1], "B to news except vip (on A)");
    await ctlB.emitWithAck("except-room", "news", a2.id, "news", { n: 4 });
    await expect(4, [a1, b1], "B to news except a socket of A");
    await ctlA.emitWithAck("except-room", "news", b1.id, "news", { n: 5 });
    await expect(5, [a1, a2], "A to news except a socket of B");
    // Room sizes stay per node.
    same(await ctlA.emitWithAck("room-size", "news"), 2, "news on A");
    same(await ctlB.emitWithAck("room-size", "news"), 1, "news on B");
    await close(...all);
  },

  // A client on A loses its connection; B emits to its room meanwhile; the client comes back
  // to B with its pid and offset and gets the missed events in order, its id and its rooms.
  async "recover-on-other-node"() {
    const ctlA = connect(baseA);
    const ctlB = connect(baseB);
    const socket = connect(baseA);
    const news = record(socket, "news");
    await Promise.all([connected(ctlA), connected(ctlB), connected(socket)]);
    check(typeof socket._pid === "string", "recovery is on (pid)");
    const firstId = socket.id;
    await socket.emitWithAck("join", "news");
    await ctlB.emitWithAck("to-room", "news", "news", { n: 0 });
    await until(() => news.length === 1, "the first broadcast");
    check(typeof news[0].offset === "string", `offset ${news[0].offset}`);
    same(socket._lastOffset, news[0].offset, "the client keeps the offset");

    const disconnected = next(socket, "disconnect");
    socket.io.engine.transport.ws.close();
    same((await disconnected)[0], "transport close", "disconnect reason");
    await until(async () => (await ctlA.emitWithAck("room-size", "news")) === 0, "A to see the loss");
    for (let n = 1; n <= 3; n++) await ctlB.emitWithAck("to-room", "news", "news", { n });
    await ctlA.emitWithAck("to-room", "news", "news", { n: 4 });
    await ctlB.emitWithAck("to-room", "elsewhere", "news", { n: 99 });

    // What socket.io-client sends when it reconnects, pointed at node B.
    const moved = connect(baseB, { autoConnect: false });
    moved._pid = socket._pid;
    moved._lastOffset = socket._lastOffset;
    const after = record(moved, "news");
    const welcome = next(moved, "welcome");
    moved.connect();
    await connected(moved);
    check(moved.recovered === true, "not recovered on B");
    same(moved.id, firstId, "socket id kept");
    same((await welcome)[0].recovered, true, "welcome on B");
    // An emit returns before Redis gives it an offset, and two nodes' broadcasts have no order
    // between them: a missed event may still be on its way into the history when B replays,
    // and then arrives live right after. What holds: each arrives once, each node's own in
    // its order, and nothing from another room.
    await until(() => after.length >= 4, "the missed events");
    same([...after.map((e) => e.n)].sort((x, y) => x - y), [1, 2, 3, 4], "missed events, once each");
    // The pub/sub copies of what was replayed may reach B only now (a slow subscriber): they
    // are dropped, not delivered a second time. (n = 5 below shows whether one got through.)
    const lateCopies = await ctlB.emitWithAck("late-copies", socket._lastOffset);
    check(lateCopies === 5, `late copies published (4 to news, 1 elsewhere): ${lateCopies}`);
    const fromB = after.map((e) => e.n).filter((n) => n <= 3);
    same(fromB, [1, 2, 3], "node B's events in B's order");
    check(after.every((e) => typeof e.offset === "string"), "offsets");
    check(new Set([news[0].offset, ...after.map((e) => e.offset)]).size === 5, "offsets differ");
    // Its room came along, and live broadcasts from both nodes reach it on B.
    same(await ctlB.emitWithAck("room-size", "news"), 1, "news on B");
    // (Broadcasts from different nodes keep no order between them: one at a time.)
    await ctlA.emitWithAck("to-room", "news", "news", { n: 5 });
    await until(() => after.length === 5, "a live broadcast from A");
    await ctlB.emitWithAck("to-room", "news", "news", { n: 6 });
    await until(() => after.length === 6, "live broadcasts after recovery");
    same(after.slice(4).map((e) => e.n), [5, 6], "live events after recovery, in order");

    // The session was taken: the same pid does not recover twice.
    const again = connect(baseA, { autoConnect: false });
    again._pid = socket._pid;
    again._lastOffset = socket._lastOffset;
    again.connect();
    await connected(again);
    check(again.recovered === false, "recovered twice");
    await close(ctlA, ctlB, moved, again);
  },
};

const run = scenarios[scenario];
if (!run) {
  console.log(`FAIL ${scenario}: unknown scenario`);
  process.exit(1);
}
const timer = setTimeout(() => {
  console.log(`FAIL ${scenario}: timed out after ${TIMEOUT_MS} ms`);
  process.exit(1);
}, TIMEOUT_MS);
try {
  await run();
  clearTimeout(timer);
  console.log(`OK ${scenario}`);
  process.exit(0);
} catch (err) {
  clearTimeout(timer);
  console.log(`FAIL ${scenario}: ${err && err.message ? err.message : err}`);
  process.exit(1);
}
