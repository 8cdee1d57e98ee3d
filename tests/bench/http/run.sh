#!/usr/bin/env bash
# The HTTP benchmark (`make bench-http`, docs/benchmarks.md): `pizza-order serve` (release
# build, embedded SQLite, the demo chain, one worker) against a bare actix-web handler answering
# the same bytes (examples/bench_bare_http.rs), same client, one core each: the server on core 0,
# wrk on core 1.
#
# 1. Ours starts on a fresh data dir; tests/bench/http/capture.mjs registers a customer, places
#    an order and fetches each route once (the clock, the store card, the menu, one product, the
#    order's detail, logged in), keeping each body for the bare peer.
# 2. BENCH_REPEAT rounds (default 3). A round starts the four servers afresh, side by side on
#    ports of their own, all on the server core (an idle one costs nothing): ours as configured
#    by default (pretty log, an access line for every request, /metrics counting), ours with
#    JSON logs, ours with request logging off (filter "warn"), the bare peer. Then route by
#    route, the variants take turns on that route (the first of them rotating from round to
#    round): a warm-up run (BENCH_WARMUP s) and a measured one (BENCH_DURATION s) of
#    `wrk -t1 -c$BENCH_CONNECTIONS` each. Ours and bare are so measured within seconds of each
#    other, not minutes: on a shared VM whose speed drifts, a pair sees the same machine. The
#    logging variants run the routes of BENCH_LOG_ROUTES.
# 3. One table of medians: ours, bare, ratio (goal ≥ 60 %); then the cost of the access log,
#    pretty and JSON, against logging off (goal ≤ 10 %).
#
# Environment: PIZZA_BIN (target/release/pizza-order), BARE_BIN
# (target/release/examples/bench_bare_http), BENCH_REPEAT (3), BENCH_DURATION (10),
# BENCH_WARMUP (3; 0: none), BENCH_CONNECTIONS (64), BENCH_LOG_ROUTES ("time store"),
# BENCH_HTTP_PORT (3400: the first of four), BENCH_KEEP (1: keep the work dir and the logs), BENCH_VARIANTS
# ("ours ours-json ours-off bare": which servers take turns, for an A/B of one of them),
# BENCH_CALLGRIND (1: count instructions instead, below).
#
# BENCH_CALLGRIND=1 (`make bench-http-instructions`) runs every server under valgrind's
# callgrind and wrk with one connection, zeroes the counts after the warm-up and reads them after
# the measured run: the figure is requests per 10^9 instructions (all threads, user space only),
# the same from run to run whatever else the machine does, where requests per CPU-second on a
# shared VM move by a fifth. The kernel's part of a request is not in it.
#
# Exits non-zero if any measured run saw an error, a non-2xx answer or no request at all.
set -euo pipefail
cd "$(dirname "$0")/../../.."
ROOT=$PWD
PIZZA_BIN=${PIZZA_BIN:-$ROOT/target/release/pizza-order}
BARE_BIN=${BARE_BIN:-$ROOT/target/release/examples/bench_bare_http}
REPEAT=${BENCH_REPEAT:-3}
DURATION=${BENCH_DURATION:-10}
WARMUP=${BENCH_WARMUP:-3}
CALLGRIND=${BENCH_CALLGRIND:-0}
CONNECTIONS=${BENCH_CONNECTIONS:-$([[ $CALLGRIND == 1 ]] && echo 1 || echo 64)}
UNIT=req/CPU-s
if [[ $CALLGRIND == 1 ]]; then
  command -v valgrind >/dev/null || { echo "valgrind is missing (apt-get install valgrind)" >&2; exit 2; }
  UNIT=req/Ginstr
fi
LOG_ROUTES=${BENCH_LOG_ROUTES:-"time store"}
PORT=${BENCH_HTTP_PORT:-3400}
for n in REPEAT DURATION CONNECTIONS; do
  if ! [[ ${!n} =~ ^[1-9][0-9]*$ ]]; then echo "BENCH_$n must be a positive whole number" >&2; exit 2; fi
