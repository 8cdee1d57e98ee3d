// Prints the side-by-side table of the real-time benchmark from the harness's JSON results:
//   node tests/bench/report.mjs <dir>
// Files: <dir>/<n>-<label>.json (one run) or <dir>/<n>-<label>.<k>.json (run k of a repeated
// benchmark, the servers taking turns); labels rust, node and floor (examples/bench_floor.rs:
// the sends alone, what the kernel costs). With several runs every figure is the
// median over them, lost and reordered are summed, and the CPU ratio of each pair of runs is
// listed too: on a shared VM one run's ratio can be off by a third.
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
// The median of a figure over runs; `get` reads it from one run.
const med = (runs, get) => median(runs.map((r) => get(r)));
const sum = (runs, get) => (runs.length ? runs.reduce((a, r) => a + (get(r) ?? NaN), 0) : NaN);
const overall = (r) => {
  if (!r?.phases) return NaN;
  const p = Object.values(r.phases);
  const cpu = p.reduce((a, x) => a + x.serverCpuS, 0);
  return cpu > 0 ? p.reduce((a, x) => a + x.received, 0) / cpu : NaN;
};
const pad = (s, w) => String(s).padEnd(w);
const padl = (s, w) => String(s).padStart(w);
const row = (name, a, b, c, r = "") =>
  console.log(`  ${pad(name, 38)}${padl(a, 12)}${padl(b, 12)}${padl(c, 12)}${padl(r, 11)}`);

const goals = [];
for (const n of sizes) {
  const rs = runsOf(n, "rust");
  const nd = runsOf(n, "node");
  const fl = runsOf(n, "floor");
  const first = rs[0] ?? nd[0] ?? fl[0];
  const runs = Math.max(rs.length, nd.length);
  console.log(`\n== N = ${n} sockets (order rooms ${first.orders}, store rooms ${first.stores}; rate ${first.rate} ev/s × ${first.seconds} s; burst ${first.burst} per store room; payload ${first.payload} B)`);
  if (runs > 1) console.log(`  ${runs} runs of each server, taking turns; each figure is the median over them, lost and reordered the sum`);
  row("", "rust", "node 4.8", "floor", "rust/node");
  // One row: the median of `get` over each server's runs, and rust/node when `compare`.
  const line = (name, get, fmt, compare = false) => {
    const a = med(rs, get);
    const b = med(nd, get);
    row(name, fmt(a), fmt(b), fmt(med(fl, get)), compare ? ratio(a, b) : "");
  };
  const MiB = (v) => f(v / 2 ** 20);
  line("connected", (r) => r.connected, int);
  line("connect time (s)", (r) => r.connectS, f);
  line("server RSS before connecting (MiB)", (r) => r.rssBefore, MiB);
  line("server RSS idle, all connected (MiB)", (r) => r.rssIdle, MiB);
  line("RSS per idle socket (KiB)", (r) => r.rssPerSocket / 1024, (v) => f(v, 2), true);
  for (const ph of ["rate", "burst"]) {
    const at = (get) => (r) => (r.phases?.[ph] ? get(r.phases[ph]) : NaN);
    console.log(`  -- ${ph === "rate" ? "fixed rate" : "burst"}`);
    line("events published", at((p) => p.events), int);
    line("deliveries expected", at((p) => p.expected), int);
    line("delivered", at((p) => p.received), int);
    const total = (get) => [rs, nd, fl].map((runs) => int(sum(runs, at(get))));
    row("lost", ...total((p) => p.lost));
    row("reordered", ...total((p) => p.reordered));
    const ms = (v) => f(v, 2);
    line("latency p50 (ms)", at((p) => p.p50), ms, true);
    line("latency p99 (ms)", at((p) => p.p99), ms, true);
    line("latency p99.9 (ms)", at((p) => p.p999), ms, true);
    line("latency max (ms)", at((p) => p.max), ms, true);
    line("wall time to last delivery (s)", at((p) => p.wallS), ms);
    if (ph === "rate") line("server's paced emits, latest by (ms)", at((p) => p.emitMaxLateMs), f);
    line("server CPU (s)", at((p) => p.serverCpuS), (v) => f(v, 3), true);
    if ([...rs, ...nd, ...fl].some((r) => r.phases?.[ph]?.billedCpuS > 0)) {
      line("… of it the server host's receive thread (s)", at((p) => p.billedCpuS ?? 0), (v) => f(v, 3));
    }
    line("deliveries per server CPU-second", at((p) => p.deliveriesPerCpuS), int, true);
    line("harness CPU (% of one core)", at((p) => p.harnessCpuPct), (v) => f(v, 0));
    const core = (i) => at((p) => p.coreBusyPct?.[i] ?? NaN);
    const cores = (runs) => [0, 1].map((i) => f(med(runs, core(i)), 0)).join("/");
    row("core 0/1 busy, all tasks (%)", cores(rs), cores(nd), cores(fl));
  }
  console.log("  -- both phases");
  const cpuRatio = med(rs, overall) / med(nd, overall);
  line("deliveries per server CPU-second", overall, int, true);
  // Run k of each server ran one after the other, so their ratio is a fair pair.
  const pairs = rs.map((r, i) => overall(r) / overall(nd[i])).filter(Number.isFinite);
  if (pairs.length > 1) row("  … rust/node, run by run", "", "", "", pairs.map((k) => k.toFixed(2)).join(" "));
  line("server RSS after publishing (MiB)", (r) => r.rssAfter, MiB);
  const sat = [...rs, ...nd, ...fl].flatMap((r) => Object.values(r.phases ?? {}).filter((p) => p.harnessCpuPct > 90).map((p) => `${r.label}/${p.phase}`));
  if (sat.length) console.log(`  ! the harness was >90% busy in ${[...new Set(sat)].join(", ")}: latencies there include client-side queueing`);
  const bad = [...rs, ...nd, ...fl].filter((r) => r.error || r.connectFailed > 0 || Object.values(r.phases ?? {}).some((p) => p.lost > 0 || p.reordered > 0));
  for (const r of bad) console.log(`  ! ${r.label}: ${r.error ?? ""} connect failures ${r.connectFailed ?? "?"}, lost/reordered above`);
  goals.push({ n, rs, nd, fl, cpuRatio, pairs });
}

