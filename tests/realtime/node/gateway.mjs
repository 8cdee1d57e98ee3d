// Drives the official socket.io-client against the product's gateway as `serve` mounts it.
//
//   node gateway.mjs <base url>
//
// Prints READY once it watches store SH001 and a tablet of SH001 is connected with
// STAFF_TOKEN (the Rust test then publishes a store update on the bus), then "OK gateway", or "FAIL gateway: <why>" and exits 1.
import { io } from "socket.io-client";

const [base] = process.argv.slice(2);

function check(condition, what) {
  if (!condition) throw new Error(what);
}

function withTimeout(promise, what, ms = 5000) {
  return Promise.race([
    promise,
    new Promise((_, reject) => setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms)),
  ]);
}

async function main() {
  // WebSocket only: the upgrade must pass the app's middleware untouched.
  const socket = io(base, { transports: ["websocket"], reconnection: false });
  await withTimeout(new Promise((resolve, reject) => {
    socket.on("connect", resolve);
    socket.on("connect_error", reject);
  }), "connect");

  const sync = await withTimeout(socket.emitWithAck("time:sync", { clientTime: 123 }), "time:sync");
  check(sync.clientTime === 123, `time:sync echoes clientTime: ${JSON.stringify(sync)}`);
  check(sync.serverTime === Number(process.env.SERVER_TIME), `serverTime is the server's clock: ${JSON.stringify(sync)}`);

  const bad = await withTimeout(socket.emitWithAck("store:watch", { storeCode: "store:SH001" }), "bad watch");
  check(bad.errCode === "400", `a bad store code is refused: ${JSON.stringify(bad)}`);
  const watched = await withTimeout(socket.emitWithAck("store:watch", { storeCode: "SH001" }), "store:watch");
  check(watched.errCode === "00", `store:watch: ${JSON.stringify(watched)}`);

  // Tablets: a bad staff token is refused before the CONNECT is answered; the store's
  // manager gets in and is in the store's room.
  const intruder = io(`${base}/store`, { transports: ["websocket"], reconnection: false, auth: { token: "x" } });
  const refused = await withTimeout(new Promise((resolve) => intruder.on("connect_error", resolve)), "/store refusal");
  check(refused.message === "Not authorized", `/store with a bad token: ${refused.message}`);
  intruder.close();
  const tablet = io(`${base}/store`, { transports: ["websocket"], reconnection: false, auth: { token: process.env.STAFF_TOKEN } });
  await withTimeout(new Promise((resolve, reject) => {
    tablet.on("connect", resolve);
    tablet.on("connect_error", reject);
  }), "tablet connect");

  const update = new Promise((resolve) => socket.on("store:update", resolve));
  const tabletUpdate = new Promise((resolve) => tablet.on("store:update", resolve));
  console.log("READY");
  const got = await withTimeout(update, "store:update");
  check(got.storeCode === "SH001" && got.soldOut[0] === "PZ001", `store:update: ${JSON.stringify(got)}`);
  const tabletGot = await withTimeout(tabletUpdate, "store:update on the tablet");
  check(tabletGot.storeCode === "SH001", `tablet store:update: ${JSON.stringify(tabletGot)}`);

  tablet.close();
  socket.close();
}

main().then(
  () => {
    console.log("OK gateway");
    process.exit(0);
  },
  (err) => {
    console.log(`FAIL gateway: ${err.message}`);
    process.exit(1);
  },
);
