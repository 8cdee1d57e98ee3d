// Browser tests of the channel (issue 34 item 11, frontend/README.md "The channel"): a link names
// the partner channel 30 and every later page of the session keeps it (no coupons anywhere, and
// the server refuses them in 30); the bank channel 37 from a link's channelCode, kept through the
// bank's cashier and back, offers and pays with the bank's methods; the app channels from the
// shells' user agent (Android, 3) and bridge (Harmony, 46) offer the app methods; a table link is
// the subchannel ORDER_QR. And /order/status for a visitor (item 12): the visitor state without a
// view token, the order with one. Screenshots in e2e/artifacts/channel-*.png.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join } from 'node:path';
import { ARTIFACTS, call, fillCart, logIn, openBrowser, register, shot } from './browser.mjs';
import { startServer } from './server.mjs';

/** Every API request the page sends: its path, method, X-Channel-Id and X-Sub-Channel-Code. */
function recordApi(page) {
  const seen = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (!url.pathname.startsWith('/api/v1/')) return;
    const h = r.headers();
    seen.push({ what: `${r.method()} ${url.pathname}`, channel: h['x-channel-id'], sub: h['x-sub-channel-code'] ?? null });
  });
  return seen;
}

/** The channels the requests carried, each once. */
const channelsOf = (requests) => [...new Set(requests.map((r) => r.channel))];

/** A pickup cart at SH001 for tomorrow that reaches ¥100, where the storewide 满100减20 applies. */
async function bigCart(base, token) {
  await call(base, 'POST', '/cart/items', {
    token,
    body: { storeCode: 'SH001', items: [{ productCode: 'PZ001', quantity: 2, selection: { sizeCode: '12' } }, { productCode: 'DR001', quantity: 2 }] },
  });
  const slots = await call(base, 'GET', '/orders/reservation/slots?storeCode=SH001&orderType=1', { token });
  const tomorrow = slots.days.find((d, i) => i > 0 && d.slots.length > 0);
  assert.ok(tomorrow, 'SH001 takes bookings for tomorrow');
  await call(base, 'POST', '/orders/reservation', { token, body: { storeCode: 'SH001', orderType: 1, orderTime: tomorrow.slots[0], isBookOrder: true } });
}

async function failing(page, name, e) {
  await page.screenshot({ path: join(ARTIFACTS, `channel-${name}-failure.png`) }).catch(() => undefined);
  throw e;
}

