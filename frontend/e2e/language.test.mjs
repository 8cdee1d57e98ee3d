// Browser walk of every customer page in each language (issue 22 "English that is English,
// Chinese that is Chinese"): home, the store finder, the menu, a product, search, checkout, the
// order list, the order status and detail (an order placed in the other language, and a refused
// one), my page, my coupons (with the offers to collect), the address book and form, login, the privacy policy. An en page fails on any CJK
// character (ideographs and full-width punctuation such as 、，：（）), a zh page on any Latin word,
// but for what the ALLOW lists name: proper names and units that have no other form. Each page
// is shot at 390×844 into e2e/artifacts/lang-<lang>-<page>.png.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, openBrowser, register, shot } from './browser.mjs';
import { startServer } from './server.mjs';

/** CJK ideographs, CJK punctuation, full-width forms. */
const CJK = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]+/g;
/** A Latin word of two letters or more. */
const LATIN = /[A-Za-z]{2,}/g;

/** What an en page may show in Chinese: nothing but the language switch's own name of Chinese. */
const ALLOW_EN = ['中文'];
/**
 * What a zh page may show in Latin letters: the language switch's "Language" / "English", and
 * the technical terms a Chinese privacy policy writes in Latin (IP 地址, HTTPS).
 */
const ALLOW_ZH = ['English', 'Language', 'EN', 'IP', 'HTTPS'];

/** The visible text's offending pieces in `lang`. */
async function offending(page, lang) {
  // What people wrote (a remark, the store's refusal reason: [data-user-text]) stays as written.
  const text = await page.evaluate(() => {
    const copy = document.body.cloneNode(true);
    for (const el of copy.querySelectorAll('[data-user-text]')) el.remove();
    document.body.appendChild(copy);
    copy.style.position = 'absolute';
    // Placeholders are words on the page too.
    const hints = [...copy.querySelectorAll('[placeholder]')].map((e) => e.getAttribute('placeholder')).join(' ');
    const out = `${copy.innerText} ${hints}`;
    copy.remove();
    return out;
  });
  if (lang === 'en') return [...new Set(text.match(CJK) ?? [])].filter((w) => !ALLOW_EN.includes(w));
  // Order numbers and tokens are digits; e-mail addresses and URLs the customer typed are theirs.
  const cleaned = text.replace(/\S+@\S+/g, ' ').replace(/https?:\/\/\S+/g, ' ');
  return [...new Set(cleaned.match(LATIN) ?? [])].filter((w) => !ALLOW_ZH.includes(w));
}

const HEADERS = (lang) => ({ 'Accept-Language': lang });
/** Reservations repeated within 380 ms are refused (spec ordering §5). */
const pause = () => new Promise((r) => setTimeout(r, 450));

