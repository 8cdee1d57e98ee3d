// Browser test of the member club (issue 23): a new customer on a phone is invited on /my, reads
// and accepts the member agreement, joins and claims the welcome gift's points; orders and pays;
// the store's tablet (10-inch landscape) takes the order to done; the points show pending, then
// available once the refund window (4 s here) closes; the next order spends them at checkout,
// is cancelled at the cashier and then by the customer, and the points come back. Screenshots of
// each member page, 390×844 zh and 1280×800 en, are kept in e2e/artifacts/member-*.png.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join } from 'node:path';
import { ARTIFACTS, call, checkoutAndPay, fillCart, logIn, openBrowser, register, shot } from './browser.mjs';
import { startServer } from './server.mjs';

const TABLET = { viewport: { width: 1280, height: 800 }, hasTouch: true };
const PENDING_MS = 4000;

/** The member detail as the server has it. */
const member = (base, token) => call(base, 'GET', '/members/me', { token });

/** Closes the SMS-notification question if it is asked (once, after the first order or on /my). */
async function dismissMarketing(page) {
  const dialog = page.getByTestId('marketing-dialog');
  if (await dialog.waitFor({ timeout: 3000 }).then(() => true, () => false)) {
    await page.getByTestId('marketing-no-remind').check();
    await page.getByRole('button', { name: '暂不开启' }).click();
    await dialog.waitFor({ state: 'detached' });
  }
}

/** The tablet accepts the order and moves it through every stage to done. */
async function completeFromTablet(tab, orderNo) {
  const card = tab.getByTestId(`tablet-order-${orderNo}`);
  await card.waitFor({ timeout: 10_000 });
  await tab.getByTestId(`tablet-accept-${orderNo}`).click();
  await tab.getByTestId(`tablet-advance-${orderNo}`).waitFor({ timeout: 10_000 });
  for (let i = 0; i < 6; i += 1) {
    const advance = tab.getByTestId(`tablet-advance-${orderNo}`);
    if (!(await advance.waitFor({ timeout: 3000 }).then(() => true, () => false))) break;
    const before = await card.getAttribute('data-progress');
    await advance.click();
    await tab.waitForFunction(
      ([no, p]) => document.querySelector(`[data-testid="tablet-order-${no}"]`)?.getAttribute('data-progress') !== p,
      [orderNo, before],
    );
  }
  await card.waitFor({ state: 'detached' });
}

