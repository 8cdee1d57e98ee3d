#!/usr/bin/env bash
# Runs each named make target in turn, timing it, and prints every stage's time at the end
# (also when one fails, with the one that failed): `make test` is this over its stages, so
# CI's log ends with where its minutes went.
set -uo pipefail
cd "$(dirname "$0")/.."

names=()
secs=()
status=0
failed=""
start_all=$(date +%s)
for stage in "$@"; do
  echo
  echo "=== stage $stage ($(date -u +%H:%M:%S))"
  t0=$(date +%s)
  make --no-print-directory "$stage"
  rc=$?
  t1=$(date +%s)
  names+=("$stage")
  secs+=($((t1 - t0)))
  if [ $rc -ne 0 ]; then
    status=$rc
    failed=$stage
    break
  fi
done
total=$(($(date +%s) - start_all))

echo
echo "=== stage times"
for i in "${!names[@]}"; do
  printf '  %-22s %4d s  (%dm%02ds)\n' "${names[$i]}" "${secs[$i]}" $((secs[$i] / 60)) $((secs[$i] % 60))
done
printf '  %-22s %4d s  (%dm%02ds)\n' "total" "$total" $((total / 60)) $((total % 60))
if [ -n "$failed" ]; then
  echo "stage $failed failed (exit $status)"
fi
exit $status