/** A customer with an address (in the page's language), a cash-on-delivery delivery booked for tomorrow and a refused one. */
async function customer(base, phone, lang, other) {
  const login = await register(base, phone);
  const token = login.token;
  const store = await call(base, 'GET', '/stores/SH001');
  const address =
    lang === 'en'
      ? { name: 'Li Lei', phone: '13812345678', baseAddress: '236 Middle Xizang Road, Huangpu', houseNumber: 'Room 501', cityName: 'Shanghai', sex: 'male', tag: 'company' }
      : { name: '李雷', phone: '13812345678', baseAddress: '上海市黄浦区西藏中路236号', houseNumber: '5楼501', cityName: '上海市', sex: 'female', tag: 'home' };
  const saved = await call(base, 'POST', '/addresses', { token, body: { ...address, lat: String(store.latitude ?? store.lat), lng: String(store.longitude ?? store.lng) } });
  const orders = [];
  for (let i = 0; i < 2; i++) {
    // Placed in the other language: the pages must still read in theirs.
    await call(base, 'POST', '/cart/items', {
      token,
      headers: HEADERS(other),
      body: { storeCode: 'SH001', items: [{ productCode: 'PZ001', selection: { sizeCode: '12' } }, { productCode: 'DR001', quantity: 2 }] },
    });
    const slots = await call(base, 'GET', '/orders/reservation/slots?storeCode=SH001&orderType=0', { token });
    const tomorrow = slots.days.find((d, j) => j > 0 && d.slots.length > 0);
    await pause();
    const cart = await call(base, 'POST', '/orders/reservation', {
      token,
      headers: HEADERS(other),
      body: { storeCode: 'SH001', orderType: 0, orderTime: tomorrow.slots[0], isBookOrder: true },
    });
    const order = await call(base, 'POST', '/orders', {
      token,
      headers: HEADERS(other),
      body: {
        orderType: 0,
        isBookOrder: true,
        consignAddressId: saved.id,
        contactless: true,
        paymentType: 'offline',
        tableware: 0,
        remark: other === 'zh' ? '少放辣' : 'Less spicy',
        orderProductAmount: cart.priceOfProduct,
        activityAmount: cart.discountAmount,
        freightAmount: cart.deliveryFeeAfterPE,
        orderAmount: cart.orderAmount,
      },
    });
    orders.push(order.orderNo);
  }
  const staff = (await call(base, 'POST', '/tablet/login', { body: { storeCode: 'SH001', staffCode: 'manager', pin: '246810' } })).token;
  await call(base, 'POST', `/tablet/orders/${orders[0]}/accept`, { token: staff, body: {} });
  await call(base, 'POST', `/tablet/orders/${orders[0]}/advance`, { token: staff, body: { from: 1 } });
  await call(base, 'POST', `/tablet/orders/${orders[1]}/refuse`, { token: staff, body: { reason: '太忙' } });
  // A cart for checkout and the home page's cart entry.
  await call(base, 'POST', '/cart/items', { token, body: { storeCode: 'SH001', items: [{ productCode: 'PZ001', selection: { sizeCode: '12' } }] } });
  const slots = await call(base, 'GET', '/orders/reservation/slots?storeCode=SH001&orderType=1', { token });
  const tomorrow = slots.days.find((d, j) => j > 0 && d.slots.length > 0);
  await pause();
  await call(base, 'POST', '/orders/reservation', { token, body: { storeCode: 'SH001', orderType: 1, orderTime: tomorrow.slots[0], isBookOrder: true } });
  return { login, orders };
}

/** The pages of the walk: [name, path, a test id that shows the page is there]. */
function pages(orders) {
  return [
    ['home', '/', 'home-order'],
    ['find-store', '/findStore', null],
    ['menu', '/menu', null],
    ['product', '/product/PZ001', null],
    ['search', '/product/search', null],
    ['checkout', '/order/submit', 'checkout-submit'],
    ['order-list', '/order', null],
    ['order-status', `/order/status?orderNo=${orders[0]}`, 'order-steps'],
    ['order-info', `/order/info?orderNo=${orders[0]}`, 'order-history'],
    ['order-refused', `/order/status?orderNo=${orders[1]}`, 'order-state'],
    ['my', '/my', null],
    ['coupons', '/my/coupon/list', 'coupon-offers'],
    ['addresses', '/address', null],
    ['address-form', '/address/add', null],
    ['privacy', '/system/privacyProtocol', 'policy'],
    ['agreement', '/system/userProtocol', 'policy'],
  ];
}

