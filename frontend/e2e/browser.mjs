// What the browser tests of paying, tracking and the tablet share: API calls, a new customer,
// a chromium whose Socket.IO connections the test can cut and restore, screenshots, and the
// customer's way from a prepared cart through the sandbox cashier to the status page.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { FRONTEND } from './server.mjs';

export const ARTIFACTS = join(FRONTEND, 'e2e', 'artifacts');
mkdirSync(ARTIFACTS, { recursive: true });
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

/** Calls the API of `base`; answers `data`, failing the test on any errCode but "00". */
export async function call(base, method, path, { token, body, headers = {} } = {}) {
  const h = { 'X-Channel-Id': '2', 'Accept-Language': 'zh', ...headers };
  if (token) h.Authorization = `Bearer ${token}`;
  if (body !== undefined) h['content-type'] = 'application/json';
  const res = await fetch(`${base}/api/v1${path}`, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json();
  assert.equal(json.errCode, '00', `${method} ${path}: ${json.errMsg}`);
  return json.data;
}

/** A new customer (SMS code from the sandbox outbox), answering the login reply. */
export async function register(base, phone) {
  await call(base, 'POST', '/auth/sms-code', { body: { cellPhone: phone, scene: 'register' } });
  const outbox = await call(base, 'GET', `/dev/sms-outbox?cellPhone=${phone}`);
  const code = outbox[0].text.match(/\d{6}/)[0];
  return call(base, 'POST', '/auth/register', { body: { cellPhone: phone, smsCode: code, password: 'Pizza2026ok', privacyAgreed: true } });
}

/**
 * A fresh chromium (its own temp profile), phone-sized unless told, collecting page errors,
 * console errors and 5xx answers in `problems`. With `cuttable`, its Socket.IO WebSockets go
 * through a route the test controls: `cut()` closes them and refuses new ones (long-polling
 * too) until `restore()`.
 */
export async function openBrowser({ viewport = { width: 390, height: 844 }, hasTouch = viewport.width < 500, cuttable = false, askPrivacy = false } = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'pizza-e2e-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport,
    deviceScaleFactor: viewport.width > 1000 ? 1 : 2,
    hasTouch,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
  });
  let cutOff = false;
  const open = new Set();
  if (cuttable) {
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
  }
  // The visitor agreed to the privacy policy on this device (spec account §4), unless the test
  // is about that question (askPrivacy).
  if (!askPrivacy) {
    await context.addInitScript(() => {
      if (!localStorage.getItem('pz:privacy:visitor')) localStorage.setItem('pz:privacy:visitor', JSON.stringify({ v: { at: 0, version: 9e15 }, e: null }));
    });
  }
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
      assert.ok(cuttable, 'opened with {cuttable: true}');
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

export async function shot(page, name) {
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: false });
}

/**
 * A new customer with a pizza and two drinks in a pickup cart at SH001, booked for the first
 * slot tomorrow (so the store is open whatever the hour of the run): the login reply.
 */
export async function customerWithCart(base, phone) {
  const login = await register(base, phone);
  await fillCart(base, login.token);
  return login;
}

/** The customer's cart: a 12" pizza and two colas, pickup at SH001 tomorrow. */
export async function fillCart(base, token) {
  await call(base, 'POST', '/cart/items', {
    token,
    body: { storeCode: 'SH001', items: [{ productCode: 'PZ001', selection: { sizeCode: '12' } }, { productCode: 'DR001', quantity: 2 }] },
  });
  const slots = await call(base, 'GET', '/orders/reservation/slots?storeCode=SH001&orderType=1', { token });
  const tomorrow = slots.days.find((d, i) => i > 0 && d.slots.length > 0);
  assert.ok(tomorrow, 'SH001 takes bookings for tomorrow');
  await call(base, 'POST', '/orders/reservation', {
    token,
    body: { storeCode: 'SH001', orderType: 1, orderTime: tomorrow.slots[0], isBookOrder: true },
  });
}

/** The page logged in as that customer (the app keeps its session in localStorage). */
export async function logIn(page, base, login) {
  await page.goto(base + '/');
  await page.evaluate((saved) => localStorage.setItem('pz:account:session', JSON.stringify({ v: saved, e: null })), { token: login.token, user: login.user });
}

/**
 * From /order/submit: online payment with Alipay, the sandbox cashier, Pay, and back on the
 * status page. Answers the order number. `beforePay` runs at the cashier.
 */
export async function checkoutAndPay(page, base, { prefix, beforePay } = {}) {
  await page.goto(base + '/order/submit');
  await page.getByTestId('cart-items').filter({ hasText: '超级至尊比萨' }).waitFor();
  // No SMS-notification question interrupts checkout (issue 22): it waits for the status page.
  assert.equal(await page.getByTestId('marketing-dialog').count(), 0, 'no marketing dialog on checkout');
  assert.equal(await page.getByTestId('checkout-type-1').getAttribute('aria-selected'), 'true');
  await page.getByTestId('checkout-method-alipay_wap').click();
  if (prefix) await shot(page, `${prefix}-checkout`);
  const total = await page.getByTestId('checkout-total').getAttribute('data-amount');
  await page.getByTestId('checkout-submit').click();
  await page.waitForURL('**/sandbox/cashier/**');
  assert.match(await page.locator('body').innerText(), new RegExp(total.replace('¥', '').replace('.', '\\.')));
  if (prefix) await shot(page, `${prefix}-cashier`);
  await beforePay?.();
  await page.locator('button[data-outcome="success"]').click();
  await page.waitForURL(/\/order\/status\?orderNo=/);
  // After the order, a new user is asked once about SMS notifications.
  const marketing = page.getByTestId('marketing-dialog');
  if (await marketing.waitFor({ timeout: 4000 }).then(() => true, () => false)) {
    await page.getByTestId('marketing-no-remind').check();
    await page.getByRole('button', { name: '暂不开启' }).click();
    await marketing.waitFor({ state: 'detached' });
  }
  return new URL(page.url()).searchParams.get('orderNo');
}

/** The status page shows the order at `progress` with that step current. */
export async function showsStep(page, progress, timeout = 10_000) {
  await page.locator(`[data-testid="order-state"][data-progress="${progress}"]`).waitFor({ timeout });
  if (progress > 0) await page.locator(`[data-testid="step-${progress}"][data-current="true"]`).waitFor({ timeout });
}

