// Browser test of the Content-Security-Policy (issue 20, point 9): the built app, the way through
// checkout to the sandbox cashier and back, and the Swagger UI all work under the policy the
// server sends, and chromium reports no violation on any of them. Violations are caught twice:
// the `securitypolicyviolation` event (from a script the browser injects before the page's own,
// which the policy does not govern) and chromium's console message.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { checkoutAndPay, customerWithCart, logIn, openBrowser, shot } from './browser.mjs';
import { startServer } from './server.mjs';

let server;

before(async () => {
  server = await startServer();
});

after(async () => {
  await server?.stop();
});

/** A browser that records every CSP violation of every page it opens. */
async function watchedBrowser() {
  const browser = await openBrowser();
  const violations = [];
  await browser.page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const seen = (window.__cspViolations ??= []);
      seen.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  browser.page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(`console: ${m.text()}`);
  });
  const collect = async () => {
    const seen = await browser.page.evaluate(() => window.__cspViolations ?? []).catch(() => []);
    return [...violations, ...seen];
  };
  return { ...browser, collect };
}

test('the home page, checkout, the cashier and the status page run under the policy', async () => {
  const browser = await watchedBrowser();
  const { page } = browser;
  try {
    const home = await page.goto(server.base + '/');
    const csp = home.headers()['content-security-policy'];
    assert.match(csp, /script-src 'self';/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(home.headers()['x-frame-options'], 'DENY');
    // The app rendered (its script ran) and its styles applied (its stylesheet loaded).
    await page.locator('#root *').first().waitFor();
    const styled = await page.evaluate(() => document.styleSheets.length);
    assert.ok(styled > 0, 'the app has its stylesheet');
    assert.deepEqual(await browser.collect(), [], 'violations on the home page');

    const login = await customerWithCart(server.base, '13900002020');
    await logIn(page, server.base, login);
    let cashierPolicy = null;
    const orderNo = await checkoutAndPay(page, server.base, {
      prefix: 'security',
      beforePay: async () => {
        // The cashier's script (a file of its own now) counts down; its style sheet applies.
        cashierPolicy = await page.evaluate(async () => (await fetch(location.href)).headers.get('content-security-policy'));
        await page.waitForFunction(() => /\d\d:\d\d/.test(document.getElementById('left')?.textContent ?? ''));
        const buttonColor = await page.locator('button.pay').evaluate((b) => getComputedStyle(b).backgroundColor);
        assert.equal(buttonColor, 'rgb(200, 16, 46)', 'the cashier style sheet applies');
        assert.deepEqual(await browser.collect(), [], 'violations at the cashier');
      },
    });
    assert.ok(orderNo, 'back on the status page');
    assert.match(cashierPolicy ?? '', /default-src 'self'/);
    await page.locator('[data-testid="order-state"]').waitFor();
    assert.deepEqual(await browser.collect(), [], 'violations on the status page');
    assert.deepEqual(browser.problems, []);
  } finally {
    await browser.close();
  }
});

test('the Swagger UI runs under the policy', async () => {
  const browser = await watchedBrowser();
  const { page } = browser;
  try {
    const res = await page.goto(server.base + '/api-docs/');
    assert.match(res.headers()['content-security-policy'], /script-src 'self';/);
    // The operations list is rendered from openapi.json by Swagger UI's own scripts.
    await page.locator('.swagger-ui .opblock').first().waitFor({ timeout: 15_000 });
    await page.locator('.swagger-ui .opblock-summary').first().click();
    await page.waitForTimeout(300);
    await shot(page, 'security-api-docs');
    assert.deepEqual(await browser.collect(), [], 'violations in the Swagger UI');
    assert.deepEqual(browser.problems, []);
  } finally {
    await browser.close();
  }
});
