// Counts the SQL statements one order costs on the production path (`make bench-statements`,
// tests/bench/statements/run.sh): the node logs every statement (RUST_LOG sqlx::query=debug,
// JSON lines); this client runs the benchmark's order cycle phase by phase (cart, submit, the
// payment attempt, the sandbox's Pay with its notify) and reads what each phase added to the
// log. Background jobs can add a statement to a phase now and then, so each phase's figure is
// the median over CYCLES orders, and the statements of the median cycle are listed, grouped,
// the repeated ones first: those are what to look at.
//
// LOYALTY=1: the customer is a club member and every order spends 100 points and a coupon (as
// the end-to-end benchmark's loyalty variant); OPS_TOKEN is the node's operations token.
//
//   BASE=http://127.0.0.1:3601 NODE_LOG=/tmp/node.log CYCLES=9 node tests/bench/statements/count.mjs
import { openSync, readSync, fstatSync } from 'node:fs';
import { call, createPayment, fillCart, makeMember, phoneNumber, register, submitCart } from '../lib/api.mjs';

const base = process.env.BASE;
const logPath = process.env.NODE_LOG;
const cycles = Number(process.env.CYCLES ?? 9);
const settleMs = Number(process.env.SETTLE_MS ?? 400);
if (!base || !logPath || !(cycles > 0)) {
  console.error('BASE and NODE_LOG are required; CYCLES > 0');
  process.exit(2);
}

const fd = openSync(logPath, 'r');
let offset = fstatSync(fd).size;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The statements the node logged since the last call. */
async function logged() {
  await sleep(settleMs);
  const size = fstatSync(fd).size;
  const buf = Buffer.alloc(size - offset);
  readSync(fd, buf, 0, buf.length, offset);
  offset = size;
  const out = [];
  for (const line of buf.toString('utf8').split('\n')) {
    if (!line.includes('"db.statement"') && !line.includes('"summary"')) continue;
    let ev;
    try {
      ev = JSON.parse(line);
    } catch {
      continue;
    }
    const sql = String(ev['db.statement'] ?? ev.summary ?? '').replace(/\s+/g, ' ').trim();
    if (sql) out.push(sql);
  }
  return out;
}

/** The sandbox's Pay: it settles, then POSTs its signed notify to the node. */
async function sandboxPay(paymentId) {
  const res = await fetch(`${base}/sandbox/api/pay/${paymentId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ outcome: 'success' }),
  });
  if (!res.ok) throw new Error(`sandbox pay ${paymentId}: ${res.status}`);
}

/** Waits until the order reads as paid (its reads are not counted: the next phase starts by
 *  dropping what was logged meanwhile). */
async function paid(token, orderNo) {
  for (let i = 0; i < 100; i++) {
    const order = await call(base, 'GET', `/orders/${orderNo}`, { token });
    if (order.payStatus === 1 || order.paidAt || order.isPaid) return;
    await sleep(20);
  }
  throw new Error(`${orderNo} was not paid`);
}

const phases = ['cart', 'submit', 'payment attempt', 'pay + notify'];
const run = Math.floor(Date.now() / 1000) % 100_000;
const loyalty = process.env.LOYALTY === '1';
const phone = phoneNumber(run, 1);
const { token } = await register(base, phone);
if (loyalty) {
  await makeMember(base, token, phone, process.env.OPS_TOKEN, { points: 1_000_000, template: 'CP_MEMBER_150_30', coupons: cycles + 1 });
}
const perCycle = [];
for (let i = 0; i <= cycles; i++) {
  await logged();
  const key = `stmt-${run}-${i}`;
  const counts = {};
  const cart = await fillCart(base, token, { pizzas: loyalty ? 2 : 1 });
  counts.cart = await logged();
  if (loyalty && !(cart.osCoupons?.length > 0)) throw new Error('the cart chose no coupon');
  const { orderNo } = await submitCart(base, token, key, cart, { points: loyalty ? 100 : 0 });
  counts.submit = await logged();
  const paymentId = await createPayment(base, token, orderNo, `${key}-pay`);
  counts['payment attempt'] = await logged();
  await sandboxPay(paymentId);
  counts['pay + notify'] = await logged();
  await paid(token, orderNo);
  if (i > 0) perCycle.push(counts); // the first cycle warms caches and prepares statements
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`statements per phase, median of ${cycles} orders (one customer${loyalty ? ', a member spending points and a coupon' : ''}, PostgreSQL, one node):`);
let total = 0;
for (const phase of phases) {
  const ns = perCycle.map((c) => c[phase].length);
  const m = median(ns);
  total += m;
  console.log(`  ${phase.padEnd(16)} ${String(m).padStart(4)}   (min ${Math.min(...ns)}, max ${Math.max(...ns)})`);
}
console.log(`  ${'one order'.padEnd(16)} ${String(total).padStart(4)}`);
for (const phase of phases) {
  const ns = perCycle.map((c) => c[phase].length);
  const m = median(ns);
  const cycle = perCycle.find((c) => c[phase].length === m);
  const groups = new Map();
  for (const sql of cycle[phase]) groups.set(sql, (groups.get(sql) ?? 0) + 1);
  console.log(`\n${phase}: ${m} statements`);
  for (const [sql, n] of [...groups].sort((a, b) => b[1] - a[1])) {
    console.log(`  ${String(n).padStart(2)}× ${sql.slice(0, 150)}`);
  }
}
console.log(JSON.stringify(Object.fromEntries(phases.map((p) => [p, median(perCycle.map((c) => c[p].length))]))));
