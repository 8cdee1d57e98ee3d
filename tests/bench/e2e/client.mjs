// The end-to-end benchmark's client (`make bench-e2e`, tests/bench/e2e/run.sh): customers on
// one node submit orders and pay them through the sandbox provider, a store tablet on the other
// node (or the same one) receives each paid order over Socket.IO.
//
// Each of USERS customers loops until the time is up: cart (a 12" pizza, two colas, pickup at
// SH001 booked for tomorrow), submit, a payment attempt, the sandbox's Pay button (the sandbox
// then settles and sends its signed notify, as the provider would). It does not wait for the
// tablet: the tablet's `order:new` for each order is awaited on the side. Measured after a
// warm-up, over the time that follows:
// - orders paid per second: orders whose `order:new` reached the tablet;
// - submit latency: the `POST /orders` call alone;
// - pay → tablet: from pressing Pay (client clock) to the tablet's event;
// - notify accepted → tablet: from the order's `paidAt` (the server's clock when the notify
//   was accepted and the order paid) to the tablet's event (the same machine's clock, in ms).
//
//   CUSTOMER_BASE=http://127.0.0.1:3501 STORE_BASE=http://127.0.0.1:3502 USERS=16 DURATION_SECONDS=20 \
//     WARMUP_SECONDS=5 node tests/bench/e2e/client.mjs
// Prints one JSON object (the figures) as its last line.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { call, createPayment, fillCart, makeMember, phoneNumber, register, sandboxPay, submitCart } from '../lib/api.mjs';

const here = dirname(fileURLToPath(import.meta.url));
// The app's own Socket.IO client (frontend/node_modules): the one the tablet uses.
const { io } = createRequire(join(here, '../../../frontend/package.json'))('socket.io-client');

const customerBase = process.env.CUSTOMER_BASE;
const storeBase = process.env.STORE_BASE ?? customerBase;
const users = Number(process.env.USERS ?? 16);
const seconds = Number(process.env.DURATION_SECONDS ?? 20);
const warmup = Number(process.env.WARMUP_SECONDS ?? 5);
if (!customerBase || !(users > 0 && users <= 20) || !(seconds > 0) || !(warmup >= 0)) {
  // 20: the SMS sandbox's limit of codes per client address per hour.
  console.error('CUSTOMER_BASE is required; USERS 1..20, DURATION_SECONDS > 0, WARMUP_SECONDS >= 0');
  process.exit(2);
}

const run = Math.floor(Date.now() / 1000) % 100_000;

// The tablet, on the store's node.
const staff = await call(storeBase, 'POST', '/tablet/login', { body: { storeCode: 'SH001', staffCode: 'manager', pin: '246810' } });
const tablet = io(`${storeBase}/store`, { transports: ['websocket'], auth: { token: staff.token }, reconnection: false });
await new Promise((resolve, reject) => {
  tablet.once('connect', resolve);
  tablet.once('connect_error', reject);
});
const waiting = new Map(); // orderNo → resolve
const arrived = new Map(); // orderNo → { at, paidAt } for events ahead of their waiter
tablet.on('order:new', (order) => {
  const seen = { at: performance.now(), wall: Date.now(), paidAt: order.paidAt };
  const resolve = waiting.get(order.orderNo);
  if (resolve) {
    waiting.delete(order.orderNo);
    resolve(seen);
  } else {
    arrived.set(order.orderNo, seen);
  }
});
const tabletEvent = (orderNo) =>
  arrived.has(orderNo)
    ? Promise.resolve(arrived.get(orderNo))
    : new Promise((resolve) => waiting.set(orderNo, resolve));

