// Browser test of coupons (issue 24): a visitor reads the coupon page's visitor state; a new
// customer on a phone (zh, 390×844) collects an offer, is refused a wrong code with the one
// refusal text, exchanges a demo code, and sees both; the checkout applies the best coupon by
// itself, the picker shows each coupon's saving or why not, the customer pays in the sandbox and
// the coupon is used; cancelling the paid order gives it back (available again). Then the
// customer gives a coupon to another account by phone (the confirmation masks it), and that
// customer (en, 1280×800) sees it in their list; a product coupon chosen at checkout becomes a
// coupon item of the order. Screenshots in e2e/artifacts/coupon-*.png.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, checkoutAndPay, logIn, openBrowser, register, shot } from './browser.mjs';
import { startServer } from './server.mjs';

/** A demo exchange code of the seeds (README "Demo"). */
const DEMO_CODE = process.env.COUPON_DEMO_CODE ?? 'PIZZA-2026-WELCOME-01';
/** CJK ideographs, CJK punctuation, full-width forms: none on an English page. */
const CJK = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]+/g;
/** A Latin word: none on a Chinese page but the language switch's. */
const LATIN = /[A-Za-z]{2,}/g;

const coupons = (base, token, status = 'available', lang = 'zh') => call(base, 'GET', `/coupons?status=${status}`, { token, headers: { 'Accept-Language': lang } });

/** The words of the other language on the page (the order numbers and codes are digits and capitals). */
async function otherLanguage(page, lang) {
  const text = await page.evaluate(() => {
    const hints = [...document.querySelectorAll('[placeholder]')].map((e) => e.getAttribute('placeholder')).join(' ');
    return `${document.body.innerText} ${hints}`;
  });
  if (lang === 'en') return [...new Set(text.match(CJK) ?? [])].filter((w) => w !== '中文');
  // Coupon and exchange codes are capitals and digits; words are what would be English.
  const words = text.replace(/\b[A-Z0-9][A-Z0-9_-]{3,}\b/g, ' ').match(LATIN) ?? [];
  return [...new Set(words)].filter((w) => !['English', 'Language', 'EN'].includes(w));
}

/** A pickup cart at SH001 for tomorrow's first slot that reaches ¥100 after promotions: two 12" pizzas and two colas. */
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

