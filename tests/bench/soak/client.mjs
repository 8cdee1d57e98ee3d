// The soak's client (tests/bench/soak/run.sh): USERS customers order and pay without pause for
// DURATION_SECONDS, the e2e benchmark's order (tests/bench/lib/api.mjs: cart, submit, payment
// attempt, the sandbox's Pay, then the order's page once). Every 10 s it prints the orders paid so far, so the run's log
// lines up with the server's RSS samples; its last line is one JSON object (the totals).
//
// RATE (orders a second, all customers together; 0: no pause) paces them, so that an hour-long
// soak can run beside other work and still place more orders than the 17,400.
//
//   BASE=http://127.0.0.1:3601 USERS=8 DURATION_SECONDS=600 RATE=0 node tests/bench/soak/client.mjs
import { call, createPayment, phoneNumber, placeOrder, register, sandboxPay } from '../lib/api.mjs';

const base = process.env.BASE;
const users = Number(process.env.USERS ?? 8);
const seconds = Number(process.env.DURATION_SECONDS ?? 600);
const rate = Number(process.env.RATE ?? 0);
if (!base || !(users > 0 && users <= 20) || !(seconds > 0) || !(rate >= 0)) {
  // 20: the SMS sandbox's limit of codes per client address per hour.
  console.error('BASE is required; USERS 1..20, DURATION_SECONDS > 0, RATE >= 0');
  process.exit(2);
}

const run = Math.floor(Date.now() / 1000) % 100_000;
const tokens = [];
for (let i = 0; i < users; i++) tokens.push((await register(base, phoneNumber(run, 300 + i))).token);

const started = performance.now();
const end = started + seconds * 1000;
let paid = 0;
let errors = 0;
let lastError = '';
const progress = setInterval(() => {
  const at = Math.round((performance.now() - started) / 1000);
  console.log(`t=${at}s paid=${paid} errors=${errors}`);
}, 10_000);

async function customer(token, i) {
  // With a rate, customer i places its n-th order no earlier than its n-th slot.
  const every = rate > 0 ? (1000 * users) / rate : 0;
  const first = started + (every * i) / users;
  for (let n = 0; performance.now() < end; n++) {
    const wait = first + n * every - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    if (performance.now() >= end) break;
    try {
      const { orderNo } = await placeOrder(base, token, `soak-${run}-${i}-${n}`);
      const paymentId = await createPayment(base, token, orderNo, `soak-pay-${run}-${i}-${n}`);
      await sandboxPay(base, paymentId);
      // The status page the app shows after paying reads the order (its detail, kept in
      // memory per order: src/http/orders/views.rs).
      await call(base, 'GET', `/orders/${orderNo}`, { token });
      paid++;
    } catch (e) {
      errors++;
      lastError = String(e.message ?? e);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

await Promise.all(tokens.map((t, i) => customer(t, i)));
clearInterval(progress);
console.log(JSON.stringify({ users, seconds, paid, errors, lastError, ordersPerSecond: Number((paid / seconds).toFixed(2)) }));
process.exit(paid === 0 ? 1 : 0);
