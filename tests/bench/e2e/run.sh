#!/usr/bin/env bash
# The end-to-end benchmark (`make bench-e2e`, docs/benchmarks.md): orders submitted and paid per
# second on the production path, PostgreSQL and Redis, with two `pizza-order serve` nodes (the
# customers on one, the store's tablet on the other) and then with one, and the p50/p99 of
# submit and of payment-to-tablet. The client is tests/bench/e2e/client.mjs.
#
# For each node count of BENCH_NODES (default "2 1"): a throwaway database on the PostgreSQL
# server of BENCH_DATABASE_URL (created, migrated, seeded, dropped after) and a Redis key prefix
# of its own (its keys deleted after); the nodes started as production runs them
# (PIZZA_ENV=production, JSON logs) with the staging overrides that allow the sandbox SMS and
# payment providers; BENCH_USERS customers (default 16, at most 20: the SMS sandbox's limit per
# client address an hour) ordering for BENCH_WARMUP (5) + BENCH_DURATION (20) seconds.
#
# Workers: BENCH_WORKERS a node (default: 2 for one node, 1 each for two, so both runs have
# two workers for this machine's two cores). Nothing is pinned: the nodes, PostgreSQL, Redis and
# the client share the cores, as they would not in production.
#
# Environment: PIZZA_BIN (target/release/pizza-order), BENCH_DATABASE_URL
# (postgres://postgres@127.0.0.1:5432/postgres), BENCH_REDIS_URL (redis://127.0.0.1:6379),
# BENCH_NODES, BENCH_USERS, BENCH_DURATION, BENCH_WARMUP, BENCH_WORKERS, BENCH_PORT (3500), BENCH_LOYALTY
# (1: every customer a club member spending points and a coupon on every order).
set -euo pipefail
cd "$(dirname "$0")/../../.."
ROOT=$PWD
PIZZA_BIN=${PIZZA_BIN:-$ROOT/target/release/pizza-order}
PG_URL=${BENCH_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}
REDIS_URL_=${BENCH_REDIS_URL:-redis://127.0.0.1:6379}
NODE_COUNTS=${BENCH_NODES:-"2 1"}
USERS=${BENCH_USERS:-16}
DURATION=${BENCH_DURATION:-20}
WARMUP=${BENCH_WARMUP:-5}
PORT=${BENCH_PORT:-3500}
[[ -x $PIZZA_BIN ]] || { echo "$PIZZA_BIN is missing: cargo build --release --bin pizza-order" >&2; exit 2; }
pg_isready -q -d "$PG_URL" || { echo "no PostgreSQL at $PG_URL" >&2; exit 2; }
redis-cli -u "$REDIS_URL_" ping | grep -q PONG || { echo "no Redis at $REDIS_URL_" >&2; exit 2; }

WORK=$(mktemp -d /tmp/pizza-bench-e2e.XXXXXX)
PIDS=()
DB= PREFIX=
stop_nodes() {
  local pid
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  PIDS=()
}
drop_data() {
  if [[ -n $DB ]]; then psql "$PG_URL" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1 || true; fi
  if [[ -n $PREFIX ]]; then
    redis-cli -u "$REDIS_URL_" --scan --pattern "$PREFIX*" | xargs -r -n 200 redis-cli -u "$REDIS_URL_" del >/dev/null || true
  fi
  DB= PREFIX=
}
cleanup() {
  stop_nodes
  drop_data
  if [[ ${BENCH_KEEP:-0} == 1 ]]; then echo "work dir kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

RESULTS=()
for nodes in $NODE_COUNTS; do
  DB=pizza_bench_e2e_$$_$nodes
  PREFIX=pizza-bench-e2e-$$-$nodes:
  workers=${BENCH_WORKERS:-$((nodes == 1 ? 2 : 1))}
  psql "$PG_URL" -qc "CREATE DATABASE $DB" >/dev/null
  env=(PIZZA_ENV=production "DATABASE_URL=${PG_URL%/*}/$DB" "REDIS_URL=$REDIS_URL_"
    "PIZZA__REDIS__KEY_PREFIX=$PREFIX" PIZZA__SMS__ALLOW_SANDBOX=true PIZZA__PAYMENT__ALLOW_SANDBOX=true
    PIZZA__ORDERING__TABLE_SECRET=bench-e2e-table-secret-0123456789
    PIZZA__PAYMENT__SANDBOX_SECRET=bench-e2e-sandbox-notify-key-0123456789
    # Each customer here pays several orders a second, far past a person's ceiling of new
    # payment attempts a minute (docs/payments-and-orders.md "Attempts under load").
    PIZZA__PAYMENT__MAX_ATTEMPTS_PER_USER_MINUTE=1000000
    # The chain's operations API: the loyalty variant (BENCH_LOYALTY=1) gives each customer
    # points and coupons through it.
    PIZZA__ORDERING__OPS_TOKEN=bench-e2e-ops-token-0123456789
    "PIZZA__SERVER__WORKERS=$workers" "PIZZA__SERVER__STATIC_DIR=$ROOT/frontend/dist")
  env -u RUST_LOG "${env[@]}" "$PIZZA_BIN" migrate --data-dir "$WORK/data" >"$WORK/migrate.log" 2>&1
  env -u RUST_LOG "${env[@]}" "$PIZZA_BIN" seed --data-dir "$WORK/data" >"$WORK/seed.log" 2>&1
  bases=()
  for i in $(seq 1 "$nodes"); do
    port=$((PORT + i))
    env -u RUST_LOG "${env[@]}" "PIZZA__SERVER__BIND=127.0.0.1:$port" "$PIZZA_BIN" serve --data-dir "$WORK/data" \
      >"$WORK/node$i.$nodes.log" 2>&1 &
    PIDS+=($!)
    bases+=("http://127.0.0.1:$port")
  done
  for i in $(seq 1 "$nodes"); do
    for _ in $(seq 1 600); do
      curl -fs -o /dev/null "${bases[$((i - 1))]}/health/ready" && break
      kill -0 "${PIDS[$((i - 1))]}" 2>/dev/null || { tail -n 30 "$WORK/node$i.$nodes.log" >&2; exit 1; }
      sleep 0.1
    done
  done
  echo "$nodes node(s), $workers worker(s) each: $USERS customers on ${bases[0]}, the tablet on ${bases[-1]}, ${WARMUP}s warm-up + ${DURATION}s"
  out=$(CUSTOMER_BASE=${bases[0]} STORE_BASE=${bases[-1]} USERS=$USERS DURATION_SECONDS=$DURATION WARMUP_SECONDS=$WARMUP \
    LOYALTY=${BENCH_LOYALTY:-0} OPS_TOKEN=bench-e2e-ops-token-0123456789 \
    node tests/bench/e2e/client.mjs) || { echo "$out" >&2; echo "the client failed" >&2; exit 1; }
  result=$(tail -n 1 <<<"$out")
  echo "  $result"
  RESULTS+=("$nodes $result")
  stop_nodes
  drop_data
done

echo
printf '%-6s %10s %9s %7s %12s %12s %16s %16s %19s %19s\n' nodes orders/s submitted errors "submit p50" "submit p99" "pay→tablet p50" "pay→tablet p99" "notify→tablet p50" "notify→tablet p99"
for line in "${RESULTS[@]}"; do
  nodes=${line%% *} json=${line#* }
  node -e '
    const r = JSON.parse(process.argv[2]);
    const ms = (v) => (v === null ? "-" : `${v} ms`);
    console.log([process.argv[1].padEnd(6), String(r.ordersPerSecond).padStart(10), String(r.submitted).padStart(9),
      String(r.errors).padStart(7), ms(r.submitP50).padStart(12), ms(r.submitP99).padStart(12),
      ms(r.payToTabletP50).padStart(16), ms(r.payToTabletP99).padStart(16),
      ms(r.notifyToTabletP50).padStart(19), ms(r.notifyToTabletP99).padStart(19)].join(" "));
    if (r.errors) console.log(`       last error: ${r.lastError}`);
  ' "$nodes" "$json"
done
