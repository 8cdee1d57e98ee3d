// Browser test of the ordering journey of issue 22, whatever the hour of the run (the stores'
// hours are China time; carts are booked for tomorrow where an order must be taken):
// - checkout after an item sold out meanwhile (-7): the fresh cart shows the line disabled with
//   its reason and a one-tap remove, and the order goes through without it; the one arrival time
//   (the booked time, no countdown a day ahead) on checkout, the status page and the tablet;
// - a store its staff closed: the menu says why and offers booking, which lets the cart fill;
//   a busy notice goes away when the store reopens (store:update);
// - the delivery minimum's gap in the cart bar;
// - the payment methods of a phone's browser (wap) and a computer's (web).
// Screenshots at 390×844 in zh and 1280×800 in en are kept in e2e/artifacts/journey-*.png.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { call, customerWithCart, logIn, openBrowser, shot } from './browser.mjs';
import { startServer } from './server.mjs';

const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

let server;

before(async () => {
  server = await startServer();
});

after(async () => {
  await server?.stop();
});

async function staffToken(storeCode = 'SH001') {
  const login = await call(server.base, 'POST', '/tablet/login', { body: { storeCode, staffCode: 'manager', pin: '246810' } });
  return login.token;
}

const setStatus = (staff, status, notice = null) => call(server.base, 'PUT', '/tablet/store/status', { token: staff, body: { status, notice } });
const soldOut = (staff, code, out) => call(server.base, 'PUT', `/tablet/products/${code}/availability`, { token: staff, body: { soldOut: out } });

async function setLang(page, lang) {
  await page.evaluate((l) => localStorage.setItem('pz:lang', JSON.stringify({ v: l, e: null })), lang);
}

async function dismissMarketing(page, lang) {
  const marketing = page.getByTestId('marketing-dialog');
  if (await marketing.waitFor({ timeout: 3000 }).then(() => true, () => false)) {
    await page.getByTestId('marketing-no-remind').check();
    await page.getByRole('button', { name: lang === 'en' ? 'Not now' : '暂不开启' }).click();
    await marketing.waitFor({ state: 'detached' });
  }
}

for (const { lang, viewport, phone, prefix } of [
  { lang: 'zh', viewport: { width: 390, height: 844 }, phone: '13900022001', prefix: 'journey-390-zh' },
  { lang: 'en', viewport: { width: 1280, height: 800 }, phone: '13900022002', prefix: 'journey-1280-en' },
]) {
  test(`checkout after a sold-out item shows it disabled with a one-tap remove, then orders; one arrival everywhere (${lang})`, async () => {
    const staff = await staffToken();
    const login = await customerWithCart(server.base, phone);
    const { page, problems, close } = await openBrowser({ viewport });
    try {
      await logIn(page, server.base, login);
      await setLang(page, lang);
      await page.goto(server.base + '/order/submit');
      await page.getByTestId('cart-items').waitFor();
      await dismissMarketing(page, lang);
      // The arrival: the booked time tomorrow, the same words the order pages will use.
      const arrival = page.getByTestId('checkout-arrival');
      await arrival.waitFor();
      assert.equal(await arrival.getAttribute('data-kind'), 'booked');
      const bookedText = await arrival.innerText();
      assert.match(bookedText, lang === 'zh' ? /预约 明天 \d{2}:\d{2} 取餐/ : /Booked pickup: Tomorrow \d{2}:\d{2}/);

      // The store runs out of cola while the customer is on the page.
      await soldOut(staff, 'DR001', true);
      await page.getByTestId('checkout-method-alipay_wap').click();
      await page.getByTestId('checkout-submit').click();
      const off = page.getByTestId('cart-disabled-soldOut');
      await off.waitFor();
      const offText = await off.innerText();
      assert.match(offText, lang === 'zh' ? /可口可乐/ : /Coca-Cola|Coke/);
      assert.match(offText, lang === 'zh' ? /已售罄/ : /Sold out/);
      assert.match(await page.getByTestId('checkout-unavailable-note').innerText(), lang === 'zh' ? /失效商品不会下单/ : /will not be ordered/);
      await page.getByTestId('cart-items').waitFor();
      assert.equal(page.url().endsWith('/order/submit'), true, 'still on checkout: no dead end');
      await off.scrollIntoViewIfNeeded();
      await shot(page, `${prefix}-checkout-soldout`);

      // One tap removes it; the order goes through with the pizza.
      const line = off.locator('[data-testid^="cart-delete-"]').first();
      await line.click();
      await off.waitFor({ state: 'detached' });
      await page.getByTestId('checkout-unavailable-note').waitFor({ state: 'detached' });
      await shot(page, `${prefix}-checkout-removed`);
      await page.getByTestId('checkout-submit').click();
      await page.waitForURL('**/sandbox/cashier/**');
      await page.locator('button[data-outcome="success"]').click();
      await page.waitForURL(/\/order\/status\?orderNo=/);
      const orderNo = new URL(page.url()).searchParams.get('orderNo');
      await dismissMarketing(page, lang);

      // The status header: the booked time, no "32:46:51 left" a day ahead.
      const eta = page.getByTestId('order-eta');
      await eta.waitFor();
      assert.equal(await eta.getAttribute('data-kind'), 'booked');
      assert.equal(await page.getByTestId('order-eta-left').count(), 0, 'no countdown a day ahead');
      const statusText = await page.getByTestId('order-eta-text').innerText();
      assert.equal(statusText, bookedText.trim(), 'checkout and the status page say the same');
      await shot(page, `${prefix}-status-booked`);

      // The tablet's card carries the same arrival, and the order's detail.
      const queue = await call(server.base, 'GET', '/tablet/orders', { token: staff });
      const card = queue.find((c) => c.orderNo === orderNo);
      const detail = await call(server.base, 'GET', `/orders/${orderNo}`, { token: login.token });
      assert.deepEqual(card.arrival, detail.arrival);
      assert.equal(detail.arrival.kind, 'booked');
      assert.equal(detail.arrival.countdownFrom, detail.arrival.at - 2 * 3600_000);
      assert.deepEqual(problems, []);
    } finally {
      await soldOut(staff, 'DR001', false);
      await close();
    }
  });
}

