#!/usr/bin/env bash
# The Rust tests in one stage: every test target built once; the whole workspace on the
# embedded SQLite (it keeps both cores busy); then the integration tests (tests/api) on
# PostgreSQL and with Redis side by side: those two wait on the database and Redis as much as
# they compute, and together take 5.3 minutes where one after the other took 6.3 (docs/ci.md).
#
# PostgreSQL and Redis are mandatory on CI (CI=true); locally a variant whose server does
# not answer is SKIPPED with a line that says so. Each run's output goes to its own log under
# target/test-logs/, printed whole when that run fails, its `test result` lines otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."

CARGO=${CARGO:-cargo}
DB_URL=${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}
REDIS_URL=${TEST_REDIS_URL:-redis://127.0.0.1:6379}
LOGS=target/test-logs
mkdir -p "$LOGS"

if ! out=$($CARGO test --workspace --no-run 2>&1); then
  echo "$out"
  exit 1
fi
echo "$out" | grep -E "^\s*(Finished|Executable)" || true
api_bin=$(echo "$out" | sed -n 's/.*Executable tests\/api\/main.rs (\(.*\))/\1/p' | head -n1)
if [ -z "$api_bin" ] || [ ! -x "$api_bin" ]; then
  echo "could not find the api test binary in cargo's output" >&2
  exit 1
fi

pg_up=false
redis_up=false
pg_isready -q -d "$DB_URL" 2>/dev/null && pg_up=true
redis-cli -u "$REDIS_URL" ping 2>/dev/null | grep -q PONG && redis_up=true
if [ "${CI:-}" = "true" ]; then
  $pg_up || { echo "PostgreSQL is not reachable at $DB_URL and is mandatory on CI" >&2; exit 1; }
  $redis_up || { echo "Redis is not reachable at $REDIS_URL and is mandatory on CI" >&2; exit 1; }
fi

names=()
pids=()
start() {
  local name=$1
  shift
  ( "$@" >"$LOGS/$name.log" 2>&1 ) &
  names+=("$name")
  pids+=($!)
  echo "started $name"
}

status=0
if $CARGO test --workspace >"$LOGS/sqlite.log" 2>&1; then
  echo "--- sqlite: passed"
  grep -E "^(test result|     Running|   Doc-tests)" "$LOGS/sqlite.log"
else
  echo "--- sqlite: FAILED, its whole log:"
  cat "$LOGS/sqlite.log"
  exit 1
fi

if $pg_up; then
  start postgres env TEST_DATABASE_URL="$DB_URL" "$api_bin"
else
  echo "SKIPPED: PostgreSQL variant (no server at $DB_URL); CI runs it"
fi
if $redis_up; then
  if $pg_up; then
    start redis env TEST_DATABASE_URL="$DB_URL" TEST_REDIS_URL="$REDIS_URL" "$api_bin"
  else
    start redis env TEST_REDIS_URL="$REDIS_URL" "$api_bin"
  fi
else
  echo "SKIPPED: Redis variant (no server at $REDIS_URL); CI runs it"
fi

for i in "${!pids[@]}"; do
  name=${names[$i]}
  if wait "${pids[$i]}"; then
    echo "--- $name: passed"
    grep -E "^(test result|     Running|   Doc-tests)" "$LOGS/$name.log"
  else
    status=1
    echo "--- $name: FAILED, its whole log:"
    cat "$LOGS/$name.log"
  fi
done
exit $status
