// A store tablet on the /store namespace with the official client: connects with its staff
// token, prints CONNECTED, and stays until its stdin closes (the Rust test ends it), then
// disconnects cleanly. Events it receives are printed as "EVENT <name> <json>".
//
//   node tablet.mjs <base url> <staff token>
import { io } from "socket.io-client";
import { stdin } from "node:process";

const [base, token] = process.argv.slice(2);
const socket = io(`${base}/store`, { transports: ["websocket"], reconnection: false, auth: { token } });
socket.on("connect", () => console.log("CONNECTED"));
socket.on("connect_error", (e) => {
  console.log(`FAIL connect: ${e.message}`);
  process.exit(1);
});
socket.onAny((name, payload) => console.log(`EVENT ${name} ${JSON.stringify(payload)}`));
stdin.resume();
stdin.on("end", () => {
  socket.close();
  setTimeout(() => process.exit(0), 100);
});