done
if ! [[ $WARMUP =~ ^[0-9]+$ ]]; then echo "BENCH_WARMUP must be a whole number" >&2; exit 2; fi
for bin in "$PIZZA_BIN" "$BARE_BIN"; do
  if [[ ! -x $bin ]]; then
    echo "$bin is missing: cargo build --release --bin pizza-order --example bench_bare_http" >&2
    exit 2
  fi
done
command -v wrk >/dev/null || { echo "wrk is missing (apt-get install wrk)" >&2; exit 2; }
command -v node >/dev/null || { echo "node is missing" >&2; exit 2; }

WORK=$(mktemp -d /tmp/pizza-bench-http.XXXXXX)
RESULTS=$WORK/results.tsv
: >"$RESULTS"
# The running servers: variant -> pid, and the port each variant answers on.
declare -A PIDS=() PORTS=()
cleanup() {
  stop_servers
  if [[ ${BENCH_KEEP:-0} == 1 ]]; then echo "work dir kept: $WORK"; else rm -rf "$WORK"; fi
}
stop_servers() {
  local variant
  for variant in "${!PIDS[@]}"; do kill "${PIDS[$variant]}" 2>/dev/null || true; done
  for variant in "${!PIDS[@]}"; do wait "${PIDS[$variant]}" 2>/dev/null || true; done
  PIDS=()
}
trap cleanup EXIT
trap 'exit 130' INT TERM

PIN_SERVER=() PIN_CLIENT=()
if command -v taskset >/dev/null && [[ $(nproc) -ge 2 ]]; then
  PIN_SERVER=(taskset -c 0) PIN_CLIENT=(taskset -c 1)
fi

HZ=$(getconf CLK_TCK)

# Starts a server variant on its port (the variant's data dir a copy of the captured one, so that
# the three of ours never share a database file) and waits until it answers. Its stdout (the
# log) goes to a file, removed after the round: at tens of thousands of lines a second it grows
# fast.
start_server() {
  local variant=$1 log=$WORK/$1.log port=${PORTS[$1]} data=$WORK/data
  [[ ${2:-} == plain ]] || data=$WORK/data-$variant
  local env=(PIZZA__SERVER__WORKERS=1 "PIZZA__SERVER__BIND=127.0.0.1:$port"
    "PIZZA__SERVER__STATIC_DIR=$ROOT/frontend/dist" NO_COLOR=1)
  case $variant in
    ours) ;;
    ours-json) env+=(PIZZA__LOG__FORMAT=json) ;;
    ours-off) env+=(PIZZA__LOG__FILTER=warn) ;;
    bare) ;;
  esac
  local under=()
  if [[ $CALLGRIND == 1 && ${2:-} != plain ]]; then
    under=(valgrind --tool=callgrind "--callgrind-out-file=$WORK/callgrind.%p")
  fi
  if [[ $variant == bare ]]; then
    "${PIN_SERVER[@]}" env BARE_WORKERS=1 "${under[@]}" "$BARE_BIN" "$port" "$WORK/manifest.tsv" >"$log" 2>&1 &
  else
    "${PIN_SERVER[@]}" env -u RUST_LOG -u PIZZA_ENV "${env[@]}" "${under[@]}" "$PIZZA_BIN" serve --data-dir "$data" >"$log" 2>&1 &
  fi
  PIDS[$variant]=$!
  local probe=/health/live
  [[ $variant == bare ]] && probe=/api/v1/system/time
  for _ in $(seq 1 600); do
    if curl -fs -o /dev/null "http://127.0.0.1:$port$probe"; then return 0; fi
    if ! kill -0 "${PIDS[$variant]}" 2>/dev/null; then
      echo "$variant exited before answering:" >&2
      tail -n 30 "$log" >&2
      exit 1
    fi
    sleep 0.1
  done
  echo "$variant did not answer within 60 s" >&2
  tail -n 30 "$log" >&2
  exit 1
}

