// Browser test of /order/status for a visitor (issue 34 item 12; spec ordering §6: only
// /order/submit requires login). Without the order's view token the page shows the visitor state
// the other order pages show, with the way to log in, and asks nothing of the order; logging in
// from it comes back to the order. With the view token anyone sees the order. Screenshots of the
// visitor state at 390×844 and 1280×800 in zh and en: e2e/artifacts/status-visitor-*.png.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join } from 'node:path';
import { ARTIFACTS, call, fillCart, openBrowser, register, shot } from './browser.mjs';
import { startServer } from './server.mjs';

const PHONE = '13900034101';
/** register()'s password. */
const PASSWORD = 'Pizza2026ok';
/** CJK ideographs, CJK punctuation, full-width forms: none on an English page. */
const CJK = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]+/g;
/** A Latin word: none on a Chinese page but the language switch's. */
const LATIN = /[A-Za-z]{2,}/g;

/** A customer's unpaid pickup order (online payment) for tomorrow: { orderNo, viewToken }. */
async function unpaidOrder(base) {
  const { token } = await register(base, PHONE);
  await fillCart(base, token);
  const cart = await call(base, 'GET', '/cart?pageName=orderSubmit', { token });
  const order = await call(base, 'POST', '/orders', {
    token,
    body: {
      orderType: 1,
      isBookOrder: true,
      paymentType: 'online',
      tableware: 0,
      orderProductAmount: cart.priceOfProduct,
      activityAmount: cart.discountAmount,
      freightAmount: cart.deliveryFeeAfterPE,
      orderAmount: cart.orderAmount,
    },
  });
  const detail = await call(base, 'GET', `/orders/${order.orderNo}`, { token });
  assert.ok(detail.viewToken, 'the owner reads the view token');
  return { orderNo: order.orderNo, viewToken: detail.viewToken };
}

/** The words of the other language on the page. */
async function otherLanguage(page, lang) {
  const text = await page.evaluate(() => document.body.innerText);
  if (lang === 'en') return [...new Set(text.match(CJK) ?? [])].filter((w) => w !== '中文');
  return [...new Set(text.match(LATIN) ?? [])].filter((w) => !['English', 'EN'].includes(w));
}

test('/order/status: a visitor without the view token reads the visitor state and logs in from it; with the token sees the order', async () => {
  const server = await startServer();
  try {
    await visitorJourney(server.base);
  } finally {
    await server.stop();
  }
});

async function visitorJourney(base) {
  const { orderNo, viewToken } = await unpaidOrder(base);
  const statusPath = `/order/status?orderNo=${orderNo}`;

  // The visitor state in both languages and sizes: no /login, no question to the server.
  for (const lang of ['zh', 'en']) {
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1280, height: 800 },
    ]) {
      const { page, problems, close } = await openBrowser({ viewport });
      try {
        const asked = [];
        page.on('request', (r) => {
          if (new URL(r.url()).pathname.startsWith('/api/v1/orders')) asked.push(r.url());
        });
        await page.goto(base + '/');
        await page.evaluate((l) => localStorage.setItem('pz:lang', JSON.stringify({ v: l, e: null })), lang);
        await page.goto(base + statusPath);
        const state = page.getByTestId('visitor-state');
        await state.waitFor();
        assert.match(await state.innerText(), lang === 'zh' ? /订单状态[\s\S]*登录后查看订单状态/ : /Order status[\s\S]*Log in to see how your order is doing/);
        await page.getByTestId('visitor-login').waitFor();
        await page.waitForLoadState('networkidle');
        assert.equal(new URL(page.url()).pathname + new URL(page.url()).search, statusPath, 'no redirect to /login');
        assert.deepEqual(asked, [], 'the order is not asked for');
        assert.deepEqual(await otherLanguage(page, lang), [], `only ${lang} on the page`);
        await shot(page, `status-visitor-${lang}-${viewport.width}`);
        assert.deepEqual(problems, [], 'no page errors, console errors or 5xx answers');
      } catch (e) {
        await page.screenshot({ path: join(ARTIFACTS, `status-visitor-${lang}-${viewport.width}-failure.png`) }).catch(() => undefined);
        throw e;
      } finally {
        await close();
      }
    }
  }

  // The button logs in and comes back to the order.
  const phone = await openBrowser();
  try {
    const { page, problems } = phone;
    await page.goto(base + statusPath);
    await page.getByTestId('visitor-login').click();
    await page.waitForURL('**/login');
    await page.getByTestId('login-phone').fill(PHONE);
    await page.getByTestId('login-password').fill(PASSWORD);
    await page.getByTestId('agreement').check();
    await page.getByTestId('login-submit').click();
    await page.waitForURL((u) => u.pathname === '/order/status' && u.searchParams.get('orderNo') === orderNo);
    await page.getByTestId('order-state').waitFor();
    assert.equal(await page.getByTestId('visitor-state').count(), 0);
    assert.deepEqual(problems, [], 'no page errors, console errors or 5xx answers');
  } catch (e) {
    await phone.page.screenshot({ path: join(ARTIFACTS, 'status-visitor-login-failure.png') }).catch(() => undefined);
    throw e;
  } finally {
    await phone.close();
  }

  // Anyone with the view token sees the order, without logging in.
  const other = await openBrowser();
  try {
    const { page, problems } = other;
    await page.goto(`${base}${statusPath}&viewToken=${viewToken}`);
    await page.getByTestId('order-state').waitFor();
    assert.match(await page.getByTestId('order-state').innerText(), /待支付|未支付/);
    assert.equal(await page.getByTestId('visitor-state').count(), 0);
    assert.equal(await page.evaluate(() => localStorage.getItem('pz:account:session')), null, 'still a visitor');
    await shot(page, 'status-visitor-view-token');
    assert.deepEqual(problems, [], 'no page errors, console errors or 5xx answers');
  } catch (e) {
    await other.page.screenshot({ path: join(ARTIFACTS, 'status-visitor-token-failure.png') }).catch(() => undefined);
    throw e;
  } finally {
    await other.close();
  }
}
