// Browser test of paying and live tracking: a customer places an order in the app, pays at the
// sandbox cashier, lands on /order/status, and watches the store move the order through every
// stage (through the tablet API) without a reload. Then the page's Socket.IO connection is cut,
// the store advances twice, the connection comes back: both steps appear, in order.
// The same journey runs on two server nodes sharing PostgreSQL and Redis, the customer on one
// and the tablet on the other (mandatory on CI, skipped locally when they are not running).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { ARTIFACTS, call, checkoutAndPay, customerWithCart, logIn, openBrowser, shot, showsStep } from './browser.mjs';
import { productionPathReachable, startServer, startTwoNodes } from './server.mjs';

/**
 * The journey. `customer` serves the app; `store` takes the tablet's calls (the same node, or
 * another node of the deployment).
 */
async function journey({ customer, store, phone, prefix }) {
  const login = await customerWithCart(customer, phone);
  const token = login.token;
  const { page, problems, cut, restore, close } = await openBrowser({ cuttable: true });
  try {
    await logIn(page, customer, login);
    const orderNo = await checkoutAndPay(page, customer, { prefix: `${prefix}-01` });
    await showsStep(page, 0, 15_000);
    await page.getByTestId('order-state').filter({ hasText: '已支付' }).waitFor();
    await page.locator('[data-testid="order-live"][data-status="connected"]').waitFor();
    await shot(page, `${prefix}-02-paid`);

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
