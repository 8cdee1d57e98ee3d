// Drives the official engine.io-client against an Engine.IO server.
//
//   node client.mjs <base url> <scenario>
//
// Prints "OK <scenario>" and exits 0, or prints "FAIL <scenario>: <why>" and exits 1.
// Scenarios: websocket-only, polling-only, upgrade, heartbeat (the official client), and
// raw-websocket, raw-upgrade (the protocol by hand, over the `ws` package and fetch).
import { Socket } from "engine.io-client";
import WebSocket from "ws";

const [base, scenario] = process.argv.slice(2);
const TIMEOUT_MS = 8000;

function open(transports, extra = {}) {
  return new Socket(base, { transports, path: "/engine.io/", ...extra });
}

function once(socket, event) {
  return new Promise((resolve, reject) => {
    socket.once(event, resolve);
    socket.once("error", (err) => reject(new Error(`error before ${event}: ${err}`)));
  });
}

// Collects the next `count` messages.
function messages(socket, count) {
  return new Promise((resolve) => {
    const received = [];
    const onMessage = (data) => {
      received.push(data);
      if (received.length === count) {
        socket.off("message", onMessage);
        resolve(received);
      }
    };
    socket.on("message", onMessage);
  });
}

function sameBytes(data, expected) {
  const bytes = new Uint8Array(data instanceof ArrayBuffer ? data : data.buffer ? data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) : data);
  return bytes.length === expected.length && bytes.every((b, i) => b === expected[i]);
}

function check(condition, what) {
  if (!condition) throw new Error(what);
}

// Sends text and binary messages and checks they come back in order.
async function echoRound(socket, tag) {
  const texts = [`${tag}-1`, `${tag}-2 €`, `${tag}-3`];
  const binary = Uint8Array.from([1, 2, 3, 255, 0]);
  const pending = messages(socket, 4);
  socket.send(texts[0]);
  socket.send(texts[1]);
  socket.send(binary);
  socket.send(texts[2]);
  const [a, b, c, d] = await pending;
  check(a === texts[0] && b === texts[1] && d === texts[2], `texts came back as ${JSON.stringify([a, b, d])}`);
  check(typeof c !== "string" && sameBytes(c, binary), `binary came back as ${c}`);
}

async function closeAndWait(socket) {
  const closed = new Promise((resolve) => socket.once("close", (reason) => resolve(reason)));
  socket.close();
  const reason = await closed;
  check(reason === "forced close", `closed with ${reason}`);
  // The client reports the close at once; give its close packet time to leave the process.
  await new Promise((resolve) => setTimeout(resolve, 200));
}

const scenarios = {
  async "websocket-only"() {
    const socket = open(["websocket"]);
    await once(socket, "open");
    check(socket.transport.name === "websocket", `transport ${socket.transport.name}`);
    await echoRound(socket, "ws");
    await closeAndWait(socket);
  },

  async "polling-only"() {
    const socket = open(["polling"]);
    await once(socket, "open");
    check(socket.transport.name === "polling", `transport ${socket.transport.name}`);
    await echoRound(socket, "poll");
    await closeAndWait(socket);
  },

  async upgrade() {
    const socket = open(["polling", "websocket"]);
    const upgraded = once(socket, "upgrade");
    await once(socket, "open");
    check(socket.transport.name === "polling", `opened over ${socket.transport.name}`);
    await echoRound(socket, "before");
    await upgraded;
    check(socket.transport.name === "websocket", `upgraded to ${socket.transport.name}`);
    await echoRound(socket, "after");
    await closeAndWait(socket);
  },

  // Stays connected over several ping intervals on each transport (the server's
  // pingInterval is short in the test), then checks messages still flow.
  async heartbeat() {
    for (const transports of [["polling"], ["websocket"]]) {
      const socket = open(transports);
      let closedEarly = null;
      socket.on("close", (reason) => (closedEarly = reason));
      await once(socket, "open");
      let pings = 0;
      socket.on("ping", () => pings++);
      await new Promise((r) => setTimeout(r, 1200));
      check(closedEarly === null, `${transports} closed early: ${closedEarly}`);
      check(pings >= 2, `${transports}: only ${pings} pings`);
      socket.off("close");
      await echoRound(socket, `hb-${transports}`);
      await closeAndWait(socket);
    }
  },
};


// ----- the protocol by hand -----

const WS_BASE = base.replace(/^http/, "ws");

