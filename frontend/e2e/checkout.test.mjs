// Browser test of the cart and checkout: the real server (fresh data dir) and the built app in chromium.
// A visitor fills a cart at SH001 (a 12" pizza through the builder, a drink from its menu tile), goes
// to checkout and is asked to log in; signs up on the spot with an SMS code read from the sandbox
// outbox; the visitor cart is kept (merged into the new user's). Adds a delivery address inside
// SH001's area by smart paste, chooses delivery to it, books a slot tomorrow (SH001 takes bookings
// for 3 days), places the order, cancels at the sandbox cashier and is back on the order status page, unpaid. Also: a table QR link (scan to
// order) and a visitor's cart change reaching their other tab.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ARTIFACTS, openBrowser, shot } from './browser.mjs';
import { startServer } from './server.mjs';

const PHONE = '13900001234';
// Inside SH001's delivery area (the store itself is at 西藏中路236号).
const PASTE = '李四 13812345678 上海市黄浦区西藏中路236号 8楼801';

let server;

before(async () => {
  server = await startServer();
});

after(async () => {
  await server?.stop();
});

async function api(path, token) {
  const headers = { 'X-Channel-Id': '2', 'Accept-Language': 'zh' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(`${server.base}/api/v1${path}`, { headers });
  const body = await res.json();
  assert.equal(body.errCode, '00', `${path}: ${body.errMsg}`);
  return body.data;
}

/** The newest code the sandbox SMS provider "sent" to the phone. */
async function readSmsCode(phone) {
  for (let i = 0; i < 20; i += 1) {
    const body = await (await fetch(`${server.base}/api/v1/dev/sms-outbox?cellPhone=${phone}`, { headers: { 'X-Channel-Id': '2' } })).json();
    assert.equal(body.errCode, '00', body.errMsg);
    const match = body.data[0]?.text?.match(/\d{6}/);
    if (match) return match[0];
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no SMS code for ${phone}`);
}

/** Tomorrow's date in the stores' zone ("2026-11-24"). */
function tomorrowInShanghai() {
  const d = new Date(Date.now() + 8 * 3600_000 + 24 * 3600_000);
  return d.toISOString().slice(0, 10);
}

const storageValue = (page, key) =>
  page.evaluate((k) => {
    const raw = localStorage.getItem(`pz:${k}`);
    return raw ? JSON.parse(raw).v : null;
  }, key);

test('a visitor fills a cart, logs in keeping it, books a delivery for tomorrow and places the order', async () => {
  const { page, problems, close } = await openBrowser();
  try {
    // The menu of the default store (SH001) with its cart bar, empty.
    await page.goto(server.base + '/menu');
    await page.getByTestId('cart-bar').filter({ hasText: '购物车是空的' }).waitFor();
    assert.match(await page.getByTestId('menu-store').innerText(), /人民广场旗舰店/);
    const visitorToken = await storageValue(page, 'cart:token');
    assert.ok(visitorToken, 'the first cart read issues a visitor cart token');
    await shot(page, 'checkout-01-menu-empty');

    // A 12" pizza through the builder.
    await page.getByTestId('product-PZ001').click();
    await page.waitForURL('**/product/PZ001');
    await page.getByTestId('size-12').click();
    await page.getByTestId('builder-price').and(page.locator('[data-price="¥89.00"]')).waitFor();
    await page.getByTestId('add-to-cart').click();
    await page.waitForURL('**/menu');
    await page.getByTestId('cart-count').filter({ hasText: /^1$/ }).waitFor();

    // A drink straight from its tile.
    await page.getByTestId('product-DR001-add').click();
    await page.getByTestId('cart-count').filter({ hasText: /^2$/ }).waitFor();
    await shot(page, 'checkout-02-menu-cart');

    // The cart sheet lists both, with the pizza's options.
    await page.getByTestId('cart-bar-open').click();
    const sheet = page.getByTestId('cart-sheet');
    await sheet.waitFor();
    const sheetText = await sheet.innerText();
    assert.match(sheetText, /超级至尊比萨/);
    assert.match(sheetText, /12英寸/);
    assert.match(sheetText, /可口可乐/);
    await shot(page, 'checkout-03-cart-sheet');

    // Checkout needs a login: the visitor goes to /login (the page is remembered).
    await page.getByTestId('cart-checkout').click();
    await page.waitForURL('**/login');

    // A new phone logs in by SMS code (registered on the spot, policy agreed).
    await page.getByTestId('login-tab-sms').click();
    await page.getByTestId('login-phone').fill(PHONE);
    await page.getByTestId('send-code').click();
    await page.getByTestId('send-code').filter({ hasText: /\d+秒后重发/ }).waitFor();
    await page.getByTestId('login-code').fill(await readSmsCode(PHONE));
    await page.getByTestId('agreement').check();
    await shot(page, 'checkout-04-login');
    // The code took longer than the spec's 10 s memory: the login page held the target anyway.
    await page.waitForTimeout(11_000);
    await page.getByTestId('login-submit').click();
    await page.waitForFunction(() => (localStorage.getItem('pz:account:session') ?? '').includes('"token"'));
    await page.waitForURL('**/order/submit', { timeout: 5000 });
    // A new user, but no SMS-notification question interrupts checkout (issue 22).
    const marketing = page.getByTestId('marketing-dialog');
    assert.equal(await marketing.waitFor({ timeout: 3000 }).then(() => true, () => false), false, 'no marketing dialog on checkout');
    const token = (await storageValue(page, 'account:session')).token;

    // The visitor cart was kept (merged into the user's) and the visitor token forgotten.
    const lines = page.getByTestId('cart-items');
    await lines.filter({ hasText: '超级至尊比萨' }).filter({ hasText: '可口可乐' }).waitFor();
    assert.equal(await storageValue(page, 'cart:token'), null, 'the visitor token is forgotten after the login');
    const userCart = await api('/cart?pageName=orderSubmit', token);
    assert.deepEqual(userCart.items.map((i) => i.productCode).sort(), ['DR001', 'PZ001']);
    await shot(page, 'checkout-05-submit-no-address');

    // Delivery to a new address: /selectAddress → add by smart paste, picking the suggestion.
    await page.getByTestId('checkout-type-0').click();
    await page.getByTestId('checkout-address').click();
    await page.waitForURL('**/selectAddress');
    await page.getByTestId('address-add').click();
    await page.waitForURL(/\/address\/add\?pick=1$/);
    await page.getByTestId('smart-text').fill(PASTE);
    await page.getByTestId('smart-read').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="addr-name"]')?.value === '李四');
    await page.getByTestId('addr-tip-0').click();
    await page.getByTestId('addr-tips').waitFor({ state: 'detached' });
    await page.getByTestId('addr-save').click();
    // Added from checkout: chosen at once, straight back to checkout (issue 22).
    await page.waitForURL('**/order/submit');
    const [saved] = await api('/addresses', token);
    assert.ok(saved, 'the address is saved');
    assert.equal(saved.hasScope, true, `a store delivers there (${saved.lat}, ${saved.lng})`);
    await page.getByTestId('checkout-address').filter({ hasText: '西藏中路236号' }).filter({ hasText: '李四' }).waitFor();
    assert.equal(await page.getByTestId('checkout-type-0').getAttribute('aria-selected'), 'true');

    // Book a slot tomorrow.
    await page.getByTestId('checkout-time').click();
    const picker = page.getByTestId('time-picker');
    await picker.waitFor();
    const tomorrow = picker.locator(`[data-date="${tomorrowInShanghai()}"]`);
    await tomorrow.click();
    const dayIndex = (await tomorrow.getAttribute('data-testid')).replace('time-day-', '');
    await shot(page, 'checkout-06-time-picker');
    const slot = picker.getByTestId(`time-slot-${dayIndex}-0`);
    const slotAt = Number(await slot.getAttribute('data-slot'));
    await slot.click();
    await picker.waitFor({ state: 'detached' });
    await page.locator('[data-testid="checkout-time-value"][data-book="true"]').waitFor();
    assert.match(await page.getByTestId('checkout-time-value').innerText(), /明天/);
    await page.getByTestId('checkout-remark').fill('少放辣,谢谢');
    await shot(page, 'checkout-07-submit');

    // Place the order: online payment (the default) → unpaid.
    const total = await page.getByTestId('checkout-total').getAttribute('data-amount');
    await page.getByTestId('checkout-submit').click();
    // The sandbox cashier; the customer cancels there and is sent back to the status page, where
    // the order waits, unpaid, with a way to pay again.
    await page.waitForURL('**/sandbox/cashier/**');
    await page.locator('button[data-outcome="cancel"]').click();
    await page.waitForURL(/\/order\/status\?orderNo=/);
    const back = new URL(page.url());
    assert.equal(back.searchParams.get('customestatus'), '1', 'a cancel comes back marked');
    const orderNo = back.searchParams.get('orderNo');
    assert.ok(orderNo);
    // After the order (never during checkout) the new user is asked about SMS notifications.
    const asked = page.getByTestId('marketing-dialog');
    await asked.waitFor();
    await page.getByTestId('marketing-no-remind').check();
    await page.getByRole('button', { name: '暂不开启' }).click();
    await asked.waitFor({ state: 'detached' });
    await page.getByTestId('order-state').filter({ hasText: '支付失败' }).waitFor();
    await page.getByTestId('pay-failed').filter({ hasText: '您已取消支付' }).waitFor();
    await page.getByTestId('pay-again').waitFor();
    assert.equal(await page.getByTestId('order-no').innerText(), orderNo);
    assert.match(await page.getByTestId('order-store').innerText(), /人民广场旗舰店/);
    assert.match(await page.getByTestId('order-lines').innerText(), /超级至尊比萨[\s\S]*可口可乐|可口可乐[\s\S]*超级至尊比萨/);
    assert.match(await page.getByTestId('order-time').innerText(), /预约 明天/);
    assert.equal(await page.getByTestId('order-amount').locator('[data-price]').getAttribute('data-price'), total);
    await shot(page, 'checkout-08-order-status');

    // The server has it as shown, and the cart is empty now.
    const order = await api(`/orders/${orderNo}`, token);
    assert.equal(order.state, 4, "payment failed (cancelled at the cashier), payable again");
    assert.equal(order.orderType, 0);
    assert.equal(order.orderTime, slotAt);
    const after = await api('/cart?pageName=menu', token);
    assert.equal(after.items.length, 0);

    assert.deepEqual(problems, [], 'no page errors, console errors or 5xx answers');
  } catch (e) {
    await page.screenshot({ path: join(ARTIFACTS, 'checkout-failure.png') }).catch(() => undefined);
    throw e;
  } finally {
    await close();
  }
});

test('a table QR link opens the menu for dine-in at that desk', async () => {
  const { page, problems, close } = await openBrowser();
  try {
    const link = await api('/dev/table-link?storeCode=SH001&deskNo=A12');
    const url = new URL(link.url);
    await page.goto(server.base + url.pathname + url.search);
    await page.getByTestId('desk-no').filter({ hasText: 'A12' }).waitFor();
    await page.waitForURL((u) => u.pathname === '/menu' && !u.search.includes('sign='));
    assert.equal(await page.getByTestId('order-type-2').getAttribute('aria-selected'), 'true');
    assert.equal(await page.getByTestId('order-type-0').count(), 0, 'dine-in only while scanned');
    const scan = await storageValue(page, 'store:scan');
    assert.equal(scan.deskNo, 'A12');
    assert.equal(scan.storeCode, 'SH001');
    await page.getByTestId('product-DR001-add').click();
    await page.getByTestId('cart-count').filter({ hasText: /^1$/ }).waitFor();
    const token = await storageValue(page, 'cart:token');
    const res = await fetch(`${server.base}/api/v1/cart?pageName=menu`, { headers: { 'X-Channel-Id': '2', 'X-Cart-Token': token } });
    const cart = (await res.json()).data;
    assert.equal(cart.orderType, 2);
    assert.equal(cart.deskNo, 'A12');
    await shot(page, 'checkout-09-scan-menu');

    // A link with a bad sign is refused with the server's reason.
    await page.goto(`${server.base}/menu?storeName=x&storeCode=SH001&deskNo=B1&sign=bad`);
    await page.getByRole('status').filter({ hasText: '无效的桌台二维码' }).waitFor();
    assert.deepEqual(problems, [], 'no page errors, console errors or 5xx answers');
  } catch (e) {
    await page.screenshot({ path: join(ARTIFACTS, 'checkout-scan-failure.png') }).catch(() => undefined);
    throw e;
  } finally {
    await close();
  }
});

test("a visitor's cart change reaches their other tab (cart:updated)", async () => {
  const { page, problems, close } = await openBrowser();
  try {
    await page.goto(server.base + '/menu');
    await page.getByTestId('cart-bar').filter({ hasText: '购物车是空的' }).waitFor();
    // The same browser, a second tab: the same cart token (localStorage).
    const other = await page.context().newPage();
    await other.goto(server.base + '/menu');
    await other.getByTestId('cart-bar').filter({ hasText: '购物车是空的' }).waitFor();
    assert.equal(await storageValue(other, 'cart:token'), await storageValue(page, 'cart:token'));
    // Both sockets joined the cart's room (handshake auth {cartToken}).
    await page.waitForTimeout(1000);
    await page.getByTestId('product-DR002-add').click();
    await page.getByTestId('cart-count').filter({ hasText: /^1$/ }).waitFor();
    await other.getByTestId('cart-count').filter({ hasText: /^1$/ }).waitFor({ timeout: 10_000 });
    // And back: the first tab's socket reconnected with the token it was issued after connecting.
    await other.getByTestId('product-DR002-add').click();
    await other.getByTestId('cart-count').filter({ hasText: /^2$/ }).waitFor();
    await page.getByTestId('cart-count').filter({ hasText: /^2$/ }).waitFor({ timeout: 10_000 });
    await other.close();
    assert.deepEqual(problems, [], 'no page errors, console errors or 5xx answers');
  } finally {
    await close();
  }
});
