// Screenshots of the member privileges (issue 34 item 10) against the real server, at 390×844 and
// 1280×800 in zh and en, into $OUT (default e2e/artifacts/privilege-shots): the member centre of
// a member who reached the top level with a birthday this month (the treat and this month's two
// free deliveries issued by the server, priority making), and the store tablet's queue where
// that member's order, placed after an ordinary one, comes first with its 优先 / Priority badge.
//   npm run build && node e2e/privilege-shots.mjs      (starts ../target/debug/pizza-order itself)
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, call, logIn, openBrowser, register } from './browser.mjs';
import { startServer } from './server.mjs';

const out = process.env.OUT ?? join(ARTIFACTS, 'privilege-shots');
mkdirSync(out, { recursive: true });
const sizes = [{ width: 390, height: 844 }, { width: 1280, height: 800 }];
const langs = ['zh', 'en'];
/** Reservations repeated within 380 ms are refused (spec ordering §5). */
const pause = () => new Promise((r) => setTimeout(r, 450));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** This month in China time: the birthday month of the member shown. */
const chinaMonth = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai', month: '2-digit' }).format(new Date());

/** A registered customer with an address in the flagship's area (and a birthday, if given). */
async function customer(base, phone, birthday) {
  const login = await register(base, phone);
  const token = login.token;
  if (birthday) await call(base, 'PATCH', '/me', { token, body: { name: '李雷', email: 'lei@example.cn', gender: 1, birthday } });
  const store = await call(base, 'GET', '/stores/SH001');
  const address = await call(base, 'POST', '/addresses', {
    token,
    body: { name: '李雷', phone: '13812345678', baseAddress: '上海市黄浦区西藏中路236号', houseNumber: '5楼501', cityName: '上海市', sex: 'female', tag: 'home', lat: String(store.latitude ?? store.lat), lng: String(store.longitude ?? store.lng) },
  });
  return { login, token, addressId: address.id };
}

async function joinClub(base, token) {
  const { version } = await call(base, 'GET', '/members/agreement');
  await call(base, 'POST', '/members/join', { token, body: { agreementVersion: version } });
}

/** A cash-on-delivery delivery booked for tomorrow (the store takes it whatever the hour): its number. */
async function codOrder(base, c, items) {
  await call(base, 'POST', '/cart/items', { token: c.token, body: { storeCode: 'SH001', items } });
  const slots = await call(base, 'GET', '/orders/reservation/slots?storeCode=SH001&orderType=0', { token: c.token });
  const tomorrow = slots.days.find((d, j) => j > 0 && d.slots.length > 0);
  await pause();
  const cart = await call(base, 'POST', '/orders/reservation', { token: c.token, body: { storeCode: 'SH001', orderType: 0, orderTime: tomorrow.slots[0], isBookOrder: true } });
  const order = await call(base, 'POST', '/orders', {
    token: c.token,
    body: {
      orderType: 0,
      isBookOrder: true,
      consignAddressId: c.addressId,
      paymentType: 'offline',
      tableware: 1,
      remark: '',
      orderProductAmount: cart.priceOfProduct,
      activityAmount: cart.discountAmount,
      freightAmount: cart.deliveryFeeAfterPE,
      orderAmount: cart.orderAmount,
      osCoupons: cart.osCoupons,
    },
  });
  return order.orderNo;
}

/** The tablet accepts the order and moves it to done. */
async function complete(base, staff, orderNo) {
  let { order } = await call(base, 'POST', `/tablet/orders/${orderNo}/accept`, { token: staff, body: {} });
  for (let i = 0; i < 8 && order.state !== 8; i += 1) {
    ({ order } = await call(base, 'POST', `/tablet/orders/${orderNo}/advance`, { token: staff, body: { from: order.progress } }));
  }
  assert.equal(order.state, 8, `order ${orderNo} completed`);
}

async function until(what, check) {
  for (let i = 0; i < 100; i += 1) {
    const v = await check();
    if (v) return v;
    await sleep(200);
  }
  throw new Error(`never: ${what}`);
}

const server = await startServer({ PIZZA__LOYALTY__SWEEP_MS: '500' });
const base = server.base;
try {
  const staff = (await call(base, 'POST', '/tablet/login', { body: { storeCode: 'SH001', staffCode: 'manager', pin: '246810' } })).token;
  // The member: born this month; a completed order of ¥5,000+ makes them 黑金会员 (level 4).
  const black = await customer(base, '13512399001', `1990-${chinaMonth}-15`);
  await joinClub(base, black.token);
  const big = await codOrder(base, black, [{ productCode: 'PZ001', selection: { sizeCode: '12' }, quantity: 80 }]);
  await complete(base, staff, big);
  const me = await until('level 4', async () => {
    const m = await call(base, 'GET', '/members/me', { token: black.token });
    return m.loyaltyLevel === 4 && m.privileges.every((p) => p.code !== 'delivery' || /2/.test(p.status ?? '')) ? m : null;
  });
  console.log(JSON.stringify(me.privileges, null, 1));

  // An ordinary customer orders first, the member a minute later: the member's order leads.
  const plain = await customer(base, '13512399002', null);
  const first = await codOrder(base, plain, [{ productCode: 'PZ002' }, { productCode: 'DR001', quantity: 2 }]);
  const later = await codOrder(base, black, [{ productCode: 'PZ001' }, { productCode: 'SD001' }]);
  const queue = await call(base, 'GET', '/tablet/orders', { token: staff });
  assert.deepEqual(
    queue.map((o) => [o.orderNo, o.priority]),
    [
      [later, true],
      [first, false],
    ],
  );

  for (const lang of langs) {
    for (const size of sizes) {
      const tag = `${size.width}x${size.height}-${lang}`;
      // The member centre (the whole page: the privileges sit below the entries).
      const customerBrowser = await openBrowser({ viewport: size });
      try {
        const page = customerBrowser.page;
        await logIn(page, base, black.login);
        await page.evaluate((l) => localStorage.setItem('pz:lang', JSON.stringify({ v: l, e: null })), lang);
        await page.goto(base + '/my/member/index');
        await page.getByTestId('member-privileges').waitFor();
        await page.waitForLoadState('networkidle');
        await page.screenshot({ path: join(out, `member-centre-${tag}.png`), fullPage: true });
        await page.getByTestId('member-privileges').screenshot({ path: join(out, `member-privileges-${tag}.png`) });
      } finally {
        await customerBrowser.close();
      }
      // The tablet: the queue with the priority card first.
      const tabletBrowser = await openBrowser({ viewport: size, hasTouch: true });
      try {
        const tab = tabletBrowser.page;
        await tab.goto(base + '/tablet/login');
        await tab.evaluate((l) => localStorage.setItem('pz:lang', JSON.stringify({ v: l, e: null })), lang);
        await tab.reload();
        await tab.getByTestId('tablet-store-code').fill('SH001');
        await tab.getByTestId('tablet-staff-code').fill('manager');
        await tab.getByTestId('tablet-pin').fill('246810');
        await tab.getByTestId('tablet-login-submit').click();
        const card = tab.getByTestId(`tablet-order-${later}`);
        await card.waitFor();
        await tab.getByTestId(`tablet-priority-${later}`).waitFor();
        await tab.screenshot({ path: join(out, `tablet-queue-${tag}.png`) });
        await card.screenshot({ path: join(out, `tablet-card-${tag}.png`) });
      } finally {
        await tabletBrowser.close();
      }
    }
  }
  console.log(`screenshots in ${out}`);
} finally {
  await server.stop();
}
