// Screenshots of the coupon screens (issue 24) at 390×844 and 1280×800 in zh and en, into $OUT
// (default e2e/artifacts/coupon-shots), with the coupon API answered by the contract's fixtures
// in the browser (page.route), so the screens can be looked at whatever the server holds. The
// real journey, against the real server, is e2e/coupon.test.mjs.
//   npm run build && node e2e/coupon-shots.mjs      (starts ../target/debug/pizza-order itself)
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, call, logIn, openBrowser, register } from './browser.mjs';
import { startServer } from './server.mjs';

const out = process.env.OUT ?? join(ARTIFACTS, 'coupon-shots');
mkdirSync(out, { recursive: true });
const sizes = [{ width: 390, height: 844 }, { width: 1280, height: 800 }];
const langs = ['zh', 'en'];
const DAY = 86_400_000;
const now = Date.now();

const W = {
  zh: { cash: ['满100减20', '满100减20', '全部商品'], pct: ['比萨8折券', '8折，最多减¥30', '比萨类商品'], fee: ['免配送费券', '免配送费', '仅限外送订单'], side: ['¥9.9换购芝士条', '¥9.9换购 芝士条', '芝士条'], drink: ['可乐兑换券', '兑换 可乐', '可乐'], big: ['满300减60', '满300减60', '全部商品'], used: '已使用', locked: '下单中', expired: '已过期', transferred: '已转赠', valid: '领取后30天内有效', below: '再买¥193.00可用', mutex: '与满100减20不可同时使用', issued: '可使用' },
  en: { cash: ['¥20 off ¥100', 'Spend ¥100, save ¥20', 'All items'], pct: ['20% off pizzas', '20% off, up to ¥30', 'Pizzas'], fee: ['Free delivery', 'Free delivery', 'Delivery orders only'], side: ['Cheese sticks for ¥9.90', '¥9.90 for Cheese sticks', 'Cheese sticks'], drink: ['A free cola', 'Exchange for Cola', 'Cola'], big: ['¥60 off ¥300', 'Spend ¥300, save ¥60', 'All items'], used: 'Used', locked: 'In an order', expired: 'Expired', transferred: 'Given away', valid: 'Valid 30 days after collecting', below: '¥193.00 more to use it', mutex: 'Cannot be used with ¥20 off ¥100', issued: 'Available' },
};

function fixtures(lang) {
  const w = W[lang];
  const coupon = (code, kind, [name, ruleText, scopeText], over = {}) => ({
    couponCode: code, templateCode: `T_${code}`, name, kind, ruleText, scopeText,
    validFrom: now - 5 * DAY, validTo: now + 25 * DAY, status: 'issued', statusLabel: w.issued, orderNo: null,
    transferable: true, expiringSoon: false, productCode: null, imageUrl: null, ...over,
  });
  const available = [
    coupon('C1', 'cashOff', w.cash),
    coupon('C2', 'percentOff', w.pct, { expiringSoon: true, validTo: now + 2 * DAY }),
    coupon('C3', 'freeDelivery', w.fee, { status: 'locked', statusLabel: w.locked, orderNo: 'P20261125000123', transferable: false }),
    coupon('C4', 'productAtPrice', w.side, { productCode: 'SD001', imageUrl: '/images/products/SD001.jpg' }),
    coupon('C5', 'exchangeProduct', w.drink, { productCode: 'DR001', imageUrl: '/images/products/DR001.jpg', transferable: false }),
  ];
  const used = [coupon('C6', 'cashOff', w.cash, { status: 'used', statusLabel: w.used, orderNo: 'P20261120000007' }), coupon('C7', 'percentOff', w.pct, { status: 'transferred', statusLabel: w.transferred })];
  const expired = [coupon('C8', 'freeDelivery', w.fee, { status: 'expired', statusLabel: w.expired, validTo: now - 3 * DAY })];
  const offer = (ruleId, kind, [name, ruleText, scopeText], over = {}) => ({ ruleId, name, kind, ruleText, scopeText, validText: w.valid, remaining: null, perUserLimit: 1, collected: 0, canCollect: true, ...over });
  const offers = [offer('T_CASH', 'cashOff', w.cash, { remaining: 37 }), offer('T_BIG', 'cashOff', w.big, { remaining: 0, canCollect: false }), offer('T_FEE', 'freeDelivery', w.fee, { collected: 1, canCollect: false })];
  const option = (c, over = {}) => ({ couponCode: c.couponCode, templateCode: c.templateCode, name: c.name, kind: c.kind, ruleText: c.ruleText, validTo: c.validTo, alone: 20, applied: false, saved: 0, reason: null, productCode: c.productCode, inCart: false, ...over });
  const cartCoupons = {
    usable: [option(available[0], { applied: true, saved: 20 }), option(available[3], { alone: 9.1 })],
    unusable: [option(available[1], { alone: 19.8, reason: { code: 'mutex', text: w.mutex } }), option(coupon('C9', 'cashOff', w.big), { alone: 0, reason: { code: 'belowThreshold', text: w.below } })],
    applied: ['C1'],
    auto: true,
    couponDiscountsAmount: 20,
  };
  return { available, used, expired, offers, cartCoupons, mutex: [{ couponMutexDetails: [{ ruleId: 'T_C1' }, { ruleId: 'T_C2' }] }] };
}

