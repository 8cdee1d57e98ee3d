#!/usr/bin/env node
/**
 * The home page's first-load budget (issue 21): the gzipped JavaScript a visitor's browser fetches
 * before the home page renders — the entry chunk, every chunk it imports statically (what
 * index.html preloads) and the chunks the home route loads itself — must stay within 100 KB.
 *
 * Reads dist/.vite/manifest.json (vite build with `build.manifest: true`) and dist/index.html:
 * run after `npm run build`. Prints every chunk counted with its gzipped size, and the total for
 * each language (English adds its dictionary chunk, loaded before the first render). Exits 1 over
 * the budget, 2 when the build is missing or the manifest lacks what is named below.
 *
 *   node scripts/bundle-budget.mjs [distDir]   (BUDGET_KB=… to try another ceiling)
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = fileURLToPath(new URL('.', import.meta.url));
const dist = resolve(process.argv[2] ?? join(here, '..', 'dist'));
const budgetKb = Number(process.env.BUDGET_KB ?? 100);
/** Modules whose chunks the home route loads before it renders, besides the entry's static imports. */
const HOME_ROUTE = [];
/** Per language, further modules loaded before the first render. */
const LANGUAGES = { zh: [], en: ['src/lib/i18n/en.ts'] };
/** Chunks that must never be part of the first load (the route groups of src/app/routes.tsx, the pages' words). */
const LAZY = [
  'src/app/routes/TabletRoutes.tsx',
  'src/app/routes/AccountRoutes.tsx',
  'src/app/routes/OrderRoutes.tsx',
  'src/app/routes/CheckoutRoute.tsx',
  'src/app/routes/CouponRoutes.tsx',
  'src/lib/i18n/zhPages.ts',
  'src/lib/i18n/enPages.ts',
];

function fail(code, message) {
  console.error(`bundle-budget: ${message}`);
  process.exit(code);
}

const manifestPath = join(dist, '.vite', 'manifest.json');
if (!existsSync(manifestPath)) fail(2, `${manifestPath} is missing: run \`npm run build\` first`);
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const entries = Object.entries(manifest).filter(([, c]) => c.isEntry);
if (entries.length !== 1) fail(2, `expected one entry in the manifest, found ${entries.length}`);
const [entryKey] = entries[0];

/** The chunk `key` and everything it imports statically (what the browser fetches with it). */
function closure(keys) {
  const seen = new Set();
  const walk = (key) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) fail(2, `${key} is not in the manifest`);
    seen.add(key);
    for (const dep of chunk.imports ?? []) walk(dep);
  };
  keys.forEach(walk);
  return seen;
}

const gz = new Map();
function gzipped(file) {
  if (!gz.has(file)) gz.set(file, gzipSync(readFileSync(join(dist, file)), { level: 9 }).length);
  return gz.get(file);
}
const kb = (bytes) => (bytes / 1024).toFixed(1);

// Whatever index.html itself loads counts too, should the manifest and the page ever disagree.
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const htmlScripts = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/?([^"]+\.js)"/g)].map((m) => m[1]);

const base = closure([entryKey, ...HOME_ROUTE]);
let over = false;
for (const [lang, extra] of Object.entries(LANGUAGES)) {
  const keys = closure([...base, ...extra]);
  const files = new Set([...[...keys].map((k) => manifest[k].file), ...htmlScripts]);
  for (const lazy of LAZY) {
    if (manifest[lazy] && files.has(manifest[lazy].file)) fail(1, `${lazy} is in the home page's first load`);
  }
  let total = 0;
  console.log(`home page first load (${lang}):`);
  for (const file of [...files].sort()) {
    total += gzipped(file);
    console.log(`  ${kb(gzipped(file)).padStart(7)} KB  ${file}`);
  }
  const ok = total <= budgetKb * 1024;
  over ||= !ok;
  console.log(`  ${kb(total).padStart(7)} KB  gzipped JavaScript, budget ${budgetKb} KB: ${ok ? 'ok' : 'OVER'}`);
}
process.exit(over ? 1 : 0);