// A WebSocket whose messages queue up, answering server pings unless told otherwise.
function rawSocket(query, { answerPings = true } = {}) {
  const socket = new WebSocket(`${WS_BASE}/engine.io/?${query}`);
  socket.binaryType = "nodebuffer";
  const queue = [];
  const waiters = [];
  socket.closed = new Promise((resolve) => socket.on("close", resolve));
  socket.on("error", () => {});
  socket.on("message", (data, isBinary) => {
    const message = isBinary ? Uint8Array.from(data) : data.toString();
    if (answerPings && message === "2") {
      socket.send("3");
      return;
    }
    const waiter = waiters.shift();
    if (waiter) waiter(message);
    else queue.push(message);
  });
  socket.next = () =>
    queue.length ? Promise.resolve(queue.shift()) : new Promise((resolve) => waiters.push(resolve));
  socket.opened = new Promise((resolve, reject) => {
    socket.on("open", resolve);
    socket.on("unexpected-response", (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
  return socket;
}

function within(promise, ms, what) {
  return Promise.race([
    promise,
    new Promise((_, reject) => setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms)),
  ]);
}

async function pollingHandshake() {
  const res = await fetch(`${base}/engine.io/?EIO=4&transport=polling`);
  const text = await res.text();
  return JSON.parse(text.substring(1)).sid;
}

scenarios["raw-websocket"] = async () => {
  // Handshake: the open packet is the first frame, with no upgrade offered.
  let socket = rawSocket("EIO=4&transport=websocket");
  const open = await socket.next();
  check(open[0] === "0", `first frame ${open}`);
  const handshake = JSON.parse(open.substring(1));
  check(Array.isArray(handshake.upgrades) && handshake.upgrades.length === 0, `upgrades ${open}`);
  check(handshake.pingInterval === 300 && handshake.pingTimeout === 200, `heartbeat ${open}`);
  check(handshake.maxPayload === 1000000, `maxPayload ${open}`);
  // Text and binary echo.
  socket.send("4hello");
  check((await socket.next()) === "4hello", "text echo");
  socket.send(Uint8Array.from([1, 2, 3, 4]));
  const bin = await socket.next();
  check(typeof bin !== "string" && sameBytes(bin, [1, 2, 3, 4]), `binary echo ${bin}`);
  // The close packet closes the connection.
  socket.send("1");
  await within(socket.closed, 1000, "close after the close packet");

  // Pings arrive every pingInterval while pongs are sent.
  socket = rawSocket("EIO=4&transport=websocket", { answerPings: false });
  await socket.next();
  for (let i = 0; i < 3; i++) {
    check((await within(socket.next(), 1000, "ping")) === "2", "ping");
    socket.send("3");
  }
  socket.close();

  // An invalid packet closes the connection.
  socket = rawSocket("EIO=4&transport=websocket");
  await socket.next();
  socket.send("abc");
  await within(socket.closed, 1000, "close after an invalid packet");

  // No pong: closed after pingInterval + pingTimeout.
  socket = rawSocket("EIO=4&transport=websocket", { answerPings: false });
  await socket.next();
  await within(socket.closed, 1500, "close on ping timeout");

  // Bad query parameters: the upgrade is refused.
  for (const query of ["transport=websocket", "EIO=abc&transport=websocket", "EIO=4", "EIO=4&transport=abc", "EIO=4&transport=websocket&sid=unknown"]) {
    socket = rawSocket(query);
    let refused = false;
    await socket.opened.catch(() => (refused = true));
    check(refused, `upgrade accepted for ${query}`);
  }
};

scenarios["raw-upgrade"] = async () => {
  const sid = await pollingHandshake();
  const socket = rawSocket(`EIO=4&transport=websocket&sid=${sid}`);
  await socket.opened;
  socket.send("2probe");
  check((await within(socket.next(), 1000, "3probe")) === "3probe", "probe answer");
  // A poll during the upgrade ends at once with a noop.
  const poll = await fetch(`${base}/engine.io/?EIO=4&transport=polling&sid=${sid}`);
  const pollBody = await poll.text();
  check(poll.status === 200 && pollBody === "6", `poll during upgrade: ${poll.status} ${pollBody}`);
  // Still polling until the upgrade packet: what is sent now waits in the polling buffer...
  const push = await fetch(`${base}/engine.io/?EIO=4&transport=polling&sid=${sid}`, { method: "POST", body: "4queued" });
  check((await push.text()) === "ok", "post during upgrade");
  // ...and comes over the WebSocket, first, once the upgrade completes.
  socket.send("5");
  socket.send("4hello");
  check((await within(socket.next(), 1000, "queued message")) === "4queued", "queued message first");
  check((await within(socket.next(), 1000, "echo")) === "4hello", "then the echo");
  // Polling is over for this session.
  const late = await fetch(`${base}/engine.io/?EIO=4&transport=polling&sid=${sid}`);
  await late.text();
  check(late.status === 400, `poll after upgrade: ${late.status}`);
  // A second WebSocket for the same session is closed.
  const second = rawSocket(`EIO=4&transport=websocket&sid=${sid}`);
  await within(second.closed, 1000, "close of a second upgrade");
  socket.send("4still");
  check((await within(socket.next(), 1000, "echo")) === "4still", "first socket still works");
  socket.send("1");
  await within(socket.closed, 1000, "close");

  // Probe and upgrade sent back to back: a poll right after is refused, the echo still works.
  const sid2 = await pollingHandshake();
  const quick = rawSocket(`EIO=4&transport=websocket&sid=${sid2}`);
  await quick.opened;
  quick.send("2probe");
  quick.send("5");
  const refused = await fetch(`${base}/engine.io/?EIO=4&transport=polling&sid=${sid2}`);
  await refused.text();
  check(refused.status === 400, `poll after a quick upgrade: ${refused.status}`);
  quick.send("4hello");
  check((await within(quick.next(), 1000, "3probe")) === "3probe", "3probe first");
  check((await within(quick.next(), 1000, "echo")) === "4hello", "echo after a quick upgrade");
  quick.close();
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
