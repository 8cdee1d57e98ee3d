// Browser test of the home page's first load (issue 21, frontend/README.md "Chunks"): in zh and
// en, phone and desktop sized, the home page renders its own words — no dictionary key shows,
// and an English visitor never sees a Chinese word of it first — from the entry chunk alone
// (with English's first-screen words for English): neither the pages' words nor any route chunk
// nor socket.io is fetched before it renders. Screenshots: e2e/artifacts/home-<lang>-<w>x<h>.png.
// Then the pages' words come when the home page is idle, and the menu shows them in its language.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openBrowser, shot } from './browser.mjs';
import { DIST, startServer } from './server.mjs';

const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];
/** A dictionary key shown as itself: `home.startTitle`, `nav.menu`… */
const RAW_KEY = /\b(?:app|common|home|nav|menu|store|cart|err|conn|lang|chunk|privacy|mkt)\.[a-z][A-Za-z0-9.]*\b/;
/** Chinese words of the home page (zh.ts), which an English visitor must never see. */
const ZH_WORDS = ['外送到家', '到店自取', '浏览菜单', '全部菜单'];

let server;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.stop();
});

/** The built files of the first load (bundle-budget.mjs counts the same): the entry with its static imports, and English's first words for English. */
function firstLoadFiles(lang) {
  const manifest = JSON.parse(readFileSync(join(DIST, '.vite', 'manifest.json'), 'utf8'));
  const files = new Set();
  const walk = (key) => {
    const chunk = manifest[key];
    assert.ok(chunk, `${key} is in the manifest`);
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const dep of chunk.imports ?? []) walk(dep);
  };
  walk('index.html');
  if (lang === 'en') walk('src/lib/i18n/en.ts');
  return { files, fileOf: (key) => manifest[key]?.file };
}

/**
 * Records, in the page, every text #root shows while it loads and the scripts fetched by the time
 * it first shows something (its first render).
 */
async function watchFirstRender(page) {
  await page.addInitScript(() => {
    const seen = { texts: [], scriptsAtFirstRender: null };
    window.__firstLoad = seen;
    const observe = () => {
      const root = document.getElementById('root');
      if (!root) return false;
      new MutationObserver(() => {
        if (seen.scriptsAtFirstRender === null && root.childElementCount > 0) {
          seen.scriptsAtFirstRender = performance
            .getEntriesByType('resource')
            .map((e) => e.name)
            .filter((n) => n.endsWith('.js'));
        }
        seen.texts.push(root.innerText);
      }).observe(root, { childList: true, subtree: true, characterData: true });
      return true;
    };
    if (!observe()) document.addEventListener('DOMContentLoaded', observe);
  });
}

describe('the home page first load', () => {
  for (const lang of ['zh', 'en']) {
    for (const viewport of VIEWPORTS) {
      test(`${lang} at ${viewport.width}×${viewport.height}: its own words, from the first load alone`, async () => {
        const { page, problems, close } = await openBrowser({ viewport });
        try {
          if (lang === 'en') await page.addInitScript(() => localStorage.setItem('pz:lang', JSON.stringify({ v: 'en', e: null })));
          await watchFirstRender(page);
          await page.goto(server.base + '/');
          const start = page.getByTestId('start-delivery');
          await start.waitFor({ timeout: 15_000 });
          assert.equal(await start.innerText().then((s) => s.includes(lang === 'zh' ? '外送到家' : 'Delivery')), true);
          await page.getByTestId('store-chip').waitFor();

          const { texts, scriptsAtFirstRender } = await page.evaluate(() => window.__firstLoad);
          assert.ok(scriptsAtFirstRender, 'the home page rendered');
          // Nothing but the first load: no pages' words, route chunk, cart store or socket.
          const { files, fileOf } = firstLoadFiles(lang);
          const fetched = scriptsAtFirstRender.map((url) => new URL(url).pathname.slice(1));
          assert.ok(fetched.includes(fileOf('index.html')), `the entry among ${fetched}`);
          assert.deepEqual(
            fetched.filter((file) => !files.has(file)),
            [],
            'fetched before the first render besides the first load',
          );
          assert.equal(fetched.includes(fileOf('src/lib/i18n/en.ts')), lang === 'en', "English's words before the first render: for English only");
          for (const text of texts) {
            assert.doesNotMatch(text, RAW_KEY);
            if (lang === 'en') for (const word of ZH_WORDS) assert.ok(!text.includes(word), `"${word}" shown to an English visitor`);
          }
          assert.equal(await page.evaluate(() => document.documentElement.lang), lang === 'zh' ? 'zh-CN' : 'en');
          await shot(page, `home-${lang}-${viewport.width}x${viewport.height}`);
          assert.deepEqual(problems, []);
        } finally {
          await close();
        }
      });
    }
  }

  test('the pages\' words come when the home page is idle; the menu shows them in English', async () => {
    const { page, problems, close } = await openBrowser();
    try {
      await page.addInitScript(() => localStorage.setItem('pz:lang', JSON.stringify({ v: 'en', e: null })));
      const enPages = firstLoadFiles('en').fileOf('src/lib/i18n/enPages.ts');
      assert.ok(enPages, "English's pages' words are a chunk of their own");
      const pagesWords = page.waitForRequest((r) => r.url().endsWith(enPages), { timeout: 15_000 });
      await page.goto(server.base + '/');
      await page.getByTestId('start-delivery').waitFor({ timeout: 15_000 });
      await pagesWords;
      await page.getByTestId('browse-menu').click();
      await page.waitForURL(/\/(menu|findStore)/);
      await page.waitForFunction(() => !document.querySelector('[data-testid="route-loading"]'), null, { timeout: 15_000 });
      await page.waitForTimeout(500);
      const text = await page.locator('#root').innerText();
      assert.doesNotMatch(text, RAW_KEY);
      for (const word of ZH_WORDS) assert.ok(!text.includes(word));
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  for (const lang of ['zh', 'en']) {
    test(`a first page other than home has its words with its chunk (${lang}, /findStore)`, async () => {
      const { page, problems, close } = await openBrowser();
      try {
        if (lang === 'en') await page.addInitScript(() => localStorage.setItem('pz:lang', JSON.stringify({ v: 'en', e: null })));
        await page.goto(server.base + '/findStore');
        // The finder's tabs are words of the pages' part (zhPages.ts / enPages.ts).
        await page.getByText(lang === 'zh' ? '按城市' : 'By city').first().waitFor({ timeout: 15_000 });
        const text = await page.locator('#root').innerText();
        assert.doesNotMatch(text, RAW_KEY);
        if (lang === 'en') assert.doesNotMatch(text, /按城市|附近|选择门店/);
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    });
  }
});