# A server's CPU time so far, in clock ticks (user + system, all its threads).
cpu_ticks() {
  awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0
}

# One wrk run; prints "requests/s requests-per-server-CPU-second", or records a failure.
# The second figure is what a core of the server's buys: on a machine where other work shares
# the server's core it still compares the variants fairly (wall-clock req/s does not).
measure() {
  local variant=$1 route=$2 path=$3 auth=$4 seconds=$5 out
  local pid=${PIDS[$variant]} base=http://127.0.0.1:${PORTS[$variant]}
  local headers=()
  if [[ $auth == 1 ]]; then headers=(-H "Authorization: Bearer $(cat "$WORK/token")"); fi
  local before after
  [[ $CALLGRIND == 1 ]] && callgrind_control -z "$pid" >/dev/null 2>&1
  before=$(cpu_ticks "$pid")
  out=$("${PIN_CLIENT[@]}" wrk -t1 -c"$CONNECTIONS" -d"${seconds}s" "${headers[@]}" "$base$path" 2>&1) || true
  after=$(cpu_ticks "$pid")
  local rps bad requests per_cpu
  rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
  requests=$(awk '/requests in/ {print $1}' <<<"$out")
  bad=$(awk '/Non-2xx or 3xx responses:/ {print $5} /Socket errors:/ {print "socket errors"}' <<<"$out")
  if [[ -z $rps || $rps == 0.00 || -n $bad ]]; then
    echo "FAILED: $variant $route ($path): ${bad:-no requests}" >&2
    echo "$out" >&2
    echo "$variant $route" >>"$WORK/failures"
  fi
  if [[ $CALLGRIND == 1 ]]; then
    # The counts since the zeroing, dumped into a file of their own: requests per 10^9.
    callgrind_control -d "$pid" >/dev/null 2>&1
    local dump instructions
    dump=$(ls -t "$WORK/callgrind.$pid".* 2>/dev/null | head -n 1)
    instructions=$(awk '/^(summary|totals):/ {print $2; exit}' "$dump" 2>/dev/null)
    rm -f "$dump"
    per_cpu=$(awk -v n="${requests:-0}" -v i="${instructions:-0}" 'BEGIN { printf "%.0f", (i > 0 ? n * 1e9 / i : 0) }')
  else
    per_cpu=$(awk -v n="${requests:-0}" -v t=$((after - before)) -v hz="$HZ" 'BEGIN { printf "%.0f", (t > 0 ? n * hz / t : 0) }')
  fi
  echo "${rps:-0} $per_cpu"
}

routes_of() {
  case $1 in
    ours | bare) cut -f1 "$WORK/routes.tsv" ;;
    *) tr ' ' '\n' <<<"$LOG_ROUTES" | grep -v '^$' ;;
  esac
}

echo "pizza-order: $PIZZA_BIN"
echo "bare peer:   $BARE_BIN"
echo "wrk -t1 -c$CONNECTIONS -d${DURATION}s (warm-up ${WARMUP}s), $REPEAT rounds; server ${PIN_SERVER[*]:-unpinned}, wrk ${PIN_CLIENT[*]:-unpinned}"

# 1. The data: a fresh embedded database (seeded on first start), a customer, an order; then a
#    copy of it for each of ours.
read -r -a VARIANTS <<<"${BENCH_VARIANTS:-ours ours-json ours-off bare}"
for i in "${!VARIANTS[@]}"; do PORTS[${VARIANTS[$i]}]=$((PORT + i)); done
PORTS[capture]=$PORT
start_server capture plain
node tests/bench/http/capture.mjs "http://127.0.0.1:$PORT" "$WORK"
stop_servers
for variant in "${VARIANTS[@]}"; do
  [[ $variant == bare ]] || cp -r "$WORK/data" "$WORK/data-$variant"
