#!/usr/bin/env bash
# Counts the SQL statements (each one a round trip to PostgreSQL) of one order on the production
# path (`make bench-statements`, docs/benchmarks.md "What one order costs the database"): one
# `pizza-order serve` node as bench-e2e runs it (PostgreSQL, Redis, the sandbox providers), every
# statement logged (sqlx::query=debug), and tests/bench/statements/count.mjs running the order
# cycle phase by phase. A throwaway database and Redis prefix, dropped after.
#
# Environment: PIZZA_BIN (target/release/pizza-order), BENCH_DATABASE_URL, BENCH_REDIS_URL,
# CYCLES (9), BENCH_PORT (3600), BENCH_LOYALTY (1: a member spending points and a coupon).
set -euo pipefail
cd "$(dirname "$0")/../../.."
ROOT=$PWD
PIZZA_BIN=${PIZZA_BIN:-$ROOT/target/release/pizza-order}
PG_URL=${BENCH_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}
REDIS_URL_=${BENCH_REDIS_URL:-redis://127.0.0.1:6379}
PORT=${BENCH_PORT:-3600}
[[ -x $PIZZA_BIN ]] || { echo "$PIZZA_BIN is missing: cargo build --release --bin pizza-order" >&2; exit 2; }
pg_isready -q -d "$PG_URL" || { echo "no PostgreSQL at $PG_URL" >&2; exit 2; }
redis-cli -u "$REDIS_URL_" ping | grep -q PONG || { echo "no Redis at $REDIS_URL_" >&2; exit 2; }

WORK=$(mktemp -d /tmp/pizza-statements.XXXXXX)
DB=pizza_statements_$$
PREFIX=pizza-statements-$$:
PID=
cleanup() {
  [[ -n $PID ]] && { kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; }
  psql "$PG_URL" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1 || true
  redis-cli -u "$REDIS_URL_" --scan --pattern "$PREFIX*" | xargs -r -n 200 redis-cli -u "$REDIS_URL_" del >/dev/null || true
  if [[ ${BENCH_KEEP:-0} == 1 ]]; then echo "work dir kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

psql "$PG_URL" -qc "CREATE DATABASE $DB" >/dev/null
env=(PIZZA_ENV=production "DATABASE_URL=${PG_URL%/*}/$DB" "REDIS_URL=$REDIS_URL_"
  "PIZZA__REDIS__KEY_PREFIX=$PREFIX" PIZZA__SMS__ALLOW_SANDBOX=true PIZZA__PAYMENT__ALLOW_SANDBOX=true
  PIZZA__ORDERING__TABLE_SECRET=bench-statements-table-secret-0123456789
  PIZZA__PAYMENT__SANDBOX_SECRET=bench-statements-sandbox-notify-key-0123
  PIZZA__PAYMENT__MAX_ATTEMPTS_PER_USER_MINUTE=1000000
  PIZZA__ORDERING__OPS_TOKEN=bench-statements-ops-token-0123456789
  "PIZZA__SERVER__BIND=127.0.0.1:$PORT" "PIZZA__SERVER__STATIC_DIR=$ROOT/frontend/dist")
env -u RUST_LOG "${env[@]}" "$PIZZA_BIN" migrate --data-dir "$WORK/data" >"$WORK/migrate.log" 2>&1
env -u RUST_LOG "${env[@]}" "$PIZZA_BIN" seed --data-dir "$WORK/data" >"$WORK/seed.log" 2>&1
RUST_LOG=warn,sqlx::query=debug env "${env[@]}" "$PIZZA_BIN" serve --data-dir "$WORK/data" >"$WORK/node.log" 2>&1 &
PID=$!
for _ in $(seq 1 600); do
  curl -fs -o /dev/null "http://127.0.0.1:$PORT/health/ready" && break
  kill -0 "$PID" 2>/dev/null || { tail -n 30 "$WORK/node.log" >&2; exit 1; }
  sleep 0.1
done
BASE=http://127.0.0.1:$PORT NODE_LOG=$WORK/node.log CYCLES=${CYCLES:-9} LOYALTY=${BENCH_LOYALTY:-0} \
  OPS_TOKEN=bench-statements-ops-token-0123456789 node tests/bench/statements/count.mjs
