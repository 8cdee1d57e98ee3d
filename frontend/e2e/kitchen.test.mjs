// Browser test of the kitchen screen (issue 22): a customer orders in English a two-flavour
// pizza and a pizza with extras and a topping taken off, booked for tomorrow, cash on delivery,
// contactless, with an invoice; the tablet (10-inch landscape) shows the lines in zh as halves
// with the flags, prints the ticket (window.print stubbed), prints again by itself on accept at
// 58 mm, alerts when a second customer cancels, and lists both in today's history with search.
// Screenshots in zh and en UI, and of the ticket, are kept in e2e/artifacts/kitchen-*.png.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join } from 'node:path';
import { ARTIFACTS, call, openBrowser, register, shot } from './browser.mjs';
import { startServer } from './server.mjs';

const TABLET = { viewport: { width: 1280, height: 800 }, hasTouch: true };
const EN = { 'Accept-Language': 'en' };

/**
 * A customer's delivery order from SH001, cart and submit in English, booked for tomorrow's first
 * slot (the store is open whatever the hour of the run), paid on delivery so it reaches the store
 * at once: { token, orderNo }.
 */
async function orderInEnglish(base, phone, items, extra = {}) {
  const { token } = await register(base, phone);
  const store = await call(base, 'GET', '/stores/SH001');
  const address = await call(base, 'POST', '/addresses', {
    token,
    body: { name: 'Li Lei', phone: '13812345678', baseAddress: '上海市黄浦区西藏中路236号', houseNumber: '5楼501', lat: String(store.latitude ?? store.lat), lng: String(store.longitude ?? store.lng), cityName: '上海市' },
  });
  await call(base, 'POST', '/cart/items', { token, headers: EN, body: { storeCode: 'SH001', items } });
  const slots = await call(base, 'GET', '/orders/reservation/slots?storeCode=SH001&orderType=0', { token });
  const tomorrow = slots.days.find((d, i) => i > 0 && d.slots.length > 0);
  assert.ok(tomorrow, 'SH001 takes delivery bookings for tomorrow');
  const cart = await call(base, 'POST', '/orders/reservation', {
    token,
    headers: EN,
    body: { storeCode: 'SH001', orderType: 0, orderTime: tomorrow.slots[0], isBookOrder: true },
  });
  const order = await call(base, 'POST', '/orders', {
    token,
    headers: EN,
    body: {
      orderType: 0,
      isBookOrder: true,
      consignAddressId: address.id,
      paymentType: 'offline',
      tableware: 0,
      orderProductAmount: cart.priceOfProduct,
      activityAmount: cart.discountAmount,
      freightAmount: cart.deliveryFeeAfterPE,
      orderAmount: cart.orderAmount,
      ...extra,
    },
  });
  return { token, orderNo: order.orderNo };
}

/** The last ticket "printed": window.print is stubbed to keep the print sheet's HTML. */
const printed = (page) => page.evaluate(() => window.__printed ?? []);

/** Shows a printed ticket as the printer gets it (print media: only the sheet) and shoots it. */
async function shootTicket(page, html, name) {
  await page.evaluate((h) => {
    document.getElementById('e2e-ticket')?.remove();
    const holder = document.createElement('div');
    holder.id = 'e2e-ticket';
    holder.className = 'tab-print';
    holder.innerHTML = h;
    document.body.appendChild(holder);
  }, html);
  await page.emulateMedia({ media: 'print' });
  await page.locator('#e2e-ticket [data-testid="tablet-ticket"]').screenshot({ path: join(ARTIFACTS, `${name}.png`) });
  await page.emulateMedia({ media: 'screen' });
  await page.evaluate(() => document.getElementById('e2e-ticket')?.remove());
}