for (const [lang, other] of [
  ['en', 'zh'],
  ['zh', 'en'],
]) {
  test(`every page reads in ${lang} only (an order placed in ${other} too)`, async () => {
    const server = await startServer();
    const { page, problems, close } = await openBrowser();
    const found = [];
    try {
      const base = server.base;
      const { login, orders } = await customer(base, lang === 'en' ? '13512390001' : '13512390002', lang, other);
      await page.goto(base + '/');
      await page.evaluate(
        ([saved, l]) => {
          localStorage.setItem('pz:account:session', JSON.stringify({ v: saved, e: null }));
          localStorage.setItem('pz:lang', JSON.stringify({ v: l, e: null }));
        },
        [{ token: login.token, user: login.user }, lang],
      );
      for (const [name, path, ready] of pages(orders)) {
        await page.goto(base + path);
        if (ready) await page.getByTestId(ready).first().waitFor({ timeout: 15_000 }).catch(() => undefined);
        await page.waitForLoadState('networkidle').catch(() => undefined);
        await page.waitForTimeout(600);
        // Dialogs that open by themselves (privacy, notifications) are part of the page.
        const bad = await offending(page, lang);
        if (bad.length > 0) found.push(`${name} (${path}): ${bad.join(' | ')}`);
        await shot(page, `lang-${lang}-${name}`);
      }
      // The changed screens on a desktop too.
      await page.setViewportSize({ width: 1280, height: 800 });
      for (const [name, path, ready] of pages(orders).filter(([n]) => ['home', 'checkout', 'order-status', 'order-info', 'order-refused', 'addresses', 'address-form', 'privacy', 'search', 'coupons'].includes(n))) {
        await page.goto(base + path);
        if (ready) await page.getByTestId(ready).first().waitFor({ timeout: 15_000 }).catch(() => undefined);
        await page.waitForLoadState('networkidle').catch(() => undefined);
        await page.waitForTimeout(600);
        await shot(page, `lang-${lang}-1280-${name}`);
      }
      await page.setViewportSize({ width: 390, height: 844 });
      // The address list shows the tag and the recipient's title; the home page the order in progress and the cart.
      await page.goto(base + '/address');
      const who = await page.locator('[data-testid$="-who"]').first().innerText();
      assert.match(who, lang === 'en' ? /^Mr Li Lei/ : /^李雷 女士/);
      assert.equal(await page.locator('[data-testid$="-tag"]').first().innerText(), lang === 'en' ? 'Company' : '家');
      await page.goto(base + '/');
      await page.getByTestId('home-order').waitFor({ timeout: 15_000 });
      assert.equal(await page.getByTestId('home-order').getAttribute('data-order'), orders[0]);
      await page.getByTestId('home-cart').waitFor();
      // The visitor's pages: logged out.
      await page.evaluate(() => localStorage.removeItem('pz:account:session'));
      for (const [name, path] of [
        ['visitor-my', '/my'],
        ['visitor-orders', '/order'],
        ['visitor-coupons', '/my/coupon/list'],
        ['login', '/login'],
      ]) {
        await page.goto(base + path);
        await page.waitForLoadState('networkidle').catch(() => undefined);
        await page.waitForTimeout(600);
        const bad = await offending(page, lang);
        if (bad.length > 0) found.push(`${name} (${path}): ${bad.join(' | ')}`);
        await shot(page, `lang-${lang}-${name}`);
      }
      assert.deepEqual(found, [], `words of the other language on ${lang} pages:\n${found.join('\n')}`);
      assert.deepEqual(problems, []);
    } finally {
      await close();
      await server.stop();
    }
  });
}

test('a visitor is asked for privacy consent (spec account §4): refusing leaves browsing only, agreeing is kept', async () => {
  const server = await startServer();
  const { page, problems, close } = await openBrowser({ askPrivacy: true });
  try {
    const base = server.base;
    await page.goto(base + '/');
    const dialog = page.getByTestId('privacy-dialog');
    await dialog.waitFor({ timeout: 15_000 });
    await shot(page, 'privacy-visitor-zh');
    await page.getByRole('button', { name: '不同意' }).click();
    await dialog.waitFor({ state: 'detached' });
    // Browsing goes on; logging in asks again, and refusing there goes home.
    await page.goto(base + '/menu');
    await page.waitForTimeout(800);
    assert.equal(await dialog.count(), 0, 'no question while browsing after a refusal');
    await page.goto(base + '/login');
    await dialog.waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: '不同意' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    // Agreeing is kept on the device for the policy in force.
    await page.goto(base + '/login');
    await dialog.waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: '同意', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.reload();
    await page.waitForTimeout(1000);
    assert.equal(await dialog.count(), 0, 'not asked again');
    assert.deepEqual(problems, []);
  } finally {
    await close();
    await server.stop();
  }
});