done

# 2. The rounds: the servers side by side, then route by route, the variants in turn.
ROUTES=$(cut -f1 "$WORK/routes.tsv")
for round in $(seq 1 "$REPEAT"); do
  for variant in "${VARIANTS[@]}"; do start_server "$variant"; done
  for route in $ROUTES; do
    line=$(grep -P "^$route\t" "$WORK/routes.tsv") || { echo "no route $route" >&2; exit 2; }
    path=$(cut -f2 <<<"$line") auth=$(cut -f3 <<<"$line")
    # Who goes first rotates, so that no variant always follows the same one.
    for ((k = 0; k < ${#VARIANTS[@]}; k++)); do
      variant=${VARIANTS[$(((k + round - 1) % ${#VARIANTS[@]}))]}
      [[ " $(routes_of "$variant" | tr '\n' ' ') " == *" $route "* ]] || continue
      if [[ $WARMUP -gt 0 ]]; then measure "$variant" "$route" "$path" "$auth" "$WARMUP" >/dev/null; fi
      read -r rps per_cpu < <(measure "$variant" "$route" "$path" "$auth" "$DURATION")
      printf '%s\t%s\t%s\t%s\t%s\n' "$variant" "$route" "$round" "$rps" "$per_cpu" >>"$RESULTS"
      printf '  round %s  %-9s %-8s %10.0f req/s %10.0f %s\n' "$round" "$variant" "$route" "$rps" "$per_cpu" "$UNIT"
    done
  done
  for variant in "${VARIANTS[@]}"; do
    if [[ $variant != bare ]]; then
      printf '  round %s  %-9s log: %s lines\n' "$round" "$variant" "$(wc -l <"$WORK/$variant.log")"
    fi
  done
  stop_servers
  [[ ${BENCH_KEEP:-0} == 1 ]] || rm -f "$WORK"/ours*.log
  [[ $CALLGRIND == 1 ]] && rm -f "$WORK"/callgrind.*
done

# 3. The table.
echo
awk -F'\t' -v unit="$UNIT" -v routes="$(cut -f1 "$WORK/routes.tsv" | tr '\n' ' ')" -v log_routes="$LOG_ROUTES" '
  function median(key,    n, i, j, t, v) {
    n = split(key, v, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j-1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j-1]; v[j-1] = t }
    if (n == 0) return 0
    return n % 2 ? v[(n+1)/2] : (v[n/2] + v[n/2+1]) / 2
  }
  {
    runs[$1 "/" $2] = runs[$1 "/" $2] " " $4; cpu[$1 "/" $2] = cpu[$1 "/" $2] " " $5
    each[$1 "/" $2 "/" $3] = $5
  }
  END {
    printf "%-8s %11s %11s %7s %14s %14s %9s %-16s %6s %s\n", "route", "ours req/s", "bare req/s", "ratio",
      "ours " unit, "bare " unit, "ratio/" unit, "each round", "paired", "goal >= 60 % (paired " unit ")"
    n = split(routes, r, " ")
    for (i = 1; i <= n; i++) {
      o = median(runs["ours/" r[i]]); b = median(runs["bare/" r[i]])
      if (o == 0 || b == 0) { printf "%-8s not measured: needs ours and bare\n", r[i]; continue }
      oc = median(cpu["ours/" r[i]]); bc = median(cpu["bare/" r[i]])
      ratio = b > 0 ? 100 * o / b : 0; rc = bc > 0 ? 100 * oc / bc : 0
      rounds = ""; paired = ""
      for (k = 1; ("ours/" r[i] "/" k) in each; k++) {
        x = each["bare/" r[i] "/" k] > 0 ? 100 * each["ours/" r[i] "/" k] / each["bare/" r[i] "/" k] : 0
        rounds = rounds sprintf("%s%.0f", k > 1 ? " " : "", x); paired = paired " " x
      }
      # The goal is read on the median of the paired ratios of the rounds: the two were measured
      # seconds apart, where the medians of each variant may come from rounds minutes apart.
      pr = median(paired)
      printf "%-8s %11.0f %11.0f %6.1f%% %14.0f %14.0f %8.1f%% %-16s %5.1f%% %s\n", r[i], o, b, ratio, oc, bc, rc, rounds, pr, unit != "req/CPU-s" ? "(read per CPU-s)" : pr >= 60 ? "met" : "NOT MET"
    }
    print ""
    printf "%-8s %10s %10s %10s %11s %11s %14s %14s %-22s %-22s %s\n", "route", "log off", "pretty", "json", "cost pretty", "cost json",
      "cost pretty/" unit, "cost json/" unit, "pretty: each, paired", "json: each, paired", "goal <= 10 % (paired " unit ")"
    n = split(log_routes, r, " ")
    for (i = 1; i <= n; i++) {
      off = median(runs["ours-off/" r[i]]); p = median(runs["ours/" r[i]]); js = median(runs["ours-json/" r[i]])
      if (off == 0 || p == 0 || js == 0) { printf "%-8s not measured: needs ours, ours-json and ours-off\n", r[i]; continue }
      offc = median(cpu["ours-off/" r[i]]); pc = median(cpu["ours/" r[i]]); jc = median(cpu["ours-json/" r[i]])
      cp = off > 0 ? 100 * (1 - p / off) : 0; cj = off > 0 ? 100 * (1 - js / off) : 0
      cpc = offc > 0 ? 100 * (1 - pc / offc) : 0; cjc = offc > 0 ? 100 * (1 - jc / offc) : 0
      # As for the ratios: the cost in each round against the logging-off run of the same round.
      ep = ""; ej = ""; pp = ""; pj = ""
      for (k = 1; ("ours-off/" r[i] "/" k) in each; k++) {
        base = each["ours-off/" r[i] "/" k]
        x = base > 0 ? 100 * (1 - each["ours/" r[i] "/" k] / base) : 0
        y = base > 0 ? 100 * (1 - each["ours-json/" r[i] "/" k] / base) : 0
        ep = ep sprintf("%s%.0f", k > 1 ? " " : "", x); pp = pp " " x
        ej = ej sprintf("%s%.0f", k > 1 ? " " : "", y); pj = pj " " y
      }
      mp = median(pp); mj = median(pj)
      printf "%-8s %10.0f %10.0f %10.0f %10.1f%% %10.1f%% %13.1f%% %13.1f%% %-22s %-22s %s\n", r[i], off, p, js, cp, cj, cpc, cjc,
        ep sprintf(", %.1f%%", mp), ej sprintf(", %.1f%%", mj), unit != "req/CPU-s" ? "(read per CPU-s)" : (mp <= 10 && mj <= 10) ? "met" : "NOT MET"
    }
  }' "$RESULTS"
echo
echo "ours: pizza-order serve, 1 worker, embedded SQLite, /metrics counting every request; pretty"
echo "log with an access line per request unless said. Medians of $REPEAT rounds; the goals are read"
echo "on the median of each round's paired figure (ours against bare, a log against none: measured"
echo "seconds apart, where the medians of two variants may come from rounds minutes apart on a VM"
echo "whose speed drifts). req/CPU-s: requests per second of the server's own CPU time (user +"
echo "system, from /proc): the fair figure when other work shares the server's core; on a quiet"
echo "machine the two agree."
if [[ $CALLGRIND == 1 ]]; then
  echo "BENCH_CALLGRIND: every server under callgrind, one connection; req/Ginstr (requests per 10^9"
  echo "instructions, all threads, user space) stands where req/CPU-s stands above."
fi
if [[ -s $WORK/failures ]]; then
  echo "FAILED runs: $(tr '\n' ',' <"$WORK/failures")" >&2
  exit 1
fi
