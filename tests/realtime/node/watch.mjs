// Follows one order with the official client: order:watch with its view token (no login),
// then the order:progress events.
//
//   node watch.mjs <base url> <orderNo> <viewToken> <events expected>
//
// Prints "SNAPSHOT <seq>" and READY (the Rust test then moves the order), then
// "OK watch <seq> <seq> …" once the expected events arrived in order, or "FAIL watch: <why>".
import { io } from "socket.io-client";

const [base, orderNo, viewToken, expected] = process.argv.slice(2);

function withTimeout(promise, what, ms = 8000) {
  return Promise.race([
    promise,
    new Promise((_, reject) => setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms)),
  ]);
}

async function main() {
  const socket = io(base, { transports: ["websocket"], reconnection: false });
  await withTimeout(new Promise((resolve, reject) => {
    socket.on("connect", resolve);
    socket.on("connect_error", reject);
  }), "connect");
  const refused = await withTimeout(socket.emitWithAck("order:watch", { orderNo, viewToken: "0".repeat(32) }), "refusal");
  if (refused.errCode !== "404") throw new Error(`a wrong view token is refused: ${JSON.stringify(refused)}`);
  const seen = [];
  const done = new Promise((resolve) => {
    socket.on("order:progress", (e) => {
      if (e.orderNo === orderNo) seen.push(e.seq);
      if (seen.length >= Number(expected)) resolve();
    });
  });
  // The snapshot speaks the language the watch asks for, whatever the handshake said.
  const english = await withTimeout(socket.emitWithAck("order:watch", { orderNo, viewToken, lang: "en" }), "order:watch en");
  // The state depends on the caller's order (cash on delivery, or paid online): only its language is checked.
  const cjk = /[\u3400-\u9fff]/;
  const label = english.order?.stateLabel;
  if (english.errCode !== "00" || english.order.storeName !== "People's Square Flagship" || typeof label !== "string" || !label || cjk.test(label)) {
    throw new Error(`order:watch in English: ${JSON.stringify(english.order?.storeName)} ${JSON.stringify(english.order?.stateLabel)}`);
  }
  const ack = await withTimeout(socket.emitWithAck("order:watch", { orderNo, viewToken, lang: "zh" }), "order:watch");
  if (ack.errCode !== "00") throw new Error(`order:watch: ${JSON.stringify(ack)}`);
  if (ack.order.storeName !== "人民广场旗舰店") throw new Error(`order:watch in Chinese: ${JSON.stringify(ack.order.storeName)}`);
  console.log(`SNAPSHOT ${ack.order.seq}`);
  console.log("READY");
  await withTimeout(done, "order:progress");
  socket.close();
  const first = ack.order.seq + 1;
  seen.forEach((seq, i) => {
    if (seq !== first + i) throw new Error(`events in order after the snapshot: ${seen}`);
  });
  return seen.join(" ");
}

main().then(
  (seqs) => {
    console.log(`OK watch ${seqs}`);
    process.exit(0);
  },
  (e) => {
    console.log(`FAIL watch: ${e.message}`);
    process.exit(1);
  },
);