test('a closed store: the menu says why and offers booking, which fills the cart; busy goes away on reopening', async () => {
  const staff = await staffToken();
  for (const { lang, viewport, prefix } of [
    { lang: 'zh', viewport: { width: 390, height: 844 }, prefix: 'journey-390-zh' },
    { lang: 'en', viewport: { width: 1280, height: 800 }, prefix: 'journey-1280-en' },
  ]) {
    // Closed before the customer comes (a store card read earlier stays as it was until
    // store:update says otherwise).
    await setStatus(staff, 'closed', lang === 'zh' ? '设备检修，暂停营业' : null);
    const { page, problems, close } = await openBrowser({ viewport });
    try {
      await page.goto(server.base + '/');
      await setLang(page, lang);
      await page.goto(server.base + '/menu');
      const notice = page.getByTestId('stop-store-notice');
      await notice.waitFor();
      assert.equal(await notice.getAttribute('data-reason'), 'closed');
      const text = await notice.innerText();
      assert.match(text, lang === 'zh' ? /门店休息中/ : /closed for now/);
      assert.match(text, lang === 'zh' ? /预约/ : /Book/);
      await page.getByTestId('menu-other-store').waitFor();
      await shot(page, `${prefix}-menu-closed`);

      // A quick add is refused, saying why.
      await page.getByTestId('product-DR002-add').click();
      await page.getByText(lang === 'zh' ? '门店休息中，请预约稍后的时间或选择其他门店' : 'The store is closed for now; book a later time or choose another store').first().waitFor();
      assert.equal(await page.getByTestId('cart-count').count(), 0);

      // Booking the first slot lets the cart fill for then.
      await page.getByTestId('menu-book').click();
      await page.getByTestId('menu-booked').waitFor();
      assert.match(await page.getByTestId('menu-booked').innerText(), lang === 'zh' ? /已预约/ : /Booked for/);
      await shot(page, `${prefix}-menu-booked`);
      await page.getByTestId('product-DR002-add').click();
      await page.getByTestId('cart-count').filter({ hasText: /^1$/ }).waitFor();

      // Busy, then open again: the busy notice shows, then goes away (store:update, no reload).
      await setStatus(staff, 'busy', lang === 'zh' ? '午市繁忙，出餐稍慢' : 'Busy lunchtime, a little slower');
      const busy = page.locator('.notice--warn', { hasText: lang === 'zh' ? '午市繁忙' : 'Busy lunchtime' });
      await busy.waitFor({ timeout: 5000 });
      await setStatus(staff, 'open');
      await busy.waitFor({ state: 'detached', timeout: 5000 });
      assert.deepEqual(problems, []);
    } finally {
      await setStatus(staff, 'open');
      await close();
    }
  }
});

