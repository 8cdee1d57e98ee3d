#!/usr/bin/env bash
# The memory soak (`make bench-soak`, docs/benchmarks.md "Memory soak"): one `pizza-order serve`
# node as production runs it (PostgreSQL and Redis, the e2e benchmark's settings) takes orders
# from tests/bench/soak/client.mjs for BENCH_DURATION seconds, then stays idle BENCH_IDLE
# seconds. The server's resident memory (VmRSS of /proc/<pid>/status) is sampled every
# BENCH_SAMPLE seconds; the report gives RSS at start (ready, before any order), the peak, at
# the end of the load and after the idle time: whether memory is flat or bounded, not speed.
#
# A throwaway database on BENCH_DATABASE_URL's server and a Redis key prefix of its own, both
# removed after. Extra server settings go through the environment as usual (PIZZA__…), e.g.
# PIZZA__MEMORY__ORDER_VIEWS=100 to see a bound hold under load.
#
# Environment: PIZZA_BIN (target/release/pizza-order; target/debug/pizza-order works, slower),
# BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres), BENCH_REDIS_URL
# (redis://127.0.0.1:6379), BENCH_USERS (8), BENCH_RATE (orders/s, 0: no pause), BENCH_DURATION (600), BENCH_IDLE (60),
# BENCH_SAMPLE (10), BENCH_WORKERS (2), BENCH_PORT (3600), BENCH_SAMPLES_FILE (keep the samples).
set -euo pipefail
cd "$(dirname "$0")/../../.."
ROOT=$PWD
PIZZA_BIN=${PIZZA_BIN:-$ROOT/target/release/pizza-order}
PG_URL=${BENCH_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}
REDIS_URL_=${BENCH_REDIS_URL:-redis://127.0.0.1:6379}
USERS=${BENCH_USERS:-8}
DURATION=${BENCH_DURATION:-600}
IDLE=${BENCH_IDLE:-60}
SAMPLE=${BENCH_SAMPLE:-10}
WORKERS=${BENCH_WORKERS:-2}
PORT=${BENCH_PORT:-3600}
[[ -x $PIZZA_BIN ]] || { echo "$PIZZA_BIN is missing: cargo build --release --bin pizza-order" >&2; exit 2; }
pg_isready -q -d "$PG_URL" || { echo "no PostgreSQL at $PG_URL" >&2; exit 2; }
redis-cli -u "$REDIS_URL_" ping | grep -q PONG || { echo "no Redis at $REDIS_URL_" >&2; exit 2; }

WORK=$(mktemp -d /tmp/pizza-bench-soak.XXXXXX)
DB=pizza_bench_soak_$$
PREFIX=pizza-bench-soak-$$:
SERVER_PID= CLIENT_PID=
cleanup() {
  if [[ -n $CLIENT_PID ]]; then kill "$CLIENT_PID" 2>/dev/null || true; fi
  if [[ -n $SERVER_PID ]]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  psql "$PG_URL" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1 || true
  redis-cli -u "$REDIS_URL_" --scan --pattern "$PREFIX*" | xargs -r -n 200 redis-cli -u "$REDIS_URL_" del >/dev/null || true
  if [[ ${BENCH_KEEP:-0} == 1 ]]; then echo "work dir kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

psql "$PG_URL" -qc "CREATE DATABASE $DB" >/dev/null
env=(PIZZA_ENV=production "DATABASE_URL=${PG_URL%/*}/$DB" "REDIS_URL=$REDIS_URL_"
  "PIZZA__REDIS__KEY_PREFIX=$PREFIX" PIZZA__SMS__ALLOW_SANDBOX=true PIZZA__PAYMENT__ALLOW_SANDBOX=true
  PIZZA__ORDERING__TABLE_SECRET=bench-soak-table-secret-0123456789
  PIZZA__PAYMENT__SANDBOX_SECRET=bench-soak-sandbox-notify-key-0123456789
  # Each customer pays an order every second or so, past a person's ceiling of new payment
  # attempts a minute (docs/payments-and-orders.md "Attempts under load").
  PIZZA__PAYMENT__MAX_ATTEMPTS_PER_USER_MINUTE=1000000
  "PIZZA__SERVER__WORKERS=$WORKERS" "PIZZA__SERVER__STATIC_DIR=$ROOT/frontend/dist"
  "PIZZA__SERVER__BIND=127.0.0.1:$PORT")
env -u RUST_LOG "${env[@]}" "$PIZZA_BIN" migrate --data-dir "$WORK/data" >"$WORK/migrate.log" 2>&1
env -u RUST_LOG "${env[@]}" "$PIZZA_BIN" seed --data-dir "$WORK/data" >"$WORK/seed.log" 2>&1
env -u RUST_LOG "${env[@]}" "$PIZZA_BIN" serve --data-dir "$WORK/data" >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
BASE=http://127.0.0.1:$PORT
for _ in $(seq 1 600); do
  curl -fs -o /dev/null "$BASE/health/ready" && break
  kill -0 "$SERVER_PID" 2>/dev/null || { tail -n 30 "$WORK/server.log" >&2; exit 1; }
  sleep 0.1
done

rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$SERVER_PID/status"; }
mb() { awk -v kb="$1" 'BEGIN { printf "%.1f MB", kb / 1024 }'; }
SAMPLES=${BENCH_SAMPLES_FILE:-$WORK/samples.tsv}
started=$(date +%s)
sample() { # phase
  local kb
  kb=$(rss_kb)
  printf '%s\t%s\t%s\n' "$(($(date +%s) - started))" "$1" "$kb" >>"$SAMPLES"
  echo "$kb"
}
printf 'seconds\tphase\trss_kb\n' >"$SAMPLES"
start_kb=$(sample start)
echo "server $SERVER_PID ready at $BASE, RSS $(mb "$start_kb"); $USERS customers for ${DURATION}s, then ${IDLE}s idle"

BASE=$BASE USERS=$USERS DURATION_SECONDS=$DURATION RATE=${BENCH_RATE:-0} node tests/bench/soak/client.mjs >"$WORK/client.log" 2>&1 &
CLIENT_PID=$!
peak_kb=$start_kb
while kill -0 "$CLIENT_PID" 2>/dev/null; do
  sleep "$SAMPLE"
  kill -0 "$SERVER_PID" 2>/dev/null || { tail -n 30 "$WORK/server.log" >&2; exit 1; }
  kb=$(sample load)
  ((kb > peak_kb)) && peak_kb=$kb
  echo "  $(($(date +%s) - started))s RSS $(mb "$kb")  $(grep '^t=' "$WORK/client.log" | tail -n 1 || true)"
done
wait "$CLIENT_PID" || { tail -n 5 "$WORK/client.log" >&2; echo "the client failed" >&2; exit 1; }
CLIENT_PID=
end_kb=$(sample end)
((end_kb > peak_kb)) && peak_kb=$end_kb
totals=$(tail -n 1 "$WORK/client.log")
for ((waited = 0; waited < IDLE; waited += SAMPLE)); do
  sleep "$SAMPLE"
  idle_kb=$(sample idle)
done
idle_kb=${idle_kb:-$(sample idle)}

echo
echo "orders: $totals"
printf '%-10s %12s\n' "RSS" ""
printf '%-10s %12s\n' start "$(mb "$start_kb")" peak "$(mb "$peak_kb")" "end load" "$(mb "$end_kb")" "idle ${IDLE}s" "$(mb "$idle_kb")"
echo "samples: $SAMPLES"