test('join, earn on a completed order (pending, then available), spend on the next, cancel it and get the points back', async () => {
  const server = await startServer({ PIZZA__LOYALTY__POINTS_PENDING_MS: String(PENDING_MS), PIZZA__LOYALTY__SWEEP_MS: '500' });
  const base = server.base;
  const customer = await openBrowser();
  const tablet = await openBrowser(TABLET);
  const { page, problems } = customer;
  const tab = tablet.page;
  try {
    await tab.goto(base + '/tablet/login');
    await tab.getByTestId('tablet-store-code').fill('SH001');
    await tab.getByTestId('tablet-staff-code').fill('manager');
    await tab.getByTestId('tablet-pin').fill('246810');
    await tab.getByTestId('tablet-login-submit').click();
    await tab.locator('[data-testid="tablet-connection"][data-status="connected"]').waitFor();

    // A visitor reads the member centre's visitor state (only /order/submit requires login),
    // whose button goes to login.
    await page.goto(base + '/my/member/index');
    await page.getByTestId('visitor-state').waitFor();
    assert.match(await page.getByTestId('visitor-state').innerText(), /登录后加入会员/);
    await page.getByTestId('visitor-login').click();
    await page.waitForURL('**/login');

    // A new customer: not a member; /my invites them where the points would be.
    const login = await register(base, '13900009001');
    const { token } = login;
    await logIn(page, base, login);
    await page.goto(base + '/my');
    await dismissMarketing(page);
    await page.getByTestId('member-invite').waitFor();
    assert.equal(await page.getByTestId('my-member').innerText(), '非会员');
    await shot(page, 'member-01-my-invite');

    // Join: the agreement in full, its tick required, its version sent.
    await page.getByTestId('member-invite-join').click();
    await page.waitForURL('**/addMember');
    const agreement = page.getByTestId('member-agreement');
    await agreement.waitFor();
    const version = await agreement.getAttribute('data-version');
    assert.equal(version, (await call(base, 'GET', '/members/agreement')).version);
    assert.ok((await page.getByTestId('member-agreement-text').innerText()).length > 20, 'the agreement is shown');
    await page.getByTestId('member-join').click();
    assert.equal(await page.getByTestId('member-accept-error').innerText(), '请阅读并同意会员协议');
    assert.equal((await member(base, token)).isLoyalty, false, 'nothing joined without the tick');
    await shot(page, 'member-02-join');
    await page.getByTestId('member-accept').check();
    await page.getByTestId('member-join').click();

    // The welcome gift waits: choose its points and claim them.
    await page.waitForURL('**/my/member/memberSelectGift');
    const joined = await member(base, token);
    assert.equal(joined.isLoyalty, true);
    assert.equal(joined.loyaltyLevel, 1);
    const pointsOption = page.locator('[data-testid^="gift-option-"][data-type="points"]').first();
    await pointsOption.waitFor();
    await pointsOption.click();
    await shot(page, 'member-03-welcome-gift');
    await page.locator('[data-testid^="gift-claim-"]').first().click();
    await page.locator('[data-testid^="gift-"][data-status="claimed"]').first().waitFor();
    const giftPoints = (await member(base, token)).points.available;
    assert.ok(giftPoints > 0, 'the welcome gift credited points');

    // The member centre: level, points, the way to the next level, eight entries.
    await page.goto(base + '/my/member/index');
    await page.getByTestId('member-card').waitFor();
    assert.equal(await page.getByTestId('member-points-available').innerText(), String(giftPoints));
    assert.match(await page.getByTestId('member-level').innerText(), new RegExp(joined.levelName));
    assert.equal(await page.getByTestId('member-icons').getByRole('button').count(), 8);
    await shot(page, 'member-04-centre');

    // Order and pay (no points used: the switch is off by default).
    await fillCart(base, token);
    const first = await checkoutAndPay(page, base);
    await completeFromTablet(tab, first);

    // Completed: the points are pending, named by the order.
    const afterDone = await member(base, token);
    assert.ok(afterDone.points.pending > 0, `pending after completion: ${JSON.stringify(afterDone.points)}`);
    const earned = afterDone.points.pending;
    await page.goto(base + '/my/integral/list?kind=pending');
    const pendingRow = page.locator('[data-testid^="points-entry-"][data-kind="pending"]').filter({ hasText: first });
    await pendingRow.waitFor();
    assert.match(await pendingRow.innerText(), new RegExp(`订单 ${first} 获得，待到账[\\s\\S]*\\+${earned}`));
    assert.equal(await page.getByTestId('points-pending').innerText(), String(earned));
    await shot(page, 'member-05-points-pending');

    // The refund window closes: available.
    const deadline = Date.now() + PENDING_MS + 10_000;
    let now = afterDone;
    while (now.points.pending > 0 && Date.now() < deadline) {
      await page.waitForTimeout(500);
      now = await member(base, token);
    }
    assert.equal(now.points.pending, 0);
    const available = giftPoints + earned;
    assert.equal(now.points.available, available);
    await page.goto(base + '/my/integral/list');
    await page.getByTestId('points-available').filter({ hasText: String(available) }).waitFor();
    assert.equal(await page.getByTestId('points-pending').innerText(), '0');
    await page.getByTestId('points-tab-earned').click();
    await page.locator('[data-testid^="points-entry-"]').filter({ hasText: `订单 ${first} 获得，已到账` }).waitFor();
    await shot(page, 'member-06-points-available');

    // The next order spends them: the switch shows what they save and the amount drops.
    await fillCart(base, token);
    await page.goto(base + '/order/submit');
    const toggle = page.getByTestId('points-toggle');
    await toggle.waitFor();
    const usable = Number(await toggle.getAttribute('data-usable'));
    assert.ok(usable >= 100 && usable <= available, `usable ${usable} of ${available}`);
    const before = await page.getByTestId('checkout-total').getAttribute('data-amount');
    await page.getByTestId('points-toggle-input').check();
    await page.getByTestId('breakdown-points').waitFor();
    const after = await page.getByTestId('checkout-total').getAttribute('data-amount');
    const fen = (s) => Math.round(Number(s.replace('¥', '')) * 100);
    const saved = fen(await page.getByTestId('points-toggle-save').innerText().then((s) => s.replace('-', '')));
    assert.equal(fen(before) - fen(after), saved, 'the total drops by what the points save');
    await page.getByTestId('checkout-points').scrollIntoViewIfNeeded();
    await shot(page, 'member-07-checkout-points');
    await page.getByTestId('checkout-method-alipay_wap').click();
    await page.getByTestId('checkout-submit').click();
    await page.waitForURL('**/sandbox/cashier/**');
    assert.match(await page.locator('body').innerText(), new RegExp(after.replace('¥', '').replace('.', '\\.')), 'the cashier asks the amount after points');
    const held = await member(base, token);
    assert.equal(held.points.available, available - usable, 'the points are held by the order');

    // Cancelled at the cashier, then by the customer: the points come back.
    await page.locator('button[data-outcome="cancel"]').click();
    await page.waitForURL(/\/order\/status\?orderNo=/);
    const second = new URL(page.url()).searchParams.get('orderNo');
    const detail = await call(base, 'GET', `/orders/${second}`, { token });
    assert.equal(detail.pointsDeductions, usable);
    await page.getByTestId('order-cancel').click();
    await page.getByRole('dialog').getByRole('button', { name: '取消订单' }).click();
    await page.locator('[data-testid="order-state"]').filter({ hasText: '取消' }).waitFor({ timeout: 10_000 });
    // The order page keeps the points line: what the order had taken, and what they paid.
    await page.goto(base + `/order/info?orderNo=${second}`);
    const pointsRow = page.getByTestId('breakdown-points');
    await pointsRow.waitFor();
    assert.equal(await pointsRow.getAttribute('data-points'), String(usable));
    await pointsRow.scrollIntoViewIfNeeded();
    await shot(page, 'member-08-order-points');
    const back = await member(base, token);
    assert.equal(back.points.available, available, 'every point is back');
    await page.goto(base + '/my/integral/list');
    await page.locator('[data-testid^="points-entry-"][data-kind="released"]').filter({ hasText: `订单 ${second} 未完成，抵扣积分退回` }).waitFor();
    await page.getByTestId('points-available').filter({ hasText: String(available) }).waitFor();
    await shot(page, 'member-08b-points-back');

    // The same pages in English on a desktop.
    const desk = await openBrowser({ viewport: { width: 1280, height: 800 } });
    try {
      await logIn(desk.page, base, login);
      await desk.page.evaluate(() => localStorage.setItem('pz:lang', JSON.stringify({ v: 'en', e: null })));
      for (const [path, ready, name] of [
        ['/my/member/index', 'member-card', 'member-09-centre-en'],
        ['/my/integral/list', 'points-list', 'member-10-points-en'],
        ['/memberPointdeduction', 'guide-examples', 'member-11-guide-en'],
        ['/my/member/privilege', 'level-tab-1', 'member-12-privilege-en'],
      ]) {
        await desk.page.goto(base + path);
        await desk.page.getByTestId(ready).waitFor();
        await dismissMarketing(desk.page).catch(() => undefined);
        const text = await desk.page.locator('.app-col').innerText();
        assert.doesNotMatch(text, /[\u4e00-\u9fff]/, `no Chinese on the English ${path}`);
        await shot(desk.page, name);
      }
      assert.deepEqual(desk.problems, []);
    } finally {
      await desk.close();
    }

    assert.deepEqual(problems, [], 'no page errors, console errors or 5xx answers');
  } catch (e) {
    await page.screenshot({ path: join(ARTIFACTS, 'member-failure.png') }).catch(() => undefined);
    console.log(server.log().slice(-3000));
    throw e;
  } finally {
    await customer.close();
    await tablet.close();
    await server.stop();
  }
});