// At a fixed rate every server sends each delivery on its own, and the floor does nothing else:
// its CPU per delivery is the kernel's, which no server sending the same way can go under.
if (goals.some((g) => g.fl.length)) {
  console.log("\n== CPU per delivery at the fixed rate, µs (floor: the sends alone, bench_floor)");
  const us = (runs) => 1e6 / med(runs, (r) => r.phases?.rate?.deliveriesPerCpuS);
  for (const { n, rs, nd, fl } of goals.filter((g) => g.fl.length)) {
    const [r, d, k] = [us(rs), us(nd), us(fl)];
    const above = (v) => `${v - k >= 0 ? "+" : "−"}${f(Math.abs(v - k), 1)}`;
    console.log(`  N=${n}: floor ${f(k, 1)}; rust ${f(r, 1)} (${above(r)}); node ${f(d, 1)} (${above(d)})` +
      `; the floor itself is ${ratio(d, k)} node's deliveries/CPU-s`);
  }
}

console.log("\n== Goals");
const mark = (ok) => (ok ? "✓" : "✗");
for (const { n, rs, cpuRatio: k, pairs } of goals) {
  const spread = pairs.length > 1 ? ` (runs ${Math.min(...pairs).toFixed(2)}–${Math.max(...pairs).toFixed(2)})` : "";
  const rss = med(rs, (r) => r.rssPerSocket);
  console.log(`  N=${n}: deliveries/CPU-s ≥ 3× node: ${Number.isFinite(k) ? `${k.toFixed(2)}×${spread} ${mark(k >= 3)}` : "—"}` +
    `   RSS/idle socket ≤ 8 KiB: ${f(rss / 1024, 2)} KiB ${mark(rss <= 8192)}` +
    `   (fixed-rate p99 ${f(med(rs, (r) => r.phases?.rate?.p99), 2)} ms)`);
}
const big = goals.filter((g) => g.n >= 19_000 && med(g.rs, (r) => r.connected) >= 19_000);
if (big.length) {
  for (const { n, rs } of big) {
    const p99 = med(rs, (r) => r.phases?.rate?.p99);
    console.log(`  p99 ≤ 10 ms at ~20k sockets (N=${n}, fixed rate): ${f(p99, 2)} ms ${mark(p99 <= 10)}`);
  }
} else {
  console.log(`  p99 ≤ 10 ms at 20k sockets: not measured (largest N ${Math.max(...sizes)}; BENCH_SIZES="1000 10000 19500" runs it)`);
}