test('the kitchen reads zh halves and flags of an order placed in en, prints it, hears a cancel, and finds it in history', async () => {
  const server = await startServer();
  const base = server.base;
  const tablet = await openBrowser(TABLET);
  const tab = tablet.page;
  try {
    await tab.addInitScript(() => {
      window.__printed = [];
      window.print = () => {
        const sheet = document.querySelector('[data-testid="tablet-print-sheet"]');
        window.__printed.push({ html: sheet?.innerHTML ?? '', text: sheet?.innerText ?? '', paper: sheet?.querySelector('[data-paper]')?.getAttribute('data-paper') });
        window.dispatchEvent(new Event('afterprint'));
      };
    });
    await tab.goto(base + '/tablet/login');
    await tab.getByTestId('tablet-store-code').fill('SH001');
    await tab.getByTestId('tablet-staff-code').fill('manager');
    await tab.getByTestId('tablet-pin').fill('246810');
    await tab.getByTestId('tablet-login-submit').click();
    await tab.locator('[data-testid="tablet-connection"][data-status="connected"]').waitFor();

    // The order, in English: half spicy chicken, half margherita; a pizza with 2× an extra and
    // a topping taken off.
    const { orderNo } = await orderInEnglish(
      base,
      '13900008001',
      [
        { productCode: 'HF001', selection: { sizeCode: '14', pastryCode: 'CHEESE', flavorCodes: ['F-SPICY', 'F-MARGHERITA'] } },
        { productCode: 'DR001', quantity: 2 },
      ],
      { contactless: true, remark: 'Please ring twice', tableware: 2, isNeedInvoice: true,
        invoice: { kind: 'company', title: 'Acme Ltd', taxNo: '91310000MA1FL8XQ3K', email: 'ap@acme.com' } },
    );

    const card = tab.getByTestId(`tablet-order-${orderNo}`);
    await card.waitFor({ timeout: 10_000 });
    const lines = card.getByTestId('tablet-line');
    const half = lines.filter({ hasText: '经典双拼比萨' });
    await half.waitFor();
    assert.match(await half.innerText(), /左半：香辣鸡肉/);
    assert.match(await half.innerText(), /右半：玛格丽特/);
    assert.match(await half.innerText(), /14英寸 · 芝心/);
    assert.doesNotMatch(await lines.allInnerTexts().then((t) => t.join('\n')), /Half|Spicy|Margherita|inch|Crust/);
    assert.match(await lines.filter({ hasText: '可乐' }).or(lines.nth(1)).first().innerText(), /2×/);
    assert.match(await card.getByTestId('tablet-flag-cash').innerText(), /货到付款 收¥\d+\.\d\d/);
    await card.getByTestId('tablet-flag-contactless').waitFor();
    assert.match(await card.getByTestId('tablet-flag-book').innerText(), /^预约 \d\d-\d\d \d\d:\d\d$/);
    await card.getByTestId('tablet-flag-invoice').waitFor();
    assert.equal(await card.getByTestId('tablet-flag-tableware').innerText(), '餐具 2 份');
    assert.match(await card.getByTestId('tablet-remark').innerText(), /Please ring twice/);
    assert.doesNotMatch(await card.getByTestId('tablet-remark').innerText(), /无接触/);
    assert.equal(await tab.getByTestId('tablet-alarm').innerText(), '1 个新订单待接单');
    await shot(tab, 'kitchen-01-board-zh');

    // The detail, and a ticket from it.
    await card.click();
    await tab.getByTestId('tablet-detail').waitFor();
    await tab.getByTestId('tablet-detail').getByTestId('tablet-flag-invoice').waitFor();
    await shot(tab, 'kitchen-02-detail-zh');
    await tab.getByTestId('tablet-print').click();
    await tab.waitForFunction(() => window.__printed.length === 1);
    const [ticket] = await printed(tab);
    assert.equal(ticket.paper, '80');
    for (const text of ['人民广场旗舰店', orderNo.slice(-4), '外送', '左半：香辣鸡肉', '右半：玛格丽特', '货到付款', '无接触配送', '需开发票', '备注：Please ring twice']) {
      assert.ok(ticket.text.includes(text), `the ticket says ${text}: ${ticket.text}`);
    }
    assert.match(ticket.text, /预约 \d\d-\d\d \d\d:\d\d/);
    await tab.getByTestId('tablet-print-sheet').waitFor({ state: 'detached' });
    await shootTicket(tab, ticket.html, 'kitchen-03-ticket-80mm');
    await tab.keyboard.press('Escape');

    // 58 mm and print on accept: accepting prints by itself.
    await tab.getByTestId('tablet-print-open').click();
    await tab.getByTestId('tablet-paper-58').check();
    await tab.getByTestId('tablet-autoprint').check();
    await shot(tab, 'kitchen-04-print-settings-zh');
    await tab.keyboard.press('Escape');
    assert.deepEqual(await tab.evaluate(() => JSON.parse(localStorage.getItem('pz:tablet.print')).v), { paper: '58', autoPrint: true });
    await tab.getByTestId(`tablet-accept-${orderNo}`).click();
    await tab.waitForFunction(() => window.__printed.length === 2);
    const auto = (await printed(tab))[1];
    assert.equal(auto.paper, '58');
    assert.ok(auto.text.includes('左半：香辣鸡肉'));
    await shootTicket(tab, auto.html, 'kitchen-05-ticket-58mm');

    // A second customer cancels an order the store holds: the alert, then the card is gone.
    const second = await orderInEnglish(base, '13900008002', [{ productCode: 'SD001', quantity: 2 }]);
    const secondCard = tab.getByTestId(`tablet-order-${second.orderNo}`);
    await secondCard.waitFor({ timeout: 10_000 });
    await call(base, 'POST', `/orders/${second.orderNo}/cancel`, { token: second.token, body: {} });
    const alert = tab.getByTestId('tablet-cancel-alert');
    await alert.waitFor({ timeout: 10_000 });
    assert.equal(await alert.getAttribute('data-order'), second.orderNo);
    assert.match(await alert.innerText(), new RegExp(`#${second.orderNo.slice(-4)}`));
    await secondCard.waitFor({ state: 'detached' });
    await shot(tab, 'kitchen-06-cancel-alert-zh');
    await tab.getByTestId('tablet-cancel-ack').click();
    await alert.waitFor({ state: 'detached' });

    // The first order through every stage to done.
    for (let i = 0; i < 5; i += 1) {
      const advance = tab.getByTestId(`tablet-advance-${orderNo}`);
      if (!(await advance.isVisible().catch(() => false))) break;
      const before = await card.getAttribute('data-progress');
      await advance.click();
      await tab.waitForFunction(([no, p]) => document.querySelector(`[data-testid="tablet-order-${no}"]`)?.getAttribute('data-progress') !== p, [orderNo, before]);
    }
    await card.waitFor({ state: 'detached' });

    // History: both, newest first; a search by the order's tail finds one.
    await tab.getByTestId('tablet-history-open').click();
    const history = tab.getByTestId('tablet-history');
    await history.getByTestId(`tablet-history-${orderNo}`).waitFor();
    await history.getByTestId(`tablet-history-${second.orderNo}`).waitFor();
    assert.match(await history.getByTestId(`tablet-history-${second.orderNo}`).innerText(), /顾客取消/);
    assert.match(await history.getByTestId(`tablet-history-${orderNo}`).innerText(), /已完成/);
    await history.getByTestId(`tablet-history-${orderNo}`).getByRole('button').first().click();
    await shot(tab, 'kitchen-07-history-zh');
    await tab.getByTestId('tablet-history-search').fill(orderNo.slice(-6));
    await tab.getByTestId('tablet-history-go').click();
    await history.locator('[data-testid="tablet-history-count"][data-count="1"]').waitFor();
    assert.equal(await history.getByTestId(`tablet-history-${second.orderNo}`).count(), 0);
    await tab.keyboard.press('Escape');

    // The same screens in the en UI: the words are English, the kitchen's names stay zh.
    await tab.getByRole('button', { name: 'English' }).click();
    await tab.getByTestId('tablet-history-open').getByText("Today's orders").waitFor();
    const third = await orderInEnglish(
      base,
      '13900008003',
      [{ productCode: 'HF001', selection: { sizeCode: '12', flavorCodes: ['F-PEPPERONI', 'F-VEGGIE'] } }],
      { tableware: 1 },
    );
    const thirdCard = tab.getByTestId(`tablet-order-${third.orderNo}`);
    await thirdCard.waitFor({ timeout: 10_000 });
    assert.match(await thirdCard.innerText(), /Left half: 意式香肠/);
    assert.equal(await thirdCard.getByTestId('tablet-flag-tableware').innerText(), '1 set of tableware');
    assert.equal(await tab.getByTestId('tablet-alarm').innerText(), '1 new order to accept');
    await shot(tab, 'kitchen-08-board-en');
    await thirdCard.click();
    await shot(tab, 'kitchen-09-detail-en');
    await tab.keyboard.press('Escape');
    await tab.getByTestId('tablet-history-open').click();
    await tab.getByTestId('tablet-history').getByTestId(`tablet-history-${orderNo}`).waitFor();
    await shot(tab, 'kitchen-10-history-en');

    assert.deepEqual(tablet.problems, []);
  } finally {
    await tablet.close();
    await server.stop();
  }
});