const envelope = (data) => ({ status: 200, contentType: 'application/json', body: JSON.stringify({ errCode: '00', errMsg: '', data }) });

async function mockCoupons(page, lang) {
  const f = fixtures(lang);
  await page.route('**/api/v1/coupons**', (route) => {
    const url = new URL(route.request().url());
    const p = url.pathname.replace('/api/v1', '');
    if (p === '/coupons/offers') return route.fulfill(envelope(f.offers));
    const list = f[url.searchParams.get('status') ?? 'available'] ?? [];
    return route.fulfill(envelope({ list, page: 1, pageSize: 20, total: list.length, hasMore: false }));
  });
  await page.route('**/api/v1/cart/coupons', (route) => route.fulfill(envelope(f.cartCoupons)));
  // The cart answers gain the coupon fields (until the server sends them).
  await page.route(/\/api\/v1\/cart(\/verify)?(\?.*)?$/, async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    const cart = body.data?.cart ?? body.data;
    if (cart && typeof cart === 'object' && 'shoppingCarVersion' in cart && !cart.osCoupons) {
      Object.assign(cart, { osCoupons: ['C1'], couponDiscountsAmount: 20, couponDeliveryFee: 0, cashCouponAmount: 20, couponMutexBeans: f.mutex, couponItems: [] });
      cart.orderAmount = Math.round((cart.orderAmount - 20) * 100) / 100;
    }
    return route.fulfill({ response: res, body: JSON.stringify(body) });
  });
}

const server = process.env.BASE ? null : await startServer();
const base = process.env.BASE ?? server.base;
try {
  const login = await register(base, `139${String(Date.now()).slice(-8)}`);
  await call(base, 'POST', '/cart/items', { token: login.token, body: { storeCode: 'SH001', items: [{ productCode: 'PZ001', quantity: 2, selection: { sizeCode: '12' } }, { productCode: 'DR001', quantity: 2 }] } });
  const slots = await call(base, 'GET', '/orders/reservation/slots?storeCode=SH001&orderType=1', { token: login.token });
  const day = slots.days.find((d, i) => i > 0 && d.slots.length > 0);
  await call(base, 'POST', '/orders/reservation', { token: login.token, body: { storeCode: 'SH001', orderType: 1, orderTime: day.slots[0], isBookOrder: true } });

  for (const size of sizes) {
    for (const lang of langs) {
      const tag = `${size.width}-${lang}`;
      const b = await openBrowser({ viewport: size });
      try {
        await logIn(b.page, base, login);
        await b.page.evaluate((l) => localStorage.setItem('pz:lang', JSON.stringify({ v: l, e: null })), lang);
        await mockCoupons(b.page, lang);
        for (const [name, path, ready] of [
          ['list', '/my/coupon/list', '[data-testid="coupon-C1"]'],
          ['used', '/my/coupon/list?status=used', '[data-testid="coupon-C6"]'],
          ['expired', '/my/coupon/list?status=expired', '[data-testid="coupon-C8"]'],
          ['checkout', '/order/submit', '[data-testid="checkout-coupons"]'],
        ]) {
          await b.page.goto(base + path);
          await b.page.locator(ready).first().waitFor({ timeout: 15_000 });
          await b.page.waitForTimeout(400);
          if (name === 'checkout') {
            await b.page.getByTestId('checkout-coupon-card').evaluate((el) => el.scrollIntoView({ block: 'center' }));
            await b.page.screenshot({ path: join(out, `${name}-${tag}.png`) });
            await b.page.getByTestId('checkout-coupons').click();
            await b.page.getByTestId('coupon-picker').waitFor();
            await b.page.waitForTimeout(500);
            await b.page.screenshot({ path: join(out, `picker-${tag}.png`) });
            continue;
          }
          await b.page.screenshot({ path: join(out, `${name}-${tag}.png`), fullPage: size.width < 500 });
          if (name === 'list') {
            await b.page.getByTestId('coupon-exchange-input').fill('NOT-A-CODE-1234');
            await b.page.route('**/api/v1/coupons/exchange', (route) => route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ errCode: '400', errMsg: lang === 'en' ? 'This code is not valid or has been used' : '兑换码无效或已使用', data: null }) }));
            await b.page.getByTestId('coupon-exchange-submit').click();
            await b.page.getByTestId('coupon-exchange-error').waitFor();
            await b.page.getByTestId('coupon-C1-transfer').click();
            await b.page.getByTestId('coupon-transfer-phone').fill('13900000002');
            await b.page.waitForTimeout(300);
            await b.page.screenshot({ path: join(out, `transfer-${tag}.png`) });
          }
        }
      } finally {
        if (b.problems.length) console.log(tag, b.problems);
        await b.close();
      }
      console.log('shot', tag);
    }
  }
} finally {
  await server?.stop();
}
