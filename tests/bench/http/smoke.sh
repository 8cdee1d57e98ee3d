#!/usr/bin/env bash
# `make test-bench-http`: the HTTP benchmark cannot rot. It runs tests/bench/http/run.sh for one
# second a route, one round, against the debug builds, and checks that every row of both tables
# is printed with figures above zero. Not a measurement (debug builds, no warm-up). About 20 s.
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=$(mktemp)
trap 'rm -f "$out"' EXIT
BENCH_DURATION=1 BENCH_WARMUP=0 BENCH_REPEAT=1 BENCH_CONNECTIONS=16 BENCH_LOG_ROUTES=time \
  PIZZA_BIN=${PIZZA_BIN:-target/debug/pizza-order} BARE_BIN=${BARE_BIN:-target/debug/examples/bench_bare_http} \
  bash tests/bench/http/run.sh >"$out" 2>&1 || { cat "$out"; echo "bench-http smoke: the script failed" >&2; exit 1; }
missing=()
for route in time store menu product order; do
  # route, ours, bare, ratio, …: both figures above zero.
  awk -v r="$route" '$1 == r && $2 > 0 && $3 > 0 && $4 ~ /%$/ {found = 1} END {exit !found}' "$out" || missing+=("$route")
done
# The logging table: route, off, pretty, json, two costs.
awk '$1 == "time" && $2 > 0 && $3 > 0 && $4 > 0 && $5 ~ /%$/ && $6 ~ /%$/ {found = 1} END {exit !found}' "$out" ||
  missing+=("time (logging)")
if [[ ${#missing[@]} -gt 0 ]]; then
  cat "$out"
  echo "bench-http smoke: no figures for: ${missing[*]}" >&2
  exit 1
fi
echo "bench-http smoke: every row printed"