/** Waits until `check` answers true (the give-back outbox runs on its own). */
async function eventually(check, what, ms = 15_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    assert.ok(Date.now() < deadline, `timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

test('collect, exchange a code, apply at checkout, pay, cancel and get it back; give one to another customer', async () => {
  const server = await startServer({ PIZZA__LOYALTY__SWEEP_MS: '500' });
  const base = server.base;
  const phone = await openBrowser();
  const { page, problems } = phone;
  let desk = null;
  try {
    // A visitor reads what logging in gives here, with the button to log in.
    await page.goto(base + '/my/coupon/list');
    await page.getByTestId('visitor-state').waitFor();
    assert.match(await page.getByTestId('visitor-state').innerText(), /登录后查看、领取和兑换优惠券/);
    await shot(page, 'coupon-01-visitor');

    const alice = await register(base, '13900024001');
    const bob = await register(base, '13900024002');
    const token = alice.token;
    await logIn(page, base, alice);
    await page.goto(base + '/my/coupon/list');
    await page.getByTestId('coupon-empty').waitFor();
    await page.getByTestId('coupon-offers').waitFor();
    assert.deepEqual(await otherLanguage(page, 'zh'), []);
    await shot(page, 'coupon-02-empty-offers');

    // Collect the storewide cash-off offer (满100减20).
    const offers = await call(base, 'GET', '/coupons/offers', { token });
    const cashOffer = offers.find((o) => o.ruleId === 'CP_CASH_100_20' && o.canCollect);
    assert.ok(cashOffer, `a cash-off offer to collect: ${JSON.stringify(offers.map((o) => [o.ruleId, o.kind, o.canCollect]))}`);
    await page.getByTestId(`offer-${cashOffer.ruleId}-collect`).click();
    await page.getByText(`领取成功：${cashOffer.name}`).waitFor();
    const collected = (await coupons(base, token)).list.find((c) => c.templateCode === cashOffer.ruleId);
    assert.ok(collected, 'the collected coupon is the customer’s');
    await page.getByTestId(`coupon-${collected.couponCode}`).waitFor();
    assert.match(await page.getByTestId(`coupon-${collected.couponCode}`).innerText(), new RegExp(cashOffer.ruleText));

    // A wrong code: the one refusal text. Then the demo code.
    await page.getByTestId('coupon-exchange-input').fill('NOT-A-REAL-CODE-0000');
    await page.getByTestId('coupon-exchange-submit').click();
    assert.equal(await page.getByTestId('coupon-exchange-error').innerText(), '兑换码无效或已使用');
    await page.getByTestId('coupon-exchange-input').fill('SHORT');
    await page.getByTestId('coupon-exchange-submit').click();
    await page.getByTestId('coupon-exchange-error').filter({ hasText: '兑换码无效或已使用' }).waitFor();
    await shot(page, 'coupon-03-exchange-refused');
    await page.getByTestId('coupon-exchange-input').fill(DEMO_CODE);
    await page.getByTestId('coupon-exchange-submit').click();
    await page.getByText(/^兑换成功：/).waitFor();
    const mine = (await coupons(base, token)).list;
    const exchanged = mine.find((c) => c.couponCode !== collected.couponCode);
    assert.ok(exchanged, 'the code gave a coupon');
    await page.getByTestId(`coupon-${exchanged.couponCode}`).waitFor();
    assert.equal(await page.locator('[data-testid="coupon-list"] > li').count(), mine.length);
    await shot(page, 'coupon-04-list');

    // Checkout: the server applies the best combination by itself. A free-delivery coupon does
    // nothing for a pickup order: the picker says why.
    const fee = await call(base, 'POST', '/coupons/collect/CP_FREE_DELIVERY', { token });
    // A second coupon of the same stacking group (CASH): only one of the two goes on an order.
    const small = await call(base, 'POST', '/coupons/collect/CP_CASH_50_8', { token });
    await bigCart(base, token);
    await page.goto(base + '/order/submit');
    const row = page.getByTestId('checkout-coupons');
    await page.locator('[data-testid="checkout-coupons"]:not([data-applied="0"])').waitFor();
    const cart = await call(base, 'GET', '/cart?pageName=orderSubmit', { token });
    assert.ok(cart.osCoupons.includes(collected.couponCode), `the cash-off coupon applies: ${JSON.stringify(cart.osCoupons)}`);
    assert.match(await row.innerText(), /-¥20\.00/);
    await page.getByTestId('checkout-amounts').scrollIntoViewIfNeeded();
    await shot(page, 'coupon-05-checkout');
    await row.click();
    const picker = page.getByTestId('coupon-picker');
    await picker.waitFor();
    assert.equal(await page.getByTestId(`coupon-option-${collected.couponCode}`).getAttribute('aria-checked'), 'true');
    assert.match(await page.getByTestId(`coupon-option-${fee.couponCode}-why`).innerText(), /外送/);
    assert.ok(await page.getByTestId(`coupon-option-${fee.couponCode}`).isDisabled(), 'a coupon that cannot apply cannot be chosen');
    assert.match(await page.getByTestId('coupon-mutex').innerText(), new RegExp(`${cashOffer.name}与${small.name.replace(/[()（）]/g, '.')}不可同时使用|${small.name.replace(/[()（）]/g, '.')}与${cashOffer.name}不可同时使用`));
    await shot(page, 'coupon-06-picker');
    // Choosing the other one of the group replaces the first (the server's answer).
    await page.getByTestId(`coupon-option-${small.couponCode}`).click();
    await page.locator(`[data-testid="coupon-option-${small.couponCode}"][aria-checked="true"]`).waitFor();
    assert.equal(await page.getByTestId(`coupon-option-${collected.couponCode}`).getAttribute('aria-checked'), 'false');
    assert.deepEqual((await call(base, 'GET', '/cart?pageName=orderSubmit', { token })).osCoupons, [small.couponCode]);
    await page.getByTestId('coupon-auto').click();
    await page.locator(`[data-testid="coupon-option-${collected.couponCode}"][aria-checked="true"]`).waitFor();
    // No coupon: the amount goes up by what it saved; the best again brings it back.
    const withCoupon = await page.getByTestId('checkout-total').getAttribute('data-amount');
    await page.getByTestId('coupon-none').click();
    await page.locator('[data-testid="checkout-coupons"][data-applied="0"]').waitFor();
    const without = await page.getByTestId('checkout-total').getAttribute('data-amount');
    const fen = (s) => Math.round(Number(s.replace('¥', '')) * 100);
    assert.equal(fen(without) - fen(withCoupon), 2000, `${without} − ${withCoupon}`);
    await page.getByTestId('coupon-auto').click();
    await page.locator(`[data-testid="coupon-option-${collected.couponCode}"][aria-checked="true"]`).waitFor();
    await page.getByTestId('coupon-picker-done').click();
    assert.equal(await page.getByTestId('checkout-total').getAttribute('data-amount'), withCoupon);

    // Pay in the sandbox: locked while the order waits, used once paid.
    const orderNo = await checkoutAndPay(page, base, {
      beforePay: async () => {
        const held = (await coupons(base, token)).list.find((c) => c.couponCode === collected.couponCode);
        assert.equal(held?.status, 'locked', 'the order holds the coupon');
      },
    });
    const used = await coupons(base, token, 'used');
    assert.ok(used.list.some((c) => c.couponCode === collected.couponCode && c.status === 'used'), 'used once paid');
    await page.goto(base + '/my/coupon/list?status=used');
    await page.getByTestId(`coupon-${collected.couponCode}`).waitFor();
    await shot(page, 'coupon-07-used');

    // The customer cancels the paid order: refunded, and the coupon comes back.
    await page.goto(base + `/order/status?orderNo=${orderNo}`);
    await page.getByTestId('order-cancel').click();
    await page.getByRole('dialog').getByRole('button', { name: '取消订单' }).click();
    await page.locator('[data-testid="order-state"]').filter({ hasText: '取消' }).waitFor({ timeout: 10_000 });
    await eventually(async () => (await coupons(base, token)).list.some((c) => c.couponCode === collected.couponCode && c.status === 'returned'), 'the coupon is given back');
    await page.goto(base + '/my/coupon/list');
    await page.locator(`[data-testid="coupon-${collected.couponCode}"][data-status="returned"]`).waitFor();
    await shot(page, 'coupon-08-back');

    // Give the exchanged coupon to Bob: the confirmation masks his phone.
    await page.getByTestId(`coupon-${exchanged.couponCode}-transfer`).click();
    await page.getByTestId('coupon-transfer-phone').fill('13900024001');
    await page.getByRole('button', { name: '确认转赠' }).click();
    await page.getByTestId('coupon-transfer-error').waitFor();
    await page.getByTestId('coupon-transfer-phone').fill('13900024002');
    await shot(page, 'coupon-09-transfer');
    await page.getByRole('button', { name: '确认转赠' }).click();
    assert.equal(await page.getByTestId('coupon-transfer-done').innerText(), '已转赠给 139****4002');
    await shot(page, 'coupon-10-transferred');
    await page.getByRole('button', { name: '我知道了' }).click();
    await page.getByTestId(`coupon-${exchanged.couponCode}`).waitFor({ state: 'detached' });
    const given = await coupons(base, token, 'used');
    assert.ok(given.list.some((c) => c.couponCode === exchanged.couponCode && c.status === 'transferred'));

    // Bob, in English on a desktop, has it (a new code of his own).
    desk = await openBrowser({ viewport: { width: 1280, height: 800 } });
    await logIn(desk.page, base, bob);
    await desk.page.evaluate(() => localStorage.setItem('pz:lang', JSON.stringify({ v: 'en', e: null })));
    await desk.page.goto(base + '/my/coupon/list');
    const bobs = (await coupons(base, bob.token, 'available', 'en')).list;
    assert.equal(bobs.length, 1, 'Bob has the coupon');
    assert.equal(bobs[0].templateCode, exchanged.templateCode);
    assert.notEqual(bobs[0].couponCode, exchanged.couponCode, 'under a new code');
    await desk.page.getByTestId(`coupon-${bobs[0].couponCode}`).waitFor();
    assert.deepEqual(await otherLanguage(desk.page, 'en'), []);
    await shot(desk.page, 'coupon-11-en-1280-received');

    // Alice's pages in English on the desktop, and Bob's in Chinese on the phone: each in a
    // browser of its own (a running page would write its own session back over the new one).
    await desk.close();
    desk = await openBrowser({ viewport: { width: 1280, height: 800 } });
    await logIn(desk.page, base, alice);
    await desk.page.evaluate(() => localStorage.setItem('pz:lang', JSON.stringify({ v: 'en', e: null })));
    await desk.page.goto(base + '/my/coupon/list');
    await desk.page.getByTestId(`coupon-${collected.couponCode}`).waitFor();
    assert.deepEqual(await otherLanguage(desk.page, 'en'), []);
    await shot(desk.page, 'coupon-12-en-1280-list');
    // A product coupon (¥9.9 wedges) chosen in the picker becomes a coupon item of the order.
    const side = await call(base, 'POST', '/coupons/collect/CP_SIDE_9_9', { token });
    await bigCart(base, token);
    await desk.page.goto(base + '/order/submit');
    await desk.page.locator('[data-testid="checkout-coupons"]:not([data-applied="0"])').waitFor();
    await desk.page.getByTestId('checkout-coupons').click();
    await desk.page.getByTestId('coupon-picker').waitFor();
    await desk.page.getByTestId(`coupon-option-${side.couponCode}`).click();
    await desk.page.locator(`[data-testid="coupon-option-${side.couponCode}"][aria-checked="true"]`).waitFor();
    assert.deepEqual(await otherLanguage(desk.page, 'en'), []);
    await shot(desk.page, 'coupon-13-en-1280-picker');
    await desk.page.getByTestId('coupon-picker-done').click();
    const item = desk.page.getByTestId(`cart-coupon-item-${side.couponCode}`);
    await item.waitFor();
    assert.match(await item.innerText(), /Coupon[\s\S]*¥9\.90/);
    const withItem = await call(base, 'GET', '/cart?pageName=orderSubmit', { token });
    assert.deepEqual(withItem.couponItems.map((i) => i.couponCode), [side.couponCode]);
    await item.scrollIntoViewIfNeeded();
    await shot(desk.page, 'coupon-13b-en-1280-coupon-item');
    const bobPhone = await openBrowser();
    try {
      await logIn(bobPhone.page, base, bob);
      await bobPhone.page.goto(base + '/my/coupon/list');
      await bobPhone.page.getByTestId(`coupon-${bobs[0].couponCode}`).waitFor();
      assert.deepEqual(await otherLanguage(bobPhone.page, 'zh'), []);
      await shot(bobPhone.page, 'coupon-14-zh-received');
      assert.deepEqual(bobPhone.problems, []);
    } finally {
      await bobPhone.close();
    }

    assert.deepEqual(problems, []);
    assert.deepEqual(desk.problems, []);
  } finally {
    await phone.close();
    await desk?.close();
    await server.stop();
  }
});