test('channel 30 from a link is kept for the session: no coupons in the app, and the server refuses them', async () => {
  const server = await startServer();
  const base = server.base;
  const { page, problems, close } = await openBrowser();
  try {
    const alice = await register(base, '13900034001');
    await call(base, 'POST', '/coupons/collect/CP_CASH_100_20', { token: alice.token });
    await bigCart(base, alice.token);
    // In the web channel the server applies the coupon by itself: the cart is the difference.
    const web = await call(base, 'GET', '/cart?pageName=orderSubmit', { token: alice.token });
    assert.ok(web.osCoupons.length > 0, 'the web channel applies the coupon');

    const requests = recordApi(page);
    await page.goto(base + '/?channelId=30');
    await page.getByTestId('open-nav').click();
    const who = await page.getByTestId('nav-user').innerText();
    assert.ok(who.includes('登录后可查看订单') && !who.includes('优惠券'), `a visitor is promised no coupons: ${who}`);
    await shot(page, 'channel-00-partner-visitor-nav');

    // Later pages come without the parameter (a new page load each): the session keeps 30.
    await logIn(page, base, alice);
    await page.goto(base + '/');
    await page.getByTestId('open-nav').click();
    await page.getByTestId('nav-orders').waitFor();
    assert.equal(await page.getByTestId('nav-coupons').count(), 0, 'no coupon entry in the side menu');
    await page.goto(base + '/my');
    await page.getByTestId('entry-address').waitFor();
    assert.equal(await page.getByTestId('entry-coupons').count(), 0, 'no coupon entry on /my');
    await page.goto(base + '/my/coupon/list');
    await page.waitForURL((u) => u.pathname === '/');

    // The carts the checkout is given (GET /cart, POST /cart/verify): none with a coupon.
    const carts = [];
    page.on('response', async (r) => {
      if (!new URL(r.url()).pathname.startsWith('/api/v1/cart')) return;
      const body = await r.json().catch(() => null);
      const cart = body?.data?.cart ?? body?.data;
      if (cart && 'osCoupons' in cart) carts.push(cart);
    });
    await page.goto(base + '/order/submit');
    await page.getByTestId('checkout-submit').waitFor();
    await page.waitForLoadState('networkidle');
    assert.ok(carts.length > 0, 'the checkout read the cart');
    for (const cart of carts) {
      assert.deepEqual(cart.osCoupons, [], 'no coupon applied in channel 30');
      assert.equal(cart.couponDiscountsAmount, 0);
    }
    assert.equal(await page.getByTestId('checkout-coupons').count(), 0, 'no coupon row at checkout');
    await shot(page, 'channel-01-partner-checkout');

    assert.ok(requests.length > 5, `requests: ${requests.map((r) => r.what)}`);
    assert.deepEqual(channelsOf(requests), ['30'], `X-Channel-Id: ${JSON.stringify(requests)}`);
    // What the server says of coupons in channel 30, asked with the app's own header.
    const refused = await page.evaluate(async ([token, channel]) => {
      const r = await fetch('/api/v1/coupons?status=available', { headers: { 'X-Channel-Id': channel, Authorization: `Bearer ${token}` } });
      return { status: r.status, body: await r.json() };
    }, [alice.token, requests[0].channel]);
    assert.equal(refused.status, 404);
    assert.equal(refused.body.errMsg, '当前渠道暂不支持优惠券');

    // A new link naming another channel wins over what was kept.
    const before = requests.length;
    await page.goto(base + '/my?channelCode=WAP');
    await page.getByTestId('entry-coupons').waitFor();
    await page.goto(base + '/my');
    await page.getByTestId('entry-coupons').waitFor();
    assert.deepEqual(channelsOf(requests.slice(before)), ['1']);
    assert.deepEqual(problems, [], 'no page errors, console errors or 5xx answers');
  } catch (e) {
    await failing(page, 'partner', e);
  } finally {
    await close();
    await server.stop();
  }
});

test('the bank channel 37 (channelCode CCB) pays with the bank, kept through its cashier; the apps (user agent, bridge) offer the app methods', async () => {
  const server = await startServer();
  const base = server.base;
  try {
    await bankPays(base);
    await appsOffer(base);
  } finally {
    await server.stop();
  }
});

/** The bank channel from a link's channelCode: its methods, its payment, kept through its cashier. */
async function bankPays(base) {
  const bank = await openBrowser();
  try {
    const bob = await register(base, '13900034002');
    await fillCart(base, bob.token);
    const { page, problems } = bank;
    const requests = recordApi(page);
    await page.goto(base + '/?channelCode=CCB');
    await logIn(page, base, bob);
    await page.goto(base + '/order/submit');
    await page.getByTestId('checkout-method-ccb').waitFor();
    for (const m of ['unionpay_web', 'bbc']) assert.equal(await page.getByTestId(`checkout-method-${m}`).count(), 1, m);
    for (const m of ['alipay_wap', 'wechat_h5', 'alipay_app']) assert.equal(await page.getByTestId(`checkout-method-${m}`).count(), 0, m);
    // Online payment promises what the bank's channel takes: bank cards, no wallet.
    assert.equal(await page.getByTestId('checkout-pay-online').locator('small').innerText(), '银行卡');
    await page.getByTestId('checkout-method-ccb').click();
    await shot(page, 'channel-02-bank-checkout');
    // The server takes the bank's method only from the bank's channel.
    const created = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/payments' && r.request().method() === 'POST');
    await page.getByTestId('checkout-submit').click();
    const payment = await created;
    assert.equal(payment.status(), 200, 'POST /payments with ccb');
    assert.equal(payment.request().headers()['x-channel-id'], '37');
    await page.waitForURL('**/sandbox/cashier/**');
    await page.locator('button[data-outcome="success"]').click();
    await page.waitForURL(/\/order\/status\?orderNo=/);
    await page.locator('[data-testid="order-state"]').waitFor();
    // Back from the cashier (a new page load): the session kept 37.
    const afterCashier = requests.filter((r) => r.what.startsWith('GET /api/v1/orders/'));
    assert.ok(afterCashier.length > 0, 'the status page read the order');
    assert.deepEqual(channelsOf(requests), ['37'], `X-Channel-Id: ${JSON.stringify(requests)}`);
    assert.deepEqual(problems, [], 'no page errors, console errors or 5xx answers');
  } catch (e) {
    await failing(bank.page, 'bank', e);
  } finally {
    await bank.close();
  }
}

