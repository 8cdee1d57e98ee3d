#!/usr/bin/env bash
# Runs the protocol-parser fuzz targets for a bounded time each and fails if any of them crashes.
#
#   tests/fuzz/run.sh                      every target, FUZZ_SECONDS (default 20) seconds each
#   FUZZ_SECONDS=300 tests/fuzz/run.sh socketio_packet     one target, longer
#
# cargo-fuzz needs nightly-only rustc flags (sanitizer, coverage instrumentation); on the stable
# toolchain they are allowed by RUSTC_BOOTSTRAP=1, which this script sets for its own cargo
# commands only. The first build instruments the whole server crate and its dependencies and takes
# several minutes; later runs reuse tests/fuzz/target.
#
# Each target runs on a copy of its seed corpus in tests/fuzz/target/corpus/<target>/ (libFuzzer
# adds the inputs it finds there, so they accumulate across runs without touching the committed
# seeds). A crashing input is saved under tests/fuzz/artifacts/<target>/; the log of each run is
# tests/fuzz/target/logs/<target>.log.
#
# FUZZ_SANITIZER (default address) is passed to cargo-fuzz's --sanitizer (address or none).
set -euo pipefail

FUZZ_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$FUZZ_DIR/../.." && pwd)"
SECONDS_EACH="${FUZZ_SECONDS:-20}"
SANITIZER="${FUZZ_SANITIZER:-address}"
ALL_TARGETS=(engineio_packet engineio_payload socketio_packet socketio_binary)
if [ $# -gt 0 ]; then TARGETS=("$@"); else TARGETS=("${ALL_TARGETS[@]}"); fi

if ! [[ "$SECONDS_EACH" =~ ^[0-9]+$ ]] || [ "$SECONDS_EACH" -lt 1 ]; then
  echo "FUZZ_SECONDS must be a positive number of seconds, not '$SECONDS_EACH'" >&2
  exit 2
fi

for target in "${TARGETS[@]}"; do
  if [[ " ${ALL_TARGETS[*]} " != *" $target "* ]]; then
    echo "unknown fuzz target '$target' (known: ${ALL_TARGETS[*]})" >&2
    exit 2
  fi
done

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "installing cargo-fuzz"
  cargo install cargo-fuzz --locked
fi

export RUSTC_BOOTSTRAP=1
cd "$ROOT"
fuzz=(--fuzz-dir "$FUZZ_DIR" --target-dir "$FUZZ_DIR/target" --sanitizer "$SANITIZER")

started=$(date +%s)
echo "building fuzz targets (sanitizer: $SANITIZER)"
cargo fuzz build "${fuzz[@]}"
echo "built in $(($(date +%s) - started)) s"

mkdir -p "$FUZZ_DIR/target/logs"
failed=()
for target in "${TARGETS[@]}"; do
  dict="$FUZZ_DIR/dicts/${target%%_*}.dict"
  corpus="$FUZZ_DIR/target/corpus/$target"
  mkdir -p "$corpus"
  cp "$FUZZ_DIR/corpus/$target"/seed-* "$corpus/"
  log="$FUZZ_DIR/target/logs/$target.log"

  set +e
  cargo fuzz run "${fuzz[@]}" "$target" "$corpus" -- \
    -max_total_time="$SECONDS_EACH" -timeout=10 -dict="$dict" -print_final_stats=1 \
    >"$log" 2>&1
  rc=$?
  set -e

  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n1)
  inputs=$(find "$corpus" -type f | wc -l)
  if [ "$rc" -eq 0 ]; then
    echo "fuzz $target: ok, ${SECONDS_EACH} s, ${runs:-?} runs, ${rate:-?} exec/s, corpus $inputs"
  else
    failed+=("$target")
    echo "fuzz $target: FAILED (exit $rc), ${runs:-?} runs; crash input in $FUZZ_DIR/artifacts/$target/, log $log"
    grep -E "panicked at|^SUMMARY|Failing input|ERROR: libFuzzer" "$log" | head -n 8 | sed 's/^/    /'
  fi
done

echo "fuzzing took $(($(date +%s) - started)) s"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz targets that crashed: ${failed[*]}" >&2
  exit 1
fi
