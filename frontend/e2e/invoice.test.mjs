// Browser test of the invoice (issue 22): a customer ticks "need invoice" at checkout, fills a
// company invoice (the tax number typed in lower case is raised), pays at the sandbox cashier and
// sees the invoice on the order page; the server kept it on the order. Screenshots of the form and
// the order at 390×844 in zh and at 1280×800 in en.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ARTIFACTS, call, customerWithCart, logIn, openBrowser, shot } from './browser.mjs';
import { startServer } from './server.mjs';

const CODE = '91310000MA1FL8XQ3K';
const LATER_EN = 'Not now';
let server;

before(async () => {
  server = await startServer();
});

after(async () => {
  await server?.stop();
});

async function orderWithInvoice(phone, { viewport, lang, prefix }) {
  const login = await customerWithCart(server.base, phone);
  const { page, problems, close } = await openBrowser({ viewport });
  try {
    await logIn(page, server.base, login);
    await page.evaluate((l) => localStorage.setItem('pz:lang', JSON.stringify({ v: l, e: null })), lang);
    await page.goto(server.base + '/order/submit');
    await page.getByTestId('cart-items').waitFor();
    const marketing = page.getByTestId('marketing-dialog');
    if (await marketing.waitFor({ timeout: 4000 }).then(() => true, () => false)) {
      await page.getByTestId('marketing-no-remind').check();
      await page.getByRole('button', { name: lang === 'en' ? LATER_EN : '暂不开启' }).click();
      await marketing.waitFor({ state: 'detached' });
    }
    await page.getByTestId('checkout-invoice').click();
    await page.getByTestId('invoice-kind-company').click();
    await page.getByTestId('invoice-title').fill('上海某某科技有限公司');
    await page.getByTestId('invoice-taxno').fill('91310000ma1fl8xq3');
    await page.getByTestId('invoice-email').click();
    await page.getByTestId('invoice-error-taxNo').waitFor();
    await page.getByTestId('invoice-email').fill('fp@example.cn');
    await page.getByTestId('invoice-form').scrollIntoViewIfNeeded();
    await shot(page, `${prefix}-checkout-form-error`);
    await page.getByTestId('invoice-taxno').fill(CODE.toLowerCase());
    await page.getByTestId('invoice-error-taxNo').waitFor({ state: 'detached' });
    await shot(page, `${prefix}-checkout-form`);

    await page.getByTestId('checkout-method-alipay_wap').click();
    await page.getByTestId('checkout-submit').click();
    await page.waitForURL('**/sandbox/cashier/**');
    await page.locator('button[data-outcome="success"]').click();
    await page.waitForURL(/\/order\/status\?orderNo=/);
    const orderNo = new URL(page.url()).searchParams.get('orderNo');
    const card = page.getByTestId('order-invoice');
    await card.waitFor();
    const text = await card.innerText();
    assert.match(text, /上海某某科技有限公司/);
    assert.match(text, new RegExp(CODE));
    assert.match(text, /fp@example\.cn/);
    assert.match(text, lang === 'en' ? /Company/ : /单位/);
    await card.scrollIntoViewIfNeeded();
    await shot(page, `${prefix}-order-invoice`);

    const order = await call(server.base, 'GET', `/orders/${orderNo}`, { token: login.token });
    assert.deepEqual(order.invoice, { kind: 'company', title: '上海某某科技有限公司', taxNo: CODE, email: 'fp@example.cn' });
    assert.deepEqual(problems, [], 'no page errors, console errors or 5xx answers');
  } catch (e) {
    await page.screenshot({ path: join(ARTIFACTS, `${prefix}-failure.png`) }).catch(() => undefined);
    throw e;
  } finally {
    await close();
  }
}

test('a company invoice at checkout is kept and shown on the order (phone, zh)', async () => {
  await orderWithInvoice('13900002201', { viewport: { width: 390, height: 844 }, lang: 'zh', prefix: 'invoice-390-zh' });
});

test('the same on a desktop in English', async () => {
  await orderWithInvoice('13900002202', { viewport: { width: 1280, height: 800 }, lang: 'en', prefix: 'invoice-1280-en' });
});
