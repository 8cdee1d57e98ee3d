// The Node side of the real-time benchmarks: the official socket.io 4.8 server answering the
// product's customer events as `pizza-order serve` does (below), and for the fanout benchmark
// the harness's `publish` (ack) {rooms, count, rateHz, payloadSize}: it emits, on the schedule
// of examples/bench_common/mod.rs, the product's events to the rooms the sockets joined with
// `order:watch` and `store:watch`: `order:progress` {orderNo, progress, state, at, eta, seq} to
// `order:<orderNo>` and `store:update` {storeCode, status, notice, soldOut} to
// `store:<storeCode>` (at, and the notice's second word, the wall clock when sent).
// Defaults: connection state recovery off, perMessageDeflate off, ping every 25 s.
//
// It answers the product's customer events the way `pizza-order serve` does (src/realtime/gateway): `time:sync` (ack) {clientTime} ->
// {clientTime, serverTime}; `order:watch` (ack) {orderNo, viewToken}: the view token checked
// as the product checks it (HMAC-SHA256 under BENCH_TABLE_SECRET, constant-time), the socket
// joins `order:<orderNo>`, the ack is {errCode: "00", order} with the snapshot of
// BENCH_ORDER_SNAPSHOT (what the product answered for one order, orderNo replaced; the
// product reads it from its database, this server from memory) or {errCode: "404", …};
// `store:watch` (ack) {storeCode}: joins `store:<storeCode>`.
//
//     node tests/bench/node-server.mjs [port] [host, default 127.0.0.1]
import { createServer } from "node:http";
import { Server } from "socket.io";
import { createHmac, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";

const port = Number(process.argv[2] ?? 3200);
const host = process.argv[3] ?? "127.0.0.1";
const nowMs = () => performance.timeOrigin + performance.now();

const httpServer = createServer();
const io = new Server(httpServer, { transports: ["websocket", "polling"], serveClient: false });

const tableSecret = process.env.BENCH_TABLE_SECRET ?? "";
const snapshot = process.env.BENCH_ORDER_SNAPSHOT ? JSON.parse(readFileSync(process.env.BENCH_ORDER_SNAPSHOT, "utf8")) : null;
const codeLike = (s) => typeof s === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(s);
// actors/src/domain/ordering/view_token.rs
const viewTokenOk = (orderNo, token) => {
  if (typeof token !== "string" || token.length !== 32) return false;
  const mac = createHmac("sha256", tableSecret).update("pizza-order/order-view/v1\n").update(orderNo).digest().subarray(0, 16);
  const presented = Buffer.from(token, "hex");
  return presented.length === 16 && timingSafeEqual(mac, presented);
};

function publish({ rooms, count, rateHz = 0, payloadSize = 0 }, done) {
  const pad = "x".repeat(payloadSize);
  const started = performance.now();
  const total = count * rooms.length;
  let emitted = 0;
  const emitOne = () => {
    const seq = Math.floor(emitted / rooms.length);
    const room = rooms[emitted % rooms.length];
    const sentAt = nowMs();
    if (room.startsWith("order:")) {
      io.to(room).emit("order:progress", { orderNo: room.slice(6), progress: 20, state: 6, at: sentAt, eta: null, seq });
    } else {
      const notice = `${seq} ${sentAt.toFixed(3)} ${pad}`;
      io.to(room).emit("store:update", { storeCode: room.slice(6), status: "open", notice, soldOut: [] });
    }
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
  socket.on("time:sync", (arg, ack) => {
    if (typeof ack === "function") ack({ clientTime: arg?.clientTime ?? null, serverTime: Date.now() });
  });
  socket.on("order:watch", (arg, ack) => {
    const orderNo = arg?.orderNo;
    if (typeof ack !== "function") return;
    if (!codeLike(orderNo)) return ack({ errCode: "400", errMsg: "orderNo is not valid" });
    if (!viewTokenOk(orderNo, arg?.viewToken)) return ack({ errCode: "404", errMsg: "订单不存在" });
    socket.join(`order:${orderNo}`);
    ack({ errCode: "00", order: { ...snapshot, orderNo } });
  });
  socket.on("store:watch", (arg, ack) => {
    const code = arg?.storeCode;
    if (!codeLike(code)) return typeof ack === "function" && ack({ errCode: "400", errMsg: "storeCode is not valid" });
    for (const room of socket.rooms) if (room.startsWith("store:")) socket.leave(room);
    socket.join(`store:${code}`);
    if (typeof ack === "function") ack({ errCode: "00" });
  });
  socket.on("publish", (spec, ack) => {
    publish(spec, (result) => typeof ack === "function" && ack(result));
  });
});

httpServer.listen(port, host, 4096, () => {
  console.log(`bench server (node socket.io 4.8) pid ${process.pid} on http://${host}:${port}/socket.io/`);
});
