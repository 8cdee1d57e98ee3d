// Browser test: the real server and the built app in Debian's chromium (playwright-core).
// Once in Chinese and once in English: home → store finder → Shanghai → a district → a store →
// menu → a pizza with sizes → change the size → the price shown is that size's price.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openBrowser, shot } from './browser.mjs';
import { startServer } from './server.mjs';

const SHANGHAI = '310100';

let server;

before(async () => {
  server = await startServer();
});

after(async () => {
  await server?.stop();
});

async function api(path, lang) {
  const res = await fetch(`${server.base}/api/v1${path}`, { headers: { 'X-Channel-Id': '2', 'Accept-Language': lang } });
  const body = await res.json();
  assert.equal(body.errCode, '00', `${path}: ${body.errMsg}`);
  return body.data;
}

const yuan = (n) => `¥${(Math.round(n * 100) / 100).toFixed(2)}`;

for (const lang of ['zh', 'en']) {
  describe(`ordering journey (${lang})`, () => {
    test(`store finder → menu → pizza size changes the price (${lang})`, async () => {
      const t = lang === 'zh';
      const { page, problems, close } = await openBrowser();
      try {
        await page.goto(server.base + '/');
        await page.getByTestId('start-delivery').waitFor();
        if (!t) {
          // Switch the language through the UI; it is kept in localStorage.
          await page.getByTestId('lang-switch').click();
          await page.getByText('Start your order').or(page.getByText('Delivery').first()).first().waitFor();
          assert.match(await page.evaluate(() => localStorage.getItem('pz:lang') ?? ''), /"en"/);
        }
        assert.equal(await page.getByTestId('start-delivery').innerText().then((s) => s.includes(t ? '外送到家' : 'Delivery')), true);
        await shot(page, `${lang}-01-home`);

        // Side navigation: guests see no login-only entries.
        await page.getByTestId('open-nav').click();
        await page.getByTestId('side-nav').waitFor();
        assert.equal(await page.getByTestId('nav-orders').count(), 0);
        await shot(page, `${lang}-02-side-nav`);
        await page.getByTestId('nav-findStore').click();

        // Store finder: Shanghai → a district → a store.
        await page.waitForURL('**/findStore**');
        await page.getByTestId(`city-${SHANGHAI}`).waitFor();
        await shot(page, `${lang}-03-cities`);
        await page.getByTestId(`hot-city-${SHANGHAI}`).click();
        await page.getByTestId('finder-city-name').filter({ hasText: t ? '上海' : 'Shanghai' }).waitFor();

        const districts = await api(`/cities/${SHANGHAI}/districts?all=1`, lang);
        assert.equal(districts[0].districtCode, '', 'the first district is "all"');
        const stores = await api(`/stores/search?cityCode=${SHANGHAI}`, lang);
        const withStore = districts.find((d) => d.districtCode && stores.some((s) => s.districtCode === d.districtCode && s.status !== 'closed'));
        assert.ok(withStore, 'a Shanghai district with an open store');
        await page.getByTestId(`district-${withStore.districtCode}`).click();
        const store = stores.find((s) => s.districtCode === withStore.districtCode && s.status !== 'closed');
        const card = page.getByTestId(`store-${store.storeCode}`);
        await card.waitFor();
        assert.ok((await card.innerText()).includes(store.storeName));
        await shot(page, `${lang}-04-stores`);
        await card.getByRole('button', { name: t ? '去点餐' : 'Order here' }).click();

        // Menu of that store.
        await page.waitForURL('**/menu');
        await page.getByTestId('menu-store').filter({ hasText: store.storeName }).waitFor();
        const menu = await api(`/stores/${store.storeCode}/menu?orderType=0&orderTime=${Date.now()}`, lang);
        const firstCategory = menu.categories[0];
        await page.getByTestId(`category-${firstCategory.categoryCode}`).filter({ hasText: firstCategory.categoryName }).waitFor();
        await shot(page, `${lang}-05-menu`);

        // A pizza with several sizes.
        let pizza = null;
        for (const c of menu.categories) {
          for (const p of c.products) {
            if (pizza || p.productType !== 1 || p.soldOut) continue;
            const detail = await api(`/products/${p.productCode}?storeCode=${store.storeCode}&orderType=0`, lang);
            if (detail.sizeList.length > 1 && detail.flavorList.length === 0) pizza = detail;
          }
        }
        assert.ok(pizza, 'a pizza with sizes on the menu');
        const tile = page.getByTestId(`product-${pizza.productCode}`);
        await tile.scrollIntoViewIfNeeded();
        await tile.click();
        await page.waitForURL(`**/product/${pizza.productCode}`);
        await page.getByTestId('product-name').filter({ hasText: pizza.productName }).waitFor();

        const price = page.getByTestId('builder-price');
        const defaultSize = pizza.sizeList.find((s) => s.isDefault) ?? pizza.sizeList[0];
        const crustFor = (sizeCode) => {
          const valid = pizza.pastryList.filter((c) => c.sizeCodes.length === 0 || c.sizeCodes.includes(sizeCode));
          return (valid.find((c) => c.isDefault) ?? valid[0])?.extraPrice ?? 0;
        };
        assert.equal(await price.getAttribute('data-price'), yuan(defaultSize.price + crustFor(defaultSize.sizeCode)));
        await shot(page, `${lang}-06-product`);

        const other = pizza.sizeList.find((s) => s.sizeCode !== defaultSize.sizeCode && s.price !== defaultSize.price);
        assert.ok(other, 'a second size at another price');
        await page.getByTestId(`size-${other.sizeCode}`).click();
        const expected = yuan(other.price + crustFor(other.sizeCode));
        await page.waitForFunction(
          (want) => document.querySelector('[data-testid="builder-price"]')?.getAttribute('data-price') === want,
          expected,
        );
        // What the customer reads is that price too.
        const shown = (await price.innerText()).replace(/\s/g, '');
        assert.equal(shown, expected, `price shown after choosing ${other.sizeName}`);
        assert.equal(await page.getByTestId(`size-${other.sizeCode}`).getAttribute('aria-pressed'), 'true');
        await page.getByTestId('builder-price').scrollIntoViewIfNeeded();
        await shot(page, `${lang}-07-product-size-changed`);

        // Into the cart (priced by the server), back to the menu where the cart bar counts it.
        await page.getByTestId('add-to-cart').click();
        await page.getByText(t ? '已加入购物车' : 'Added to the cart').waitFor();
        await page.waitForURL('**/menu');
        await page.getByTestId('cart-count').filter({ hasText: /^1$/ }).waitFor();
        await shot(page, `${lang}-08-added-to-cart`);

        // The choice survives a reload (localStorage, with expiry).
        await page.goto(server.base + '/menu');
        await page.getByTestId('menu-store').filter({ hasText: store.storeName }).waitFor();

        // Order submit needs login: a guest goes to /login. Unknown paths go home.
        await page.goto(server.base + '/order/submit');
        await page.waitForURL(server.base + '/login');
        await page.getByTestId('login-submit').waitFor();
        await page.goto(server.base + '/no/such/page');
        await page.waitForURL(server.base + '/');
        await page.getByTestId('start-delivery').waitFor();

        assert.deepEqual(problems, [], 'no page errors, console errors or 5xx answers');
      } finally {
        await close();
      }
    });
  });
}