/** The app shells, by user agent (Android, 3) and by bridge (Harmony, 46): the app methods. */
async function appsOffer(base) {
  const carol = await register(base, '13900034003');
  for (const [name, shell, channel] of [
    ['android', { userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/130 Mobile Safari/537.36 PizzaApp/3.1.0' }, '3'],
    ['harmony', { bridge: { platform: 'harmony' } }, '46'],
  ]) {
    const app = await openBrowser();
    const { page, problems } = app;
    try {
      await fillCart(base, carol.token);
      if (shell.userAgent) await page.addInitScript((ua) => Object.defineProperty(navigator, 'userAgent', { get: () => ua }), shell.userAgent);
      if (shell.bridge) await page.addInitScript((bridge) => Object.defineProperty(window, 'PizzaApp', { value: bridge }), shell.bridge);
      const requests = recordApi(page);
      await logIn(page, base, carol);
      await page.goto(base + '/order/submit');
      await page.getByTestId('checkout-method-alipay_app').waitFor();
      for (const m of ['wechat_app', 'unionpay_app']) assert.equal(await page.getByTestId(`checkout-method-${m}`).count(), 1, m);
      for (const m of ['alipay_wap', 'wechat_h5', 'ccb']) assert.equal(await page.getByTestId(`checkout-method-${m}`).count(), 0, m);
      assert.equal(await page.getByTestId('checkout-pay-online').locator('small').innerText(), '微信、支付宝、银行卡');
      await shot(page, `channel-03-app-${name}-checkout`);
      const created = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/payments' && r.request().method() === 'POST');
      await page.getByTestId('checkout-submit').click();
      const payment = await created;
      assert.equal((await payment.json()).errCode, '00', `the server takes alipay_app in channel ${channel}`);
      await page.getByTestId('pay-app').waitFor();
      assert.deepEqual(channelsOf(requests), [channel], `X-Channel-Id: ${JSON.stringify(requests)}`);
      assert.deepEqual(problems, [], 'no page errors, console errors or 5xx answers');
    } catch (e) {
      await failing(page, name, e);
    } finally {
      await app.close();
    }
  }
}

test('a table link is the subchannel ORDER_QR while its scan lasts; none before', async () => {
  const server = await startServer();
  const base = server.base;
  const { page, problems, close } = await openBrowser();
  try {
    const requests = recordApi(page);
    await page.goto(base + '/menu');
    await page.getByTestId('order-type-0').waitFor();
    await page.waitForLoadState('networkidle');
    assert.ok(requests.length > 0 && requests.every((r) => r.sub === null), `before: ${JSON.stringify(requests)}`);
    const link = await call(base, 'GET', '/dev/table-link?storeCode=SH001&deskNo=A12');
    const url = new URL(link.url);
    const before = requests.length;
    await page.goto(base + url.pathname + url.search);
    await page.getByTestId('desk-no').filter({ hasText: 'A12' }).waitFor();
    await page.waitForURL((u) => u.pathname === '/menu' && !u.search.includes('sign='));
    const scan = requests.slice(before).find((r) => r.what === 'POST /api/v1/orders/scan');
    assert.equal(scan?.sub, 'ORDER_QR', 'the scan itself');
    // A later page load without the link: the scan lasts, so does the subchannel.
    const later = requests.length;
    await page.goto(base + '/');
    await page.getByTestId('open-nav').waitFor();
    await page.waitForLoadState('networkidle');
    const after = requests.slice(later);
    assert.ok(after.length > 0 && after.every((r) => r.sub === 'ORDER_QR' && r.channel === '2'), `after: ${JSON.stringify(after)}`);
    assert.deepEqual(problems, [], 'no page errors, console errors or 5xx answers');
  } catch (e) {
    await failing(page, 'scan', e);
  } finally {
    await close();
    await server.stop();
  }
});
