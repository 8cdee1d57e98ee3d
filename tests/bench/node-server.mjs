// The Node side of the real-time benchmark: the official socket.io 4.8 server speaking the same
// protocol as examples/bench_server.rs (see there): `join` (ack) [room, ...] and
// `publish` (ack) {rooms, count, rateHz, payloadSize} -> `tick` {room, seq, sentAt, pad}.
// Defaults: connection state recovery off, perMessageDeflate off, ping every 25 s.
//
//     node tests/bench/node-server.mjs [port] [host, default 127.0.0.1]
import { createServer } from "node:http";
import { Server } from "socket.io";

const port = Number(process.argv[2] ?? 3200);
const host = process.argv[3] ?? "127.0.0.1";
const nowMs = () => performance.timeOrigin + performance.now();

const httpServer = createServer();
const io = new Server(httpServer, { transports: ["websocket", "polling"], serveClient: false });

function publish({ rooms, count, rateHz = 0, payloadSize = 0 }, done) {
  const pad = "x".repeat(payloadSize);
  const started = performance.now();
  const total = count * rooms.length;
  let emitted = 0;
  const emitOne = () => {
    const seq = Math.floor(emitted / rooms.length);
    const room = rooms[emitted % rooms.length];
    io.to(room).emit("tick", { room, seq, sentAt: nowMs(), pad });
    emitted++;
  };
  if (!(rateHz > 0)) {
    while (emitted < total) emitOne();
    return done({ emitted, tookMs: performance.now() - started });
  }
  // Paced: each event is due at started + k/rate; a timer wakes at the next due time.
  const step = () => {
    const elapsed = performance.now() - started;
    while (emitted < total && emitted <= (elapsed * rateHz) / 1000) emitOne();
    if (emitted >= total) return done({ emitted, tookMs: performance.now() - started });
    const nextDue = (emitted * 1000) / rateHz;
    setTimeout(step, Math.max(0, nextDue - (performance.now() - started)));
  };
  step();
}

io.on("connection", (socket) => {
  socket.on("join", (rooms, ack) => {
    const list = Array.isArray(rooms) ? rooms : [];
    socket.join(list);
    if (typeof ack === "function") ack(list.length);
  });
  socket.on("publish", (spec, ack) => {
    publish(spec, (result) => typeof ack === "function" && ack(result));
  });
});

httpServer.listen(port, host, 4096, () => {
  console.log(`bench server (node socket.io 4.8) pid ${process.pid} on http://${host}:${port}/socket.io/`);
});
