// Sets up what `make bench-http` reads (tests/bench/http/run.sh): a customer and an order of
// theirs on the running server, then each benchmarked route fetched once, its body and content
// type kept for the bare peer (examples/bench_bare_http.rs), which answers the same bytes.
//
//   node capture.mjs <base url> <out dir>
//
// Writes <out dir>/routes.tsv (name, path and query, whether it needs the token), manifest.tsv
// (what the bare peer reads: path, content type, body file), token, and one body file a route.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { phoneNumber, placeOrder, register } from '../lib/api.mjs';

const [base, out] = process.argv.slice(2);
if (!base || !out) {
  console.error('usage: node capture.mjs <base url> <out dir>');
  process.exit(2);
}

const run = Math.floor(Date.now() / 1000) % 100_000;
const login = await register(base, phoneNumber(run, 1));
const { orderNo } = await placeOrder(base, login.token, `bench-http-${run}`);

// The routes of issue 21: the clock, the store card, the menu, one product, an order's detail.
const routes = [
  ['time', '/api/v1/system/time', false],
  ['store', '/api/v1/stores/SH001', false],
  ['menu', '/api/v1/stores/SH001/menu?orderType=0', false],
  ['product', '/api/v1/products/PZ001?storeCode=SH001', false],
  ['order', `/api/v1/orders/${orderNo}`, true],
];
const manifest = [];
for (const [name, path, auth] of routes) {
  const headers = auth ? { Authorization: `Bearer ${login.token}` } : {};
  const res = await fetch(base + path, { headers });
  const body = Buffer.from(await res.arrayBuffer());
  const json = JSON.parse(body.toString('utf8'));
  if (res.status !== 200 || json.errCode !== '00') {
    throw new Error(`${path}: ${res.status} ${body.toString('utf8').slice(0, 200)}`);
  }
  const file = join(out, `${name}.body`);
  writeFileSync(file, body);
  manifest.push([path, res.headers.get('content-type'), file].join('\t'));
  console.log(`${name}\t${path}\t${body.length} bytes`);
}
writeFileSync(join(out, 'routes.tsv'), routes.map(([n, p, a]) => `${n}\t${p}\t${a ? 1 : 0}`).join('\n') + '\n');
writeFileSync(join(out, 'manifest.tsv'), manifest.join('\n') + '\n');
writeFileSync(join(out, 'token'), login.token);