// The customers, on their node. With LOYALTY=1 each is a club member with points and a few
// coupons (the member's ¥30 off ¥150, chosen by the cart), topped up by the chain as they are
// used, as a real member holds a handful rather than hundreds; every order spends both: two
// pizzas to reach the coupon's threshold, POINTS points (100) off. The points are held at
// submit and captured at payment, the coupon locked at submit and used at payment.
const loyalty = process.env.LOYALTY === '1';
const spendPoints = Number(process.env.POINTS ?? 100);
const COUPONS_HELD = 5;
const tokens = [];
for (let i = 0; i < users; i++) {
  const phone = phoneNumber(run, 100 + i);
  const { token } = await register(customerBase, phone);
  if (loyalty) {
    await makeMember(customerBase, token, phone, process.env.OPS_TOKEN, {
      points: 10_000_000,
      template: 'CP_MEMBER_150_30',
      coupons: COUPONS_HELD,
    });
  }
  tokens.push({ token, phone, coupons: COUPONS_HELD, topUps: 0 });
}

/** Cart and submit; answers { orderNo, submitMs }. */
async function placeOrder(customer, key) {
  const { token } = customer;
  if (loyalty && customer.coupons < 2) {
    const count = COUPONS_HELD - customer.coupons;
    await call(customerBase, 'POST', '/chain/coupons/issue', {
      token: process.env.OPS_TOKEN,
      body: { templateCode: 'CP_MEMBER_150_30', cellPhone: customer.phone, count, requestId: `bench-top-${customer.phone}-${customer.topUps++}` },
    });
    customer.coupons += count;
  }
  const cart = await fillCart(customerBase, token, { pizzas: loyalty ? 2 : 1 });
  if (!loyalty) return submitCart(customerBase, token, key, cart);
  if (!(cart.osCoupons?.length > 0)) throw new Error(`the cart chose no coupon: ${JSON.stringify(cart.osCoupons)}`);
  customer.coupons--;
  return submitCart(customerBase, token, key, cart, { points: spendPoints });
}

const started = performance.now();
const measureFrom = started + warmup * 1000;
const end = measureFrom + seconds * 1000;
const submits = [];
const payToTablet = [];
const notifyToTablet = [];
const pending = [];
let paid = 0;
let errors = 0;
let lastError = '';

async function customer(who, i) {
  const { token } = who;
  for (let n = 0; performance.now() < end; n++) {
    try {
      const { orderNo, submitMs } = await placeOrder(who, `e2e-${run}-${i}-${n}`);
      const paymentId = await createPayment(customerBase, token, orderNo, `e2e-pay-${run}-${i}-${n}`);
      const pressed = performance.now();
      const counted = pressed >= measureFrom && pressed < end;
      if (counted) submits.push(submitMs);
      const seen = tabletEvent(orderNo);
      await sandboxPay(customerBase, paymentId);
      pending.push(
        Promise.race([seen, new Promise((r) => setTimeout(() => r(null), 30_000))]).then((event) => {
          if (!event) {
            errors++;
            lastError = `no order:new for ${orderNo} within 30 s`;
          } else if (counted) {
            paid++;
            payToTablet.push(event.at - pressed);
            if (event.paidAt) notifyToTablet.push(event.wall - event.paidAt);
          }
        }),
      );
    } catch (e) {
      errors++;
      lastError = String(e.message ?? e);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

await Promise.all(tokens.map((t, i) => customer(t, i)));
await Promise.all(pending);
tablet.close();

const pct = (values, p) => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return Number(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)].toFixed(1));
};
const result = {
  users, seconds, warmup,
  submitted: submits.length, paid, errors, lastError,
  ordersPerSecond: Number((paid / seconds).toFixed(1)),
  submitP50: pct(submits, 50), submitP99: pct(submits, 99),
  payToTabletP50: pct(payToTablet, 50), payToTabletP99: pct(payToTablet, 99),
  notifyToTabletP50: pct(notifyToTablet, 50), notifyToTabletP99: pct(notifyToTablet, 99),
};
console.log(JSON.stringify(result));
process.exit(errors > 0 && paid === 0 ? 1 : 0);