test('desktop: the page is a 340 px column', async () => {
  const { page, problems, close } = await openBrowser({ viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(server.base + '/menu');
    await page.getByTestId('menu-store').waitFor();
    const width = await page.evaluate(() => document.querySelector('.app-col')?.getBoundingClientRect().width);
    assert.equal(Math.round(width), 340);
    await shot(page, 'desktop-menu');
    await page.goto(server.base + '/findStore?tab=near');
    await page.getByTestId('locate-btn').waitFor();
    await shot(page, 'desktop-find-near');
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

// Issue 22: back from a product, the menu is where it was (the list's scroll and the category).
for (const [lang, viewport] of [
  ['zh', { width: 390, height: 844 }],
  ['en', { width: 390, height: 844 }],
  ['zh', { width: 1280, height: 800 }],
]) {
  test(`the menu keeps its place when coming back from a product (${lang}, ${viewport.width})`, async () => {
    const { page, problems, close } = await openBrowser({ viewport });
    try {
      await page.addInitScript((l) => localStorage.setItem('pz:lang', JSON.stringify({ v: l, e: null })), lang);
      await page.goto(server.base + '/menu');
      await page.getByTestId('category-PASTA').click();
      await page.waitForTimeout(1200); // the smooth scroll settles
      const before = await page.evaluate(() => [window.scrollY, document.querySelector('.menu__cat--on')?.getAttribute('data-code')]);
      assert.ok(before[0] > 300, `scrolled down (${before[0]})`);
      assert.equal(before[1], 'PASTA');
      await page.locator('#cat-PASTA ~ [data-testid^="product-"]').first().click();
      await page.waitForURL('**/product/**');
      await page.goBack();
      await page.waitForURL('**/menu');
      await page.waitForFunction((want) => Math.abs(window.scrollY - want) < 4, before[0], { timeout: 5000 });
      await page.locator('[data-testid="category-PASTA"][aria-current="true"]').waitFor();
      await shot(page, `menu-place-${lang}-${viewport.width}`);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
}
