// Prints the side-by-side table of the real-time benchmark from the harness's JSON results:
//   node tests/bench/report.mjs <dir>   (files <dir>/<n>-rust.json and <dir>/<n>-node.json)
import { readdirSync, readFileSync } from "node:fs";

const dir = process.argv[2];
const load = (f) => { try { return JSON.parse(readFileSync(`${dir}/${f}`, "utf8")); } catch { return null; } };
const sizes = [...new Set(readdirSync(dir).map((f) => /^(\d+)-(rust|node)\.json$/.exec(f)?.[1]).filter(Boolean))]
  .map(Number).sort((a, b) => a - b);

const f = (v, d = 1) => (v == null || Number.isNaN(v) ? "—" : v.toFixed(d));
const int = (v) => (v == null || Number.isNaN(v) ? "—" : Math.round(v).toLocaleString("en-US"));
const ratio = (a, b) => (a > 0 && b > 0 ? `${(a / b).toFixed(2)}×` : "—");
const overall = (r) => {
  if (!r?.phases) return NaN;
  const p = Object.values(r.phases);
  const cpu = p.reduce((a, x) => a + x.serverCpuS, 0);
  return cpu > 0 ? p.reduce((a, x) => a + x.received, 0) / cpu : NaN;
};
const pad = (s, w) => String(s).padEnd(w);
const padl = (s, w) => String(s).padStart(w);
const row = (name, a, b, r = "") => console.log(`  ${pad(name, 38)}${padl(a, 14)}${padl(b, 14)}${padl(r, 10)}`);

const goals = [];
for (const n of sizes) {
  const rs = load(`${n}-rust.json`);
  const nd = load(`${n}-node.json`);
  const first = rs ?? nd;
  console.log(`\n== N = ${n} sockets (order rooms ${first.orders}, store rooms ${first.stores}; rate ${first.rate} ev/s × ${first.seconds} s; burst ${first.burst} per store room; payload ${first.payload} B)`);
  row("", "rust", "node 4.8", "rust/node");
  row("connected", int(rs?.connected), int(nd?.connected));
  row("connect time (s)", f(rs?.connectS), f(nd?.connectS));
  row("server RSS before connecting (MiB)", f(rs?.rssBefore / 2 ** 20), f(nd?.rssBefore / 2 ** 20));
  row("server RSS idle, all connected (MiB)", f(rs?.rssIdle / 2 ** 20), f(nd?.rssIdle / 2 ** 20));
  row("RSS per idle socket (KiB)", f(rs?.rssPerSocket / 1024, 2), f(nd?.rssPerSocket / 1024, 2), ratio(rs?.rssPerSocket, nd?.rssPerSocket));
  for (const ph of ["rate", "burst"]) {
    const a = rs?.phases?.[ph];
    const b = nd?.phases?.[ph];
    console.log(`  -- ${ph === "rate" ? "fixed rate" : "burst"}`);
    row("events published", int(a?.events), int(b?.events));
    row("deliveries expected", int(a?.expected), int(b?.expected));
    row("delivered", int(a?.received), int(b?.received));
    row("lost", int(a?.lost), int(b?.lost));
    row("reordered", int(a?.reordered), int(b?.reordered));
    row("latency p50 (ms)", f(a?.p50, 2), f(b?.p50, 2), ratio(a?.p50, b?.p50));
    row("latency p99 (ms)", f(a?.p99, 2), f(b?.p99, 2), ratio(a?.p99, b?.p99));
    row("latency p99.9 (ms)", f(a?.p999, 2), f(b?.p999, 2), ratio(a?.p999, b?.p999));
    row("latency max (ms)", f(a?.max, 2), f(b?.max, 2), ratio(a?.max, b?.max));
    row("wall time to last delivery (s)", f(a?.wallS, 2), f(b?.wallS, 2));
    if (ph === "rate") row("server's paced emits, latest by (ms)", f(a?.emitMaxLateMs, 1), f(b?.emitMaxLateMs, 1));
    row("server CPU (s)", f(a?.serverCpuS, 3), f(b?.serverCpuS, 3), ratio(a?.serverCpuS, b?.serverCpuS));
    row("deliveries per server CPU-second", int(a?.deliveriesPerCpuS), int(b?.deliveriesPerCpuS), ratio(a?.deliveriesPerCpuS, b?.deliveriesPerCpuS));
    row("harness CPU (% of one core)", f(a?.harnessCpuPct, 0), f(b?.harnessCpuPct, 0));
    const cores = (p) => (p?.coreBusyPct ? p.coreBusyPct.map((x) => x.toFixed(0)).join("/") : "—");
    row("core 0/1 busy, all tasks (%)", cores(a), cores(b));
  }
  console.log("  -- both phases");
  row("deliveries per server CPU-second", int(overall(rs)), int(overall(nd)), ratio(overall(rs), overall(nd)));
  row("server RSS after publishing (MiB)", f(rs?.rssAfter / 2 ** 20), f(nd?.rssAfter / 2 ** 20));
  const sat = [rs, nd].flatMap((r) => Object.values(r?.phases ?? {}).filter((p) => p.harnessCpuPct > 90).map((p) => `${r.label}/${p.phase}`));
  if (sat.length) console.log(`  ! the harness was >90% busy in ${sat.join(", ")}: latencies there include client-side queueing`);
  const bad = [rs, nd].filter((r) => r && (r.error || r.connectFailed > 0 || Object.values(r.phases ?? {}).some((p) => p.lost > 0 || p.reordered > 0)));
  for (const r of bad) console.log(`  ! ${r.label}: ${r.error ?? ""} connect failures ${r.connectFailed ?? "?"}, lost/reordered above`);
  goals.push({ n, rs, nd });
}

console.log("\n== Goals");
const mark = (ok) => (ok ? "✓" : "✗");
for (const { n, rs, nd } of goals) {
  const k = overall(rs) / overall(nd);
  console.log(`  N=${n}: deliveries/CPU-s ≥ 3× node: ${Number.isFinite(k) ? `${k.toFixed(2)}× ${mark(k >= 3)}` : "—"}` +
    `   RSS/idle socket ≤ 8 KiB: ${f(rs?.rssPerSocket / 1024, 2)} KiB ${mark(rs?.rssPerSocket <= 8192)}` +
    `   (fixed-rate p99 ${f(rs?.phases?.rate?.p99, 2)} ms)`);
}
const big = goals.filter((g) => g.n >= 19_000 && g.rs?.connected >= 19_000);
if (big.length) {
  for (const { n, rs } of big) console.log(`  p99 ≤ 10 ms at ~20k sockets (N=${n}, fixed rate): ${f(rs.phases?.rate?.p99, 2)} ms ${mark(rs.phases?.rate?.p99 <= 10)}`);
} else {
  console.log(`  p99 ≤ 10 ms at 20k sockets: not measured (largest N ${Math.max(...sizes)}; BENCH_SIZES="1000 10000 19500" runs it)`);
}
