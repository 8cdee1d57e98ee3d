// Drives the official socket.io-client (v4, protocol v5) against the Rust Socket.IO server.
//
//   node socketio.mjs <base url> <scenario>
//
// Prints "OK <scenario>" and exits 0, or prints "FAIL <scenario>: <why>" and exits 1.
// The server is the test server of tests/realtime/sio_helpers.rs (the conformance fixture plus
// rooms, broadcasts, server acks and the refusing namespace /private); "protocol" is the
// Socket.IO part of the official protocol test suite, by hand over `ws`, against the fixture.
import { io, Manager } from "socket.io-client";
import WebSocket from "ws";

const [base, scenario] = process.argv.slice(2);
const TIMEOUT_MS = 10000;

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

async function until(condition, what, ms = 3000) {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

function bytes(data) {
  if (data instanceof ArrayBuffer) return [...new Uint8Array(data)];
  if (ArrayBuffer.isView(data)) return [...new Uint8Array(data.buffer, data.byteOffset, data.byteLength)];
  return null;
}

// A socket of its own (no shared manager), not reconnecting by itself.
function connect(nsp = "/", opts = {}) {
  return io(base + nsp, { forceNew: true, reconnection: false, ...opts });
}

// The arguments of the next `event`.
function next(socket, event) {
  return new Promise((resolve) => socket.once(event, (...args) => resolve(args)));
}

function connected(socket) {
  if (socket.connected) return Promise.resolve();
  return new Promise((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("connect_error", (err) => reject(new Error(`connect_error: ${err.message}`)));
  });
}

function connectError(socket) {
  return new Promise((resolve, reject) => {
    socket.once("connect", () => reject(new Error("connected")));
    socket.once("connect_error", resolve);
  });
}

async function close(...sockets) {
  for (const socket of sockets) socket.disconnect();
  // Give the DISCONNECT and close packets time to leave the process.
  await sleep(200);
}

// Message round trips: plain, with an ack, binary.
async function roundTrip(socket, tag) {
  const back = next(socket, "message-back");
  socket.emit("message", tag, 1, { 2: [true] });
  same(await back, [tag, 1, { 2: [true] }], `${tag}: message-back`);
  const acked = await new Promise((resolve) => socket.emit("message-with-ack", tag, [3], (...args) => resolve(args)));
  same(acked, [tag, [3]], `${tag}: ack`);
  const binary = next(socket, "message-back");
  socket.emit("message", Buffer.from([1, 2, 3]), { nested: [Uint8Array.from([255, 0])] }, tag);
  const [buf, obj, text] = await binary;
  same(bytes(buf), [1, 2, 3], `${tag}: first buffer`);
  same(bytes(obj.nested[0]), [255, 0], `${tag}: nested buffer`);
  check(text === tag, `${tag}: text after buffers`);
}

const scenarios = {
  async "websocket-only"() {
    const socket = connect("/", { transports: ["websocket"], auth: { token: "abc" } });
    const auth = next(socket, "auth");
    const welcome = next(socket, "welcome");
    await connected(socket);
    check(socket.io.engine.transport.name === "websocket", `transport ${socket.io.engine.transport.name}`);
    same((await auth)[0], { token: "abc" }, "auth payload");
    const [info] = await welcome;
    check(info.id === socket.id && info.recovered === false, `welcome ${JSON.stringify(info)}`);
    check(socket.recovered === false, "a fresh socket is not recovered");
    await roundTrip(socket, "ws");
    await close(socket);
  },

  async "polling-only"() {
    const socket = connect("/", { transports: ["polling"] });
    await connected(socket);
    check(socket.io.engine.transport.name === "polling", `transport ${socket.io.engine.transport.name}`);
    await roundTrip(socket, "poll");
    await close(socket);
  },

  async "polling-upgrade"() {
    const socket = connect("/", { transports: ["polling", "websocket"] });
    let first = null;
    const upgraded = new Promise((resolve) =>
      socket.io.once("open", () => {
        first = socket.io.engine.transport.name;
        socket.io.engine.once("upgrade", resolve);
      }),
    );
    await connected(socket);
    await roundTrip(socket, "before");
    await upgraded;
    check(first === "polling", `opened over ${first}`);
    check(socket.io.engine.transport.name === "websocket", `upgraded to ${socket.io.engine.transport.name}`);
    await roundTrip(socket, "after");
    await close(socket);
  },

  // A stream of events that the upgrade from polling to WebSocket cuts in two arrives whole
  // and in order: first through the session's queue, then straight to the connection. The
  // upgrade is started by hand in the middle of the stream (`_probe`, what engine.io-client
  // 6.6 calls itself on open when `upgrade` is on), so the cut always falls inside it.
  async "upgrade-mid-stream"() {
    const socket = connect("/", { transports: ["polling", "websocket"], upgrade: false });
    await connected(socket);
    const engine = socket.io.engine;
    check(typeof engine._probe === "function", "engine.io-client has no _probe any more");
    const count = 300;
    const got = [];
    const over = { polling: 0, websocket: 0 };
    const upgraded = new Promise((resolve) => engine.once("upgrade", resolve));
    socket.on("seq", (n) => {
      got.push(n);
      over[engine.transport.name] += 1;
      if (got.length === 50) engine._probe("websocket");
    });
    // 10 ms apart (about 3 s in all), so the upgrade lands mid-stream even on a loaded machine.
    socket.emit("stream", "seq", count, 10);
    await upgraded;
    await until(() => got.length >= count, `${count} events (got ${got.length})`, 20000);
    const wrong = got.findIndex((n, i) => n !== i);
    check(wrong < 0 && got.length === count, `out of order at ${wrong}: ${got.slice(Math.max(0, wrong - 2), wrong + 3)}`);
    check(over.polling >= 50 && over.websocket > 0, `split ${JSON.stringify(over)}`);
    await roundTrip(socket, "after");
    await close(socket);
  },

  // Namespaces multiplexed on one connection; leaving one keeps the other.
  async namespaces() {
    const manager = new Manager(base, { reconnection: false, transports: ["websocket"] });
    const main = manager.socket("/");
    const custom = manager.socket("/custom", { auth: { k: "v" } });
    const auth = next(custom, "auth");
    await Promise.all([connected(main), connected(custom)]);
    same((await auth)[0], { k: "v" }, "custom auth");
    check(main.io.engine === custom.io.engine, "one engine");
    main.disconnect();
    await sleep(100);
    check(custom.connected, "custom still connected");
    main.connect();
    await connected(main);
    await roundTrip(main, "again");
    await close(main, custom);
  },

  async acks() {
    const socket = connect("/", { transports: ["websocket"] });
    await connected(socket);
    // Client to server, with a timeout on the client side.
    same(await socket.timeout(2000).emitWithAck("message-with-ack", "x"), "x", "emitWithAck");
    // Server to client: the server emits with an ack and answers what it got.
    socket.on("question", (q, callback) => callback({ answer: `${q}!` }, 2));
    same(await socket.emitWithAck("ask", "question", "why", 2000), { answer: [{ answer: "why!" }, 2] }, "server ack");
    // Binary in a server ack.
    socket.on("binary-question", (_q, callback) => callback(Buffer.from([7, 8])));
    const got = await socket.emitWithAck("ask", "binary-question", null, 2000);
    same(bytes(got.answer[0]), [7, 8], "binary answer, sent back as binary");
    // The client never answers: the server's wait times out.
    socket.on("silent", () => {});
    same(await socket.emitWithAck("ask", "silent", "hello", 300), { error: "no acknowledgement within the timeout" }, "server ack timeout");
    await close(socket);
  },

  async rooms() {
    const [a, b, c] = [0, 1, 2].map(() => connect("/", { transports: ["websocket"] }));
    await Promise.all([a, b, c].map(connected));
    const got = new Map([[a, []], [b, []], [c, []]]);
    for (const [socket, list] of got) {
      for (const event of ["room-event", "except-event", "others-event", "marker"]) {
        socket.on(event, (payload) => list.push(`${event}:${payload.n}`));
      }
    }
    same(await a.emitWithAck("join", "r"), [a.id, "r"].sort(), "rooms after join");
    same(await b.emitWithAck("room-size", "r"), 1, "room size");
    await b.emitWithAck("to-room", "r", "room-event", { n: 1 });
    await b.emitWithAck("except-room", "r", "except-event", { n: 2 });
    await a.emitWithAck("to-others", "others-event", { n: 3 });
    await a.emitWithAck("leave", "r");
    await b.emitWithAck("to-room", "r", "room-event", { n: 4 });
    await b.emitWithAck("except-room", "nobody", "marker", { n: 5 });
    await until(() => [a, b, c].every((s) => got.get(s).includes("marker:5")), "markers");
    same(got.get(a), ["room-event:1", "marker:5"], "a");
    same(got.get(b), ["except-event:2", "others-event:3", "marker:5"], "b");
    same(got.get(c), ["except-event:2", "others-event:3", "marker:5"], "c");
    same(await b.emitWithAck("room-size", "r"), 0, "room size after leave");
    await close(a, b, c);
  },

  async "auth-refused"() {
    for (const auth of [{ token: "wrong" }, {}]) {
      const socket = connect("/private", { transports: ["websocket"], auth });
      const err = await connectError(socket);
      check(err.message === "bad token", `connect_error ${err.message} for ${JSON.stringify(auth)}`);
      socket.close();
    }
    const socket = connect("/private", { transports: ["websocket"], auth: { token: "secret" } });
    const welcome = next(socket, "welcome");
    await connected(socket);
    same((await welcome)[0].auth, { token: "secret" }, "auth seen by the server");
    await close(socket);
  },

  async "invalid-namespace"() {
    for (const transports of [["websocket"], ["polling"]]) {
      const socket = connect("/nope", { transports });
      const err = await connectError(socket);
      check(err.message === "Invalid namespace", `connect_error ${err.message}`);
      socket.close();
    }
  },

  async binary() {
    for (const transports of [["websocket"], ["polling"]]) {
      const socket = connect("/", { transports });
      await connected(socket);
      const bin = next(socket, "binary");
      socket.emit("send-binary");
      const [first, second] = await bin;
      same(bytes(first), [1, 2, 3], `${transports}: server buffer`);
      same(bytes(second.nested), [255], `${transports}: nested server buffer`);
      const back = next(socket, "message-back");
      const big = Buffer.alloc(100000, 7);
      socket.emit("message", big, "after");
      const [echoed, after] = await back;
      check(bytes(echoed).length === 100000 && bytes(echoed).every((b) => b === 7), `${transports}: big buffer`);
      check(after === "after", `${transports}: text after the big buffer`);
      await close(socket);
    }
  },

  async "server-disconnect"() {
    const socket = connect("/", { transports: ["websocket"] });
    await connected(socket);
    const reason = new Promise((resolve) => socket.once("disconnect", resolve));
    socket.emit("disconnect-me");
    same(await reason, "io server disconnect", "reason");
    await close(socket);
  },
};

// Joins "news", gets one broadcast (so it has an offset), then loses its connection; the
// controller broadcasts `missed` events to "news" once the server has seen the loss.
async function joinAndDrop(transports, missed) {
  const controller = connect("/", { transports: ["websocket"] });
  const socket = connect("/", { transports });
  const news = [];
  socket.on("news", (payload, offset) => news.push({ n: payload.n, offset }));
  await Promise.all([connected(controller), connected(socket)]);
  check(socket.recovered === false, "fresh at first");
  const firstId = socket.id;
  await socket.emitWithAck("join", "news");
  await controller.emitWithAck("to-room", "news", "news", { n: 0 });
  await until(() => news.length === 1, "the first broadcast");
  check(typeof news[0].offset === "string", `offset ${news[0].offset}`);
  const disconnected = new Promise((resolve) => socket.once("disconnect", resolve));
  if (socket.io.engine.transport.name === "websocket") {
    // The connection drops: the WebSocket closes without a close packet.
    socket.io.engine.transport.ws.close();
    same(await disconnected, "transport close", "disconnect reason");
  } else {
    socket.io.engine.close();
    await disconnected;
  }
  await until(async () => (await controller.emitWithAck("room-size", "news")) === 0, "the server to see the loss");
  for (let n = 1; n <= missed; n++) {
    await controller.emitWithAck("to-room", "news", "news", { n });
  }
  return { controller, socket, news, firstId };
}

scenarios.recovery = async () => {
  for (const transports of [["websocket"], ["polling"]]) {
    const { controller, socket, news, firstId } = await joinAndDrop(transports, 3);
    const welcome = next(socket, "welcome");
    socket.connect();
    await connected(socket);
    check(socket.recovered === true, `${transports}: not recovered`);
    check(socket.id === firstId, `${transports}: id changed from ${firstId} to ${socket.id}`);
    same((await welcome)[0].recovered, true, `${transports}: welcome`);
    // The missed events came before "connect", in order.
    same(news.map((e) => e.n), [0, 1, 2, 3], `${transports}: events`);
    check(new Set(news.map((e) => e.offset)).size === 4, `${transports}: offsets differ`);
    // Still in its room.
    await controller.emitWithAck("to-room", "news", "news", { n: 4 });
    await until(() => news.length === 5, `${transports}: a live broadcast after recovery`);
    await close(controller, socket);
  }
};

scenarios["recovery-expired"] = async () => {
  const { controller, socket, news, firstId } = await joinAndDrop(["websocket"], 1);
  // Past the server's window (800 ms in this test).
  await sleep(1200);
  const welcome = next(socket, "welcome");
  socket.connect();
  await connected(socket);
  check(socket.recovered === false, "recovered past the window");
  check(socket.id !== firstId, "kept its id past the window");
  same((await welcome)[0].recovered, false, "welcome");
  await sleep(100);
  same(news.map((e) => e.n), [0], "nothing replayed");
  same(await controller.emitWithAck("room-size", "news"), 0, "rooms are not restored");
  await close(controller, socket);
};

// ----- the Socket.IO part of the official protocol test suite, by hand -----

const WS_URL = base.replace(/^http/, "ws");

// Listens the way the official suite does: a listener is added only when the test awaits a
// frame, so a frame that arrives while none is registered is lost (`ws` emits every frame of one
// read synchronously, before the awaiting code can add the next listener). A queue here would
// hide what the suite trips on: see AUTH_DELAY in src/realtime/socketio/conformance.rs.
function rawSocket() {
  const socket = new WebSocket(`${WS_URL}/socket.io/?EIO=4&transport=websocket`);
  socket.binaryType = "arraybuffer";
  socket.closed = new Promise((resolve) => socket.on("close", resolve));
  socket.on("error", () => {});
  const decode = (data, isBinary) => (isBinary ? [...new Uint8Array(data)] : data.toString());
  socket.next = () => new Promise((resolve) => socket.once("message", (data, isBinary) => resolve(decode(data, isBinary))));
  // The next messages that are not pings, by one listener (the suite's waitForPackets).
  socket.packets = (count) =>
    new Promise((resolve) => {
      const packets = [];
      const handler = (data, isBinary) => {
        const message = decode(data, isBinary);
        if (message === "2") return;
        packets.push(message);
        if (packets.length === count) {
          socket.off("message", handler);
          resolve(packets);
        }
      };
      socket.on("message", handler);
    });
  return socket;
}

function within(promise, ms, what) {
  return Promise.race([promise, sleep(ms).then(() => Promise.reject(new Error(`no ${what} within ${ms} ms`)))]);
}

async function sioConnection() {
  const socket = rawSocket();
  await socket.next(); // Engine.IO handshake
  socket.send("40");
  await socket.next(); // Socket.IO handshake
  await socket.next(); // auth
  return socket;
}

scenarios.protocol = async () => {
  // connect
  for (const [packet, prefix, auth] of [
    ["40", "40", "42[\"auth\",{}]"],
    ['40{"token":"123"}', "40", '42["auth",{"token":"123"}]'],
    ["40/custom,", "40/custom,", '42/custom,["auth",{}]'],
    ['40/custom,{"token":"abc"}', "40/custom,", '42/custom,["auth",{"token":"abc"}]'],
  ]) {
    const socket = rawSocket();
    await socket.next();
    socket.send(packet);
    const data = await socket.next();
    check(data.startsWith(prefix), `${packet}: ${data}`);
    const handshake = JSON.parse(data.substring(prefix.length));
    same(Object.keys(handshake), ["sid"], `${packet}: handshake keys`);
    check(typeof handshake.sid === "string", `${packet}: sid`);
    same(await socket.next(), auth, `${packet}: auth packet`);
    socket.close();
  }
  let socket = rawSocket();
  await socket.next();
  socket.send("40/random");
  same(await socket.next(), '44/random,{"message":"Invalid namespace"}', "unknown namespace");
  socket.close();

  socket = rawSocket();
  await socket.next();
  socket.send("4abc");
  await within(socket.closed, 1000, "close after an invalid handshake");

  // No handshake: closed (by the connect timeout, or the unanswered ping before it).
  socket = rawSocket();
  await within(socket.closed, 2000, "close without a handshake");

  // disconnect
  socket = await sioConnection();
  socket.send("41");
  same(await socket.next(), "2", "a ping after leaving the main namespace");
  socket.close();

  socket = await sioConnection();
  same(await socket.next(), "2", "ping");
  socket.send("40/custom");
  await socket.next();
  await socket.next();
  socket.send("41/custom");
  socket.send('42["message","message to main namespace"]');
  same(await socket.next(), '42["message-back","message to main namespace"]', "main after leaving custom");
  socket.close();

  // message (a connection each: the suite does not answer pings)
  const cases = [
    ["plain-text packet", ['42["message",1,"2",{"3":[true]}]'], ['42["message-back",1,"2",{"3":[true]}]']],
    [
      "binary packet",
      ['452-["message",{"_placeholder":true,"num":0},{"_placeholder":true,"num":1}]', Uint8Array.from([1, 2, 3]), Uint8Array.from([4, 5, 6])],
      ['452-["message-back",{"_placeholder":true,"num":0},{"_placeholder":true,"num":1}]', [1, 2, 3], [4, 5, 6]],
    ],
    ["ack", ['42456["message-with-ack",1,"2",{"3":[false]}]'], ['43456[1,"2",{"3":[false]}]']],
    [
      "binary ack",
      ['452-789["message-with-ack",{"_placeholder":true,"num":0},{"_placeholder":true,"num":1}]', Uint8Array.from([1, 2, 3]), Uint8Array.from([4, 5, 6])],
      ['462-789[{"_placeholder":true,"num":0},{"_placeholder":true,"num":1}]', [1, 2, 3], [4, 5, 6]],
    ],
  ];
  for (const [what, sent, expected] of cases) {
    socket = await sioConnection();
    for (const message of sent) socket.send(message);
    same(await socket.packets(expected.length), expected, what);
    socket.close();
  }

  for (const invalid of ["4abc", "42{}", '42abc["message-with-ack",1,"2",{"3":[false]}]']) {
    socket = await sioConnection();
    socket.send(invalid);
    await within(socket.closed, 1000, `close after ${invalid}`);
  }
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
