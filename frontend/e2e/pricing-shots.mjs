// Screenshots of the price breakdown (issue 20) on the cart, checkout, order page and tablet, at
// 390×844 and 1280×800, in zh and en, into $OUT (default /tmp/pricing-shots). Needs a running
// server with the built app: BASE=http://127.0.0.1:18083 node e2e/pricing-shots.mjs
import { mkdirSync } from 'node:fs';
import { call, logIn, openBrowser, register } from './browser.mjs';

const base = process.env.BASE ?? 'http://127.0.0.1:18083';
const out = process.env.OUT ?? '/tmp/pricing-shots';
mkdirSync(out, { recursive: true });
const sizes = [{ width: 390, height: 844 }, { width: 1280, height: 800 }];
const langs = ['zh', 'en'];
const phone = `139${String(Date.now()).slice(-8)}`;

const login = await register(base, phone);
const token = login.token;
const store = await call(base, 'GET', '/stores/SH001');
await call(base, 'POST', '/addresses', {
  token,
  body: { name: '张三', phone: '13812345678', baseAddress: '上海市黄浦区西藏中路236号', houseNumber: '5楼501', lat: Number(store.lat ?? store.latitude).toFixed(6), lng: Number(store.lng ?? store.longitude).toFixed(6), cityName: '上海市' },
});
await call(base, 'POST', '/cart/items', {
  token,
  body: { storeCode: 'SH001', items: [{ productCode: 'PZ001', selection: { sizeCode: '14', quantity: 2 } }, { productCode: 'DR001', quantity: 2 }] },
});
const slots = await call(base, 'GET', '/orders/reservation/slots?storeCode=SH001&orderType=0', { token });
const day = slots.days.find((d, i) => i > 0 && d.slots.length > 0);
const cart = await call(base, 'POST', '/orders/reservation', { token, body: { storeCode: 'SH001', orderType: 0, orderTime: day.slots[4], isBookOrder: true } });
console.log('cart', cart.orderAmount, JSON.stringify(cart.breakdown));

async function each(fn) {
  for (const size of sizes) {
    for (const lang of langs) {
      const b = await openBrowser({ viewport: size });
      await logIn(b.page, base, login);
      await b.page.evaluate((l) => localStorage.setItem('pz:lang', JSON.stringify({ v: l, e: null })), lang);
      try {
        await fn(b.page, `${size.width}-${lang}`);
      } finally {
        if (b.problems.length) console.log(size.width, lang, b.problems);
        await b.close();
      }
    }
  }
}

await each(async (page, tag) => {
  await page.goto(`${base}/menu`);
  await page.getByTestId('cart-count').waitFor();
  await page.waitForTimeout(800);
  await page.screenshot({ path: `${out}/menu-${tag}.png` });
  for (let i = 0; i < 3 && (await page.locator('.dlg-mask').count()) > 0; i++) {
    const dlg = page.locator('.dlg-mask');
    console.log(tag, 'dialog:', (await dlg.innerText()).slice(0, 120).replace(/\n/g, ' | '));
    const no = page.getByTestId('marketing-no-remind');
    if (await no.count()) await no.check();
    await dlg.locator('button').first().click();
    await page.waitForTimeout(400);
  }
  await page.getByTestId('cart-bar-open').click();
  await page.getByTestId('cart-breakdown').waitFor();
  await page.waitForTimeout(400);
  await page.screenshot({ path: `${out}/cart-${tag}.png` });
  await page.getByTestId('cart-breakdown').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${out}/cart-bill-${tag}.png` });
  await page.goto(`${base}/order/submit`);
  await page.getByTestId('checkout-amounts').waitFor();
  await page.getByTestId('checkout-amounts').scrollIntoViewIfNeeded();
  await page.waitForTimeout(400);
  await page.screenshot({ path: `${out}/checkout-${tag}.png` });
});

const fresh = await call(base, 'GET', '/cart', { token });
const address = (await call(base, 'GET', '/addresses', { token }))[0].id;
const res = await fetch(`${base}/api/v1/orders`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', Authorization: `Bearer ${token}`, 'X-Channel-Id': '2', 'Idempotency-Key': `shots-${phone}` },
  body: JSON.stringify({
    orderType: 0, isBookOrder: true, plannedDeliverTime: fresh.orderTime, consignAddressId: address, remark: '', tableware: 1,
    paymentType: 'offline', orderProductAmount: fresh.priceOfProduct, activityAmount: fresh.discountAmount,
    freightAmount: fresh.deliveryFeeAfterPE, orderAmount: fresh.orderAmount, shoppingCarVersion: fresh.shoppingCarVersion,
  }),
});
const order = await res.json();
console.log('order', order.errCode, order.errMsg, order.data?.orderNo);
const orderNo = order.data.orderNo;

await each(async (page, tag) => {
  await page.goto(`${base}/order/info?orderNo=${orderNo}`);
  await page.getByTestId('order-breakdown').waitFor();
  await page.getByTestId('order-breakdown').scrollIntoViewIfNeeded();
  await page.waitForTimeout(400);
  await page.screenshot({ path: `${out}/order-${tag}.png` });
});

const staff = await call(base, 'POST', '/tablet/login', { body: { storeCode: 'SH001', staffCode: 'manager', pin: '246810' } });
await each(async (page, tag) => {
  await page.evaluate((s) => localStorage.setItem('pz:tablet:session', JSON.stringify({ v: s, e: null })), staff);
  await page.goto(`${base}/tablet`);
  await page.getByTestId(`tablet-order-${orderNo}`).click();
  await page.getByTestId('tablet-breakdown').waitFor();
  await page.waitForTimeout(400);
  await page.screenshot({ path: `${out}/tablet-${tag}.png` });
});
console.log('done');