test('the cart bar says how much is missing to the delivery minimum (zh and en)', async () => {
  for (const { lang, viewport, prefix, want } of [
    { lang: 'zh', viewport: { width: 390, height: 844 }, prefix: 'journey-390-zh', want: '还差 ¥12 起送' },
    { lang: 'en', viewport: { width: 1280, height: 800 }, prefix: 'journey-1280-en', want: '¥12 more for delivery' },
  ]) {
    const { page, problems, close } = await openBrowser({ viewport });
    try {
      await page.goto(server.base + '/');
      await setLang(page, lang);
      await page.goto(server.base + '/menu');
      await page.getByTestId('order-type-0').click();
      await page.getByTestId('product-DR002-add').click();
      const gap = page.getByTestId('cart-min-gap');
      await gap.waitFor();
      assert.equal((await gap.innerText()).replace('.00', ''), want);
      await shot(page, `${prefix}-cart-minimum`);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  }
});

test("a phone's browser is channel wap (1) and offers WeChat Pay and Alipay; so does a computer's (web 2)", async () => {
  const login = await customerWithCart(server.base, '13900022003');
  const { page, close } = await openBrowser();
  try {
    // The app reads its channel from the user agent (lib/channel.ts).
    await page.addInitScript((ua) => Object.defineProperty(navigator, 'userAgent', { get: () => ua }), IPHONE_UA);
    await logIn(page, server.base, login);
    const channels = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/')) channels.push(r.headers()['x-channel-id']);
    });
    await page.goto(server.base + '/order/submit');
    await page.getByTestId('checkout-methods').waitFor();
    assert.ok(channels.length > 0 && channels.every((c) => c === '1'), `X-Channel-Id ${channels}`);
    for (const m of ['alipay_wap', 'wechat_h5']) await page.getByTestId(`checkout-method-${m}`).waitFor();
    assert.equal(await page.getByTestId('checkout-method-wechat_jsapi').count(), 0);
  } finally {
    await close();
  }
  const desktop = await openBrowser({ viewport: { width: 1280, height: 800 } });
  try {
    await logIn(desktop.page, server.base, login);
    await desktop.page.goto(server.base + '/order/submit');
    await desktop.page.getByTestId('checkout-methods').waitFor();
    for (const m of ['alipay_wap', 'wechat_h5', 'unionpay_web']) await desktop.page.getByTestId(`checkout-method-${m}`).waitFor();
  } finally {
    await desktop.close();
  }
});

test('the tablet 86es a topping and a flavour: the builder leaves them out, and the pizza is ordered without them', async () => {
  const tablet = await openBrowser({ viewport: { width: 1280, height: 800 }, hasTouch: true });
  const tab = tablet.page;
  const staff = await staffToken();
  try {
    await tab.goto(server.base + '/tablet/login');
    await tab.getByTestId('tablet-store-code').fill('SH001');
    await tab.getByTestId('tablet-staff-code').fill('manager');
    await tab.getByTestId('tablet-pin').fill('246810');
    await tab.getByTestId('tablet-login-submit').click();
    await tab.getByTestId('tablet-column-new').waitFor();
    await tab.getByTestId('tablet-soldout-open').click();
    await tab.getByTestId('tablet-soldout-tab-ingredients').click();
    for (const code of ['B-PEPPERONI', 'F-PEPPERONI']) {
      const toggle = tab.getByTestId(`tablet-soldout-ingredient-${code}`);
      await toggle.click();
      await tab.locator(`[data-testid="tablet-soldout-ingredient-${code}"][aria-pressed="true"]`).waitFor();
    }
    await tab.getByTestId('tablet-soldout-ingredient-search').fill('香肠');
    await shot(tab, 'journey-tablet-1280-ingredients');
    assert.deepEqual(tablet.problems, []);

    for (const { lang, viewport, prefix } of [
      { lang: 'zh', viewport: { width: 390, height: 844 }, prefix: 'journey-390-zh' },
      { lang: 'en', viewport: { width: 1280, height: 800 }, prefix: 'journey-1280-en' },
    ]) {
      const { page, problems, close } = await openBrowser({ viewport });
      try {
        await page.goto(server.base + '/');
        await setLang(page, lang);
        // The pizza's mushrooms: off, marked sold out, not to be put back.
        await page.goto(server.base + '/product/PZ001');
        const mushroom = page.getByTestId('base-B-PEPPERONI');
        await mushroom.waitFor();
        assert.equal(await mushroom.getAttribute('data-sold-out'), 'true');
        assert.equal(await mushroom.getAttribute('aria-pressed'), 'false');
        assert.equal(await mushroom.isDisabled(), true);
        assert.match(await mushroom.innerText(), lang === 'zh' ? /今日售罄/ : /sold out today/);
        await mushroom.evaluate((e) => e.scrollIntoView({ block: 'center' }));
        await shot(page, `${prefix}-builder-topping-out`);
        // The halves: the pepperoni flavour is not offered.
        await page.goto(server.base + '/product/HF001');
        await page.getByTestId('flavour-F-VEGGIE').waitFor();
        assert.equal(await page.getByTestId('flavour-F-PEPPERONI').count(), 0);
        await shot(page, `${prefix}-builder-flavour-out`);
        // The pizza goes into the cart without the mushrooms (the menu is open or booked).
        await page.goto(server.base + '/product/PZ001');
        await page.getByTestId('size-12').click();
        await page.getByTestId('add-to-cart').click();
        await page.waitForURL('**/menu');
        await page.getByTestId('cart-count').filter({ hasText: /^1$/ }).waitFor();
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    }
  } finally {
    for (const code of ['B-PEPPERONI', 'F-PEPPERONI']) {
      await call(server.base, 'PUT', `/tablet/ingredients/${code}/availability`, { token: staff, body: { soldOut: false } });
    }
    await tablet.close();
  }
});
