// A visitor's second tab: connects with its cart token and waits for `cart:updated`.
//
//   node cart.mjs <base url> <cart token>
//
// Prints READY once connected (the Rust test then adds to that cart over HTTP), then
// "OK cart <version>", or "FAIL cart: <why>" and exits 1.
import { io } from "socket.io-client";

const [base, cartToken] = process.argv.slice(2);

function withTimeout(promise, what, ms = 5000) {
  return Promise.race([
    promise,
    new Promise((_, reject) => setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms)),
  ]);
}

async function main() {
  const socket = io(base, { transports: ["websocket"], reconnection: false, auth: { cartToken } });
  await withTimeout(new Promise((resolve, reject) => {
    socket.on("connect", resolve);
    socket.on("connect_error", reject);
  }), "connect");
  const updated = new Promise((resolve) => socket.on("cart:updated", resolve));
  console.log("READY");
  const got = await withTimeout(updated, "cart:updated");
  socket.close();
  return got.version;
}

main().then(
  (version) => console.log(`OK cart ${version}`),
  (e) => {
    console.log(`FAIL cart: ${e.message}`);
    process.exit(1);
  },
);
