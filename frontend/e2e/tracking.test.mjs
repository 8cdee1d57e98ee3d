// Browser test of paying and live tracking: a customer places an order in the app, pays at the
// sandbox cashier, lands on /order/status, and watches the store move the order through every
// stage (through the tablet API) without a reload. Then the page's Socket.IO connection is cut,
// the store advances twice, the connection comes back: both steps appear, in order.
// The same journey runs on two server nodes sharing PostgreSQL and Redis, the customer on one
// and the tablet on the other (mandatory on CI, skipped locally when they are not running).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { chromium } from 'playwright-core';
import { FRONTEND, productionPathReachable, startServer, startTwoNodes } from './server.mjs';

const ARTIFACTS = join(FRONTEND, 'e2e', 'artifacts');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

/** Calls the API of `base`; answers `data`, failing the test on any errCode but "00". */
async function call(base, method, path, { token, body, headers = {} } = {}) {
  const h = { 'X-Channel-Id': '2', 'Accept-Language': 'zh', ...headers };
  if (token) h.Authorization = `Bearer ${token}`;
  if (body !== undefined) h['content-type'] = 'application/json';
  const res = await fetch(`${base}/api/v1${path}`, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json();
  assert.equal(json.errCode, '00', `${method} ${path}: ${json.errMsg}`);
  return json.data;
}

/** A new customer (SMS code from the sandbox outbox), answering the login reply. */
async function register(base, phone) {
  await call(base, 'POST', '/auth/sms-code', { body: { cellPhone: phone, scene: 'register' } });
  const outbox = await call(base, 'GET', `/dev/sms-outbox?cellPhone=${phone}`);
  const code = outbox[0].text.match(/\d{6}/)[0];
  return call(base, 'POST', '/auth/register', { body: { cellPhone: phone, smsCode: code, password: 'Pizza2026ok', privacyAgreed: true } });
}

/**
 * A browser whose Socket.IO WebSockets go through a route this test controls: `cut()` closes
 * them and refuses new ones (long-polling too) until `restore()`.
 */
async function openBrowser() {
  const profile = mkdtempSync(join(tmpdir(), 'pizza-e2e-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    hasTouch: true,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
  });
  let cutOff = false;
  const open = new Set();
  await context.routeWebSocket(/\/socket\.io\//, (ws) => {
    if (cutOff) {
      ws.close({ code: 4000, reason: 'cut by the test' });
      return;
    }
    const server = ws.connectToServer();
    const link = { ws, server };
    open.add(link);
    ws.onClose(() => open.delete(link));
  });
  await context.route(/\/socket\.io\//, (route) => (cutOff ? route.abort('connectionrefused') : route.continue()));
  const page = context.pages()[0] ?? (await context.newPage());
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    // Refused resources (the cut socket) log a resource error in chromium; that is the point.
    if (m.type() === 'error' && !/Failed to load resource|WebSocket/.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 500) problems.push(`HTTP ${r.status()} ${r.url()}`);
  });
  return {
    page,
    problems,
    cut: async () => {
      cutOff = true;
      for (const { ws, server } of [...open]) {
        await server.close().catch(() => undefined);
        await ws.close({ code: 4000, reason: 'cut by the test' }).catch(() => undefined);
      }
      open.clear();
    },
    restore: () => {
      cutOff = false;
    },
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

async function shot(page, name) {
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: false });
}

/** The status page shows the order at `progress` with that step current. */
async function showsStep(page, progress, timeout = 10_000) {
  await page.locator(`[data-testid="order-state"][data-progress="${progress}"]`).waitFor({ timeout });
  if (progress > 0) await page.locator(`[data-testid="step-${progress}"][data-current="true"]`).waitFor({ timeout });
}

/**
 * The journey. `customer` serves the app; `store` takes the tablet's calls (the same node, or
 * another node of the deployment).
 */
