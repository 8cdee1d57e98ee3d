#!/usr/bin/env bash
# Runs each named make target in turn, timing it, and prints every stage's time at the end
# (also when one fails, naming it): `make test` is this over its stages, so CI's log ends with
# where its minutes went. A stage written `a+b+c` runs those targets side by side, each into
# its own log (target/test-logs/<target>.log), printed whole when the group is done; the group's
# time is the stage's, and each member's time is listed under it.
set -uo pipefail
cd "$(dirname "$0")/.."
LOGS=target/test-logs
mkdir -p "$LOGS"

lines=()
status=0
failed=""
start_all=$(date +%s)

fmt_time() { printf '%4d s  (%dm%02ds)' "$1" $(($1 / 60)) $(($1 % 60)); }

for stage in "$@"; do
  echo
  echo "=== stage $stage ($(date -u +%H:%M:%S))"
  t0=$(date +%s)
  rc=0
  if [[ "$stage" == *+* ]]; then
    IFS='+' read -r -a members <<<"$stage"
    pids=()
    for m in "${members[@]}"; do
      ( s=$(date +%s); make --no-print-directory "$m" >"$LOGS/$m.log" 2>&1; r=$?
        echo "$(($(date +%s) - s))" >"$LOGS/$m.time"; exit $r ) &
      pids+=($!)
    done
    sub=()
    for i in "${!members[@]}"; do
      m=${members[$i]}
      if wait "${pids[$i]}"; then mark=ok; else mark=FAILED; rc=1; failed="$failed $m"; fi
      echo
      echo "--- $m ($mark)"
      cat "$LOGS/$m.log"
      sub+=("$(printf '    %-20s %s %s' "$m" "$(fmt_time "$(cat "$LOGS/$m.time")")" "$mark")")
    done
  else
    make --no-print-directory "$stage" || { rc=$?; failed=" $stage"; }
    sub=()
  fi
  t1=$(date +%s)
  lines+=("$(printf '  %-22s %s' "$stage" "$(fmt_time $((t1 - t0)))")")
  for l in "${sub[@]}"; do lines+=("$l"); done
  if [ $rc -ne 0 ]; then
    status=$rc
    break
  fi
done
total=$(($(date +%s) - start_all))

echo
echo "=== stage times"
for l in "${lines[@]}"; do echo "$l"; done
printf '  %-22s %s\n' "total" "$(fmt_time "$total")"
if [ -n "$failed" ]; then
  echo "failed:$failed (exit $status)"
fi
exit $status
