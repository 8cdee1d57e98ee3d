// Browser test of the store tablet with two browsers, a customer (phone) and the store's tablet
// (10-inch landscape): the customer pays; the tablet shows the order and rings until it is
// accepted; the tablet moves it through every stage while the customer's status page follows;
// the tablet goes offline, the customer pays a second order, the tablet comes back and shows it
// exactly once. Then the tablet marks a product sold out and the customer's menu shows it at
// once. Screenshots of the tablet at each step are kept in e2e/artifacts/.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join } from 'node:path';
import { ARTIFACTS, checkoutAndPay, customerWithCart, fillCart, logIn, openBrowser, shot, showsStep } from './browser.mjs';
import { startServer } from './server.mjs';

const TABLET = { viewport: { width: 1280, height: 800 }, hasTouch: true, cuttable: true };

const alarm = (page) => page.evaluate(() => window.__tabletAlarm ?? null);

test('the tablet rings for a paid order, moves it live, and catches up after being offline', async () => {
  const server = await startServer();
  const base = server.base;
  const customer = await openBrowser();
  const tablet = await openBrowser(TABLET);
  const { page } = customer;
  const tab = tablet.page;
  try {
    // The crew logs in; the session survives a reload.
    await tab.goto(base + '/tablet/login');
    await tab.getByTestId('tablet-store-code').fill('SH001');
    await tab.getByTestId('tablet-staff-code').fill('manager');
    await tab.getByTestId('tablet-pin').fill('246810');
    await tab.getByTestId('tablet-login-submit').click();
    await tab.getByTestId('tablet-column-new').waitFor();
    await tab.reload();
    await tab.getByTestId('tablet-column-new').waitFor();
    await tab.locator('[data-testid="tablet-connection"][data-status="connected"]').waitFor();
    // Presence: this tablet counts itself (store:presence, live).
    await tab.locator('[data-testid="tablet-online-count"][data-count="1"]').waitFor({ timeout: 5000 });
    const enable = tab.getByTestId('tablet-sound-enable');
    if (await enable.isVisible()) await enable.click();
    await shot(tab, 'tablet-01-empty');

    // The customer pays.
    const login = await customerWithCart(base, '13900007001');
    await logIn(page, base, login);
    let paidAt = 0;
    const first = await checkoutAndPay(page, base, { beforePay: () => (paidAt = Date.now()) });
    const card = tab.getByTestId(`tablet-order-${first}`);
    await tab.locator(`[data-testid="tablet-order-${first}"][data-progress="0"][data-flashing="true"]`).waitFor({ timeout: 5000 });
    const shownAfter = Date.now() - paidAt;
    await tab.locator('[data-testid="tablet-alarm"][data-ringing="true"]').waitFor();
    const ringing = await alarm(tab);
    assert.equal(ringing?.ringing, true, 'the alarm rings for the new order');
    // Measured, not asserted (the goal is within a second): printed for the note.
    console.log(`# the tablet showed the paid order ${shownAfter} ms after Pay was pressed`);
    assert.equal(await tab.getByTestId('tablet-column-new').getByTestId(`tablet-order-${first}`).count(), 1);
    await shot(tab, 'tablet-02-ringing');
    // It keeps ringing until someone acts.
    const rings = ringing.rings;
    await tab.waitForFunction((n) => (window.__tabletAlarm?.rings ?? 0) > n, rings, { timeout: 6000 });
    await showsStep(page, 0);

    // Accept: the alarm stops; then every stage, the customer's page following live.
    await tab.getByTestId(`tablet-accept-${first}`).click();
    await tab.getByTestId('tablet-alarm').waitFor({ state: 'detached' });
    assert.equal((await alarm(tab))?.ringing, false);
    await showsStep(page, 1);
    await page.evaluate(() => (window.__sameDocument = true));
    const stages = [
      [10, 'making'],
      [20, 'oven'],
      [30, 'check'],
      [40, 'ready'],
    ];
    for (const [progress, column] of stages) {
      await tab.getByTestId(`tablet-advance-${first}`).click();
      await tab.getByTestId(`tablet-column-${column}`).locator(`[data-testid="tablet-order-${first}"][data-progress="${progress}"]`).waitFor();
      await showsStep(page, progress);
      await shot(tab, `tablet-03-${progress}-${column}`);
    }
    await tab.getByTestId(`tablet-advance-${first}`).click();
    await card.waitFor({ state: 'detached' });
    await showsStep(page, 50);
    assert.equal(await page.evaluate(() => window.__sameDocument === true), true, 'the status page never reloaded');
    await shot(tab, 'tablet-04-done');

    // The tablet loses its connection; a second order is paid meanwhile.
    await tablet.cut();
    await tab.locator('[data-testid="tablet-connection"]:not([data-status="connected"])').waitFor({ timeout: 15_000 });
    await shot(tab, 'tablet-05-offline');
    await fillCart(base, login.token);
    const second = await checkoutAndPay(page, base);
    await showsStep(page, 0);
    tablet.restore();
    await tab.locator('[data-testid="tablet-connection"][data-status="connected"]').waitFor({ timeout: 30_000 });
    await tab.locator(`[data-testid="tablet-order-${second}"][data-progress="0"]`).waitFor({ timeout: 15_000 });
    await tab.locator('[data-testid="tablet-alarm"][data-ringing="true"]').waitFor();
    await tab.waitForTimeout(1500);
    assert.equal(await tab.getByTestId(`tablet-order-${second}`).count(), 1, 'the second order, exactly once');
    assert.equal(await tab.getByTestId(`tablet-order-${first}`).count(), 0, 'the finished one stays gone');
    await shot(tab, 'tablet-06-caught-up');

    // Refusing asks for a reason; the paid order is refunded and leaves the queue.
    await tab.getByTestId(`tablet-refuse-${second}`).click();
    await tab.getByTestId('tablet-refuse-reason').fill('原料不足');
    await shot(tab, 'tablet-07-refuse');
    await tab.getByTestId('tablet-refuse-confirm').click();
    await tab.getByTestId(`tablet-order-${second}`).waitFor({ state: 'detached' });
    await page.locator('[data-testid="order-state"][data-progress="2"]').waitFor();

    // 86: the cola sold out from the tablet; the customer's menu shows it at once.
    await page.goto(base + '/menu');
    await page.getByTestId('product-DR001').waitFor();
    assert.equal(await page.getByTestId('product-DR001').locator('.ptile__out').count(), 0);
    await tab.getByTestId('tablet-soldout-open').click();
    await tab.getByTestId('tablet-soldout-search').fill('可乐');
    await tab.getByTestId('tablet-soldout-DR001').click();
    await tab.locator('[data-testid="tablet-soldout-DR001"][aria-pressed="true"]').waitFor();
    await shot(tab, 'tablet-08-sold-out');
    await page.getByTestId('product-DR001').locator('.ptile__out').waitFor({ timeout: 5000 });
    await page.getByTestId('product-DR001').scrollIntoViewIfNeeded();
    await shot(page, 'tablet-09-customer-menu-sold-out');

    assert.deepEqual(customer.problems, [], 'customer: no page errors, console errors or 5xx answers');
    assert.deepEqual(tablet.problems, [], 'tablet: no page errors, console errors or 5xx answers');
  } catch (e) {
    await tab.screenshot({ path: join(ARTIFACTS, 'tablet-failure.png') }).catch(() => undefined);
    await page.screenshot({ path: join(ARTIFACTS, 'tablet-customer-failure.png') }).catch(() => undefined);
    console.error(server.log().slice(-3000));
    throw e;
  } finally {
    await customer.close();
    await tablet.close();
    await server.stop();
  }
});