async function journey({ customer, store, phone, prefix }) {
  mkdirSync(ARTIFACTS, { recursive: true });
  const login = await register(customer, phone);
  const token = login.token;
  // The cart: a pizza and a drink, pickup at SH001, booked for the first slot tomorrow (so the
  // store is open whatever the hour of the run).
  await call(customer, 'POST', '/cart/items', {
    token,
    body: { storeCode: 'SH001', items: [{ productCode: 'PZ001', selection: { sizeCode: '12' } }, { productCode: 'DR001', quantity: 2 }] },
  });
  const slots = await call(customer, 'GET', '/orders/reservation/slots?storeCode=SH001&orderType=1', { token });
  const tomorrow = slots.days.find((d, i) => i > 0 && d.slots.length > 0);
  assert.ok(tomorrow, 'SH001 takes bookings for tomorrow');
  await call(customer, 'POST', '/orders/reservation', {
    token,
    body: { storeCode: 'SH001', orderType: 1, orderTime: tomorrow.slots[0], isBookOrder: true },
  });

  const { page, problems, cut, restore, close } = await openBrowser();
  try {
    // Logged in as that customer (the app keeps its session in localStorage).
    await page.goto(customer + '/');
    await page.evaluate((saved) => localStorage.setItem('pz:account:session', JSON.stringify({ v: saved, e: null })), { token, user: login.user });

    // Checkout: pickup, online payment with Alipay (the web channel's first method).
    await page.goto(customer + '/order/submit');
    await page.getByTestId('cart-items').filter({ hasText: '超级至尊比萨' }).waitFor();
    // A new user is asked once about SMS notifications.
    const marketing = page.getByTestId('marketing-dialog');
    if (await marketing.waitFor({ timeout: 4000 }).then(() => true, () => false)) {
      await page.getByTestId('marketing-no-remind').check();
      await page.getByRole('button', { name: '暂不开启' }).click();
      await marketing.waitFor({ state: 'detached' });
    }
    assert.equal(await page.getByTestId('checkout-type-1').getAttribute('aria-selected'), 'true');
    await page.getByTestId('checkout-method-alipay_wap').click();
    await shot(page, `${prefix}-01-checkout`);
    const total = await page.getByTestId('checkout-total').getAttribute('data-amount');
    await page.getByTestId('checkout-submit').click();

    // The sandbox cashier, then back on the status page.
    await page.waitForURL('**/sandbox/cashier/**');
    assert.match(await page.locator('body').innerText(), new RegExp(total.replace('¥', '').replace('.', '\\.')));
    await shot(page, `${prefix}-02-cashier`);
    await page.locator('button[data-outcome="success"]').click();
    await page.waitForURL(/\/order\/status\?orderNo=/);
    const orderNo = new URL(page.url()).searchParams.get('orderNo');
    await showsStep(page, 0, 15_000);
    await page.getByTestId('order-state').filter({ hasText: '已支付' }).waitFor();
    await page.locator('[data-testid="order-live"][data-status="connected"]').waitFor();
    await shot(page, `${prefix}-03-paid`);

    // From here on the page must never load again: every move arrives live.
    await page.evaluate(() => {
      window.__sameDocument = true;
      window.__progressSeen = [];
      const head = () => document.querySelector('[data-testid="order-state"]');
      const note = () => {
        const p = Number(head()?.getAttribute('data-progress'));
        const seen = window.__progressSeen;
        if (Number.isFinite(p) && seen[seen.length - 1] !== p) seen.push(p);
      };
      note();
      new MutationObserver(note).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-progress'], childList: true });
    });

    // The store, on its tablet.
    const staff = (await call(store, 'POST', '/tablet/login', { body: { storeCode: 'SH001', staffCode: 'manager', pin: '246810' } })).token;
    const queue = await call(store, 'GET', '/tablet/orders?scope=active', { token: staff });
    assert.ok(queue.some((o) => o.orderNo === orderNo && o.progress === 0), 'the paid order is in the store queue at once');
    const tablet = (action, body = {}) => call(store, 'POST', `/tablet/orders/${orderNo}/${action}`, { token: staff, body });

    await tablet('accept');
    await showsStep(page, 1);
    await tablet('advance', { from: 1 });
    await showsStep(page, 10);
    await shot(page, `${prefix}-04-making`);
    await tablet('advance', { from: 10 });
    await showsStep(page, 20);

    // The connection drops; the store moves on twice meanwhile.
    await cut();
    await page.locator('[data-testid="order-live"]:not([data-status="connected"])').waitFor();
    await tablet('advance', { from: 20 });
    await tablet('advance', { from: 30 });
    await page.waitForTimeout(500);
    assert.equal(await page.getByTestId('order-state').getAttribute('data-progress'), '20', 'nothing arrives while cut off');
    await shot(page, `${prefix}-05-offline`);
    restore();
    await page.locator('[data-testid="order-live"][data-status="connected"]').waitFor({ timeout: 20_000 });
    await showsStep(page, 40, 15_000);
    for (const p of [1, 10, 20, 30]) {
      await page.locator(`[data-testid="step-${p}"][data-done="true"][data-current="false"]`).waitFor();
    }
    const times = await Promise.all([20, 30, 40].map(async (p) => Number(await page.getByTestId(`step-${p}`).getAttribute('data-at'))));
    assert.ok(times.every((t) => t > 0), `each step has its time: ${times}`);
    assert.ok(times[0] <= times[1] && times[1] <= times[2], `the steps in order: ${times}`);
    await shot(page, `${prefix}-06-caught-up`);

    await tablet('advance', { from: 40 });
    await showsStep(page, 50);
    await page.getByTestId('order-state').filter({ hasText: '已完成' }).waitFor();
    await shot(page, `${prefix}-07-completed`);

    const seen = await page.evaluate(() => window.__progressSeen);
    const order = [0, 1, 10, 20, 30, 40, 50];
    const ranks = seen.map((p) => order.indexOf(p));
    assert.ok(ranks.every((r, i) => r >= 0 && (i === 0 || r > ranks[i - 1])), `the page only ever moved forward: ${seen}`);
    assert.deepEqual(seen.filter((p) => [0, 1, 10, 20, 40, 50].includes(p)), [0, 1, 10, 20, 40, 50]);
    assert.equal(await page.evaluate(() => window.__sameDocument === true), true, 'no reload');

    const detail = await call(customer, 'GET', `/orders/${orderNo}`, { token });
    assert.equal(detail.state, 8);
    assert.equal(detail.progress, 50);
    assert.equal(await page.getByTestId('order-state').getAttribute('data-seq'), String(detail.seq), 'the page agrees with the server');
    assert.deepEqual(problems, [], 'no page errors, console errors or 5xx answers');
  } catch (e) {
    await page.screenshot({ path: join(ARTIFACTS, `${prefix}-failure.png`) }).catch(() => undefined);
    throw e;
  } finally {
    await close();
  }
}

test('pay at the cashier, then follow the store live, through a dropped connection', async () => {
  const server = await startServer();
  try {
    await journey({ customer: server.base, store: server.base, phone: '13900005678', prefix: 'tracking' });
  } catch (e) {
    console.error(server.log().slice(-4000));
    throw e;
  } finally {
    await server.stop();
  }
});

test('the same with two nodes sharing PostgreSQL and Redis: the customer on one, the tablet on the other', async (t) => {
  if (!(await productionPathReachable())) {
    if (process.env.CI === 'true') assert.fail('PostgreSQL and Redis are mandatory on CI');
    t.skip('PostgreSQL or Redis is not running here; CI runs this');
    return;
  }
  const nodes = await startTwoNodes();
  try {
    await journey({ customer: nodes.a.base, store: nodes.b.base, phone: '13900005679', prefix: 'tracking-two-nodes' });
  } catch (e) {
    console.error(nodes.log().slice(-6000));
    throw e;
  } finally {
    await nodes.stop();
  }
});
