// Prints the side-by-side table of the inbound benchmark (BENCH_MODE=inbound) from the
// harness's JSON results: node tests/bench/report-inbound.mjs <dir>
// Files: <dir>/<n>-<label>.<k>.json, labels rust (pizza-order serve), node and floor. Every
// figure is the median over the runs; lost is summed; the ratios of each pair of runs (run k of
// each server ran one after the other) are listed too.
import { readdirSync, readFileSync } from "node:fs";

const dir = process.argv[2];
const files = readdirSync(dir)
  .map((f) => /^(\d+)-(rust|node|floor)(?:\.(\d+))?\.json$/.exec(f))
  .filter(Boolean)
  .map(([file, n, label, k]) => ({ file, n: Number(n), label, k: Number(k ?? 0) }));
const runsOf = (n, label) =>
  files
    .filter((f) => f.n === n && f.label === label)
    .sort((a, b) => a.k - b.k)
    .map((f) => JSON.parse(readFileSync(`${dir}/${f.file}`, "utf8")));
const sizes = [...new Set(files.map((f) => f.n))].sort((a, b) => a - b);

const f = (v, d = 1) => (v == null || Number.isNaN(v) ? "—" : v.toFixed(d));
const int = (v) => (v == null || Number.isNaN(v) ? "—" : Math.round(v).toLocaleString("en-US"));
const ratio = (a, b) => (a > 0 && b > 0 ? `${(a / b).toFixed(2)}×` : "—");
const median = (values) => {
  const v = values.filter((x) => typeof x === "number" && !Number.isNaN(x)).sort((a, b) => a - b);
  if (!v.length) return NaN;
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
};
const med = (runs, get) => median(runs.map((r) => get(r)));
const sum = (runs, get) => (runs.length ? runs.reduce((a, r) => a + (get(r) ?? NaN), 0) : NaN);
const pad = (s, w) => String(s).padEnd(w);
const padl = (s, w) => String(s).padStart(w);
const row = (name, a, b, c, r1 = "", r2 = "") =>
  console.log(`  ${pad(name, 36)}${padl(a, 11)}${padl(b, 11)}${padl(c, 11)}${padl(r1, 11)}${padl(r2, 12)}`);

const goals = [];
for (const n of sizes) {
  const rs = runsOf(n, "rust");
  const nd = runsOf(n, "node");
  const fl = runsOf(n, "floor");
  const runs = Math.max(rs.length, nd.length, fl.length);
  const sync = (rs[0] ?? nd[0] ?? fl[0])?.phases?.sync;
  console.log(`\n== N = ${n} sockets (inbound: order:watch once each, then time:sync at ${sync?.rate ?? "?"}/s in all)`);
  if (runs > 1) console.log(`  ${runs} runs of each server, taking turns; each figure is the median over them, lost the sum`);
  row("", "rust", "node 4.8", "floor", "rust/node", "rust/floor");
  const line = (name, get, fmt, compare = false) => {
    const [a, b, c] = [med(rs, get), med(nd, get), med(fl, get)];
    row(name, fmt(a), fmt(b), fmt(c), compare ? ratio(a, b) : "", compare ? ratio(a, c) : "");
  };
  line("connected", (r) => r.connected, int);
  line("RSS per idle socket (KiB)", (r) => r.rssPerSocket / 1024, (v) => f(v, 2));
  for (const ph of ["watch", "sync"]) {
    if (![...rs, ...nd, ...fl].some((r) => r.phases?.[ph])) continue;
    const at = (get) => (r) => (r?.phases?.[ph] ? get(r.phases[ph]) : NaN);
    console.log(`  -- ${ph === "watch" ? "order:watch, once per socket" : "time:sync at a fixed rate"}`);
    line("sent", at((p) => p.expected), int);
    line("acked", at((p) => p.received), int);
    row("lost (sum)", ...[rs, nd, fl].map((runs) => int(sum(runs, at((p) => p.lost)))));
    const ms = (v) => f(v, 2);
    line("ack latency p50 (ms)", at((p) => p.p50), ms);
    line("ack latency p99 (ms)", at((p) => p.p99), ms);
    line("ack latency max (ms)", at((p) => p.max), ms);
    line("server CPU (s)", at((p) => p.serverCpuS), (v) => f(v, 3));
    line("acks per server CPU-second", at((p) => p.acksPerCpuS), int, true);
    line("CPU per ack (µs)", at((p) => 1e6 / p.acksPerCpuS), (v) => f(v, 1));
    line("harness CPU (% of one core)", at((p) => p.harnessCpuPct), (v) => f(v, 0));
    if (ph === "sync") {
      const acks = at((p) => p.acksPerCpuS);
      const pairs = (other) => rs.filter((_, i) => other[i]).map((r, i) => acks(r) / acks(other[i])).filter(Number.isFinite);
      const [pn, pf] = [pairs(nd), pairs(fl)];
      if (pn.length > 1 || pf.length > 1) {
        const list = (p) => p.map((k) => k.toFixed(2)).join(" ") || "—";
        console.log(`    … run by run: rust/node ${list(pn)}; rust/floor ${list(pf)}`);
      }
      goals.push({ n, rust: med(rs, at((p) => p.acksPerCpuS)), node: med(nd, at((p) => p.acksPerCpuS)), floor: med(fl, at((p) => p.acksPerCpuS)), pn, pf });
    }
  }
  const bad = [...rs, ...nd, ...fl].filter((r) => r.error || r.connectFailed > 0 || Object.values(r.phases ?? {}).some((p) => p.lost > 0 || p.refused > 0));
  for (const r of bad) {
    const refused = r.phases?.watch?.refused;
    console.log(`  ! ${r.label}: ${r.error ?? ""} connect failures ${r.connectFailed ?? "?"}${refused ? `, order:watch refused ${refused}` : ""}, lost above`);
  }
}

console.log("\n== Goals (time:sync, acks per server CPU-second)");
const mark = (ok) => (ok ? "✓" : "✗");
for (const { n, rust, node, floor, pn, pf } of goals) {
  const spread = (p) => (p.length > 1 ? ` (runs ${Math.min(...p).toFixed(2)}–${Math.max(...p).toFixed(2)})` : "");
  const kn = rust / node;
  const kf = rust / floor;
  console.log(`  N=${n}: ≥ 3× node: ${Number.isFinite(kn) ? `${kn.toFixed(2)}×${spread(pn)} ${mark(kn >= 3)}` : "—"}` +
    `   within 15 % of the floor: ${Number.isFinite(kf) ? `${(kf * 100).toFixed(0)} %${spread(pf)} ${mark(kf >= 0.85)}` : "—"}`);
}
