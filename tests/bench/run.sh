#!/usr/bin/env bash
# The real-time benchmark (`make bench-realtime`): for each N of BENCH_SIZES (default
# "1000 10000"), the same client harness (examples/bench_harness/) against the product,
# `pizza-order serve` (release build, embedded SQLite, with Redis at BENCH_REDIS_URL: the
# harness publishes the product's events into Redis as another node does), then against the
# official socket.io 4.8 server (node-server.mjs), then against the floor
# (examples/bench_floor.rs: the sends alone, what the kernel costs), each started fresh; then
# the side-by-side table, the ratios and the goals. The sockets follow seeded orders
# (seed-orders.sql) with `order:watch` and stores with `store:watch`.
#
# The server runs on core 0 and the harness on core 1 (taskset) when there are 2 cores or more.
# Every phase has a timeout; all the processes started here are killed on exit.
#
# On a shared VM one run's CPU figures can be off by a third (the host's other tenants), so each
# N is run BENCH_REPEAT times (default 3), the servers taking turns, and the report gives
# medians and the ratio of every pair of runs.
#
# BENCH_MODE=inbound (`make bench-socket-inbound`) measures the other direction: the clients ask
# and the servers answer. Ours is then the product itself, `pizza-order serve` (release build,
# embedded SQLite, no Redis, BENCH_RUST_WORKERS workers), against node-server.mjs and the floor answering
# the same events: every socket sends `order:watch` once (orders seeded by seed-orders.sql),
# then `time:sync` at BENCH_SYNC_RATE a second in all (default 5000) for BENCH_SECONDS s; the
# report (report-inbound.mjs) gives acks per server CPU-second and the ratios to Node and the
# floor. See docs/benchmarks.md.
#
# Environment: BENCH_MODE (fanout, inbound), BENCH_SERVERS ("rust node floor": which to run),
# BENCH_SKIP_BUILD (set: use the release binaries as they are, e.g. built under a shared lock), BENCH_SIZES, BENCH_REPEAT (3), BENCH_RATE (events/s, 200), BENCH_SECONDS (10),
# BENCH_BURST (20 per store room), BENCH_STORES (50), BENCH_PAYLOAD (64 bytes),
# BENCH_RUST_WORKERS (1), BENCH_NET (loopback; rfs, veth: see below),
# BENCH_REDIS_URL (fanout; redis://127.0.0.1:6379: the keys of each run under a fresh prefix,
# deleted at the end).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
BENCH=$ROOT/tests/bench
SIZES=${BENCH_SIZES:-"1000 10000"}
REPEAT=${BENCH_REPEAT:-3}
if ! [[ $REPEAT =~ ^[1-9][0-9]*$ ]]; then echo "BENCH_REPEAT must be a positive whole number" >&2; exit 2; fi
RUST_PORT=${BENCH_RUST_PORT:-3100}
NODE_PORT=${BENCH_NODE_PORT:-3200}
FLOOR_PORT=${BENCH_FLOOR_PORT:-3300}
MODE=${BENCH_MODE:-fanout}
if [[ $MODE != fanout && $MODE != inbound ]]; then echo "BENCH_MODE must be fanout or inbound" >&2; exit 2; fi
# The table secret the product signs view tokens with; the harness and Node compute the same.
TABLE_SECRET=bench-table-secret-0123456789
HARNESS_ARGS=(--rate "${BENCH_RATE:-200}" --seconds "${BENCH_SECONDS:-10}" --burst "${BENCH_BURST:-20}"
  --stores "${BENCH_STORES:-50}" --payload "${BENCH_PAYLOAD:-64}")

# Each process needs one descriptor per socket: raise the soft limit as far as allowed.
ulimit -n 1048576 2>/dev/null || ulimit -n "$(ulimit -Hn)"
FD_LIMIT=$(ulimit -n)
echo "open files limit: $FD_LIMIT"

# How the harness reaches the servers (BENCH_NET):
# - loopback (default): 127.0.0.1. A sender runs its peer's whole receive path and wake-up in its
#   own context, so the client's share of every delivery is billed to the server.
# - rfs (root): loopback with Receive Flow Steering on lo for the run: each packet is received
#   on the core of the process that reads its socket. The settings are restored on exit.
# - veth (root; ip, ethtool): the harness runs on a host of its own, a network namespace behind
#   a veth pair. Each end receives in its own NAPI thread (GRO on, threaded NAPI; TSO off, as
#   veth takes that path only for packets GRO can handle): the client end's thread on the
#   harness's core, the server end's on the server's core and billed to the server (--bill). The
#   server then pays what it would on a machine of its own: its sends, the link's transmit, and
#   receiving the clients' ACKs and requests; the clients' receive path is theirs. The namespace
#   and the pair are removed on exit.
NET=${BENCH_NET:-loopback}
SERVER_HOST=127.0.0.1 SOURCE_NET=127.0.0 NETNS=() BILL=()
VETH_NS=pizza-bench VETH_SERVER=pzb-srv VETH_CLIENT=pzb-cli
remove_veth() { ip netns del "$VETH_NS" 2>/dev/null || true; }
RFS_FILES=(/proc/sys/net/core/rps_sock_flow_entries /sys/class/net/lo/queues/rx-0/rps_flow_cnt
  /sys/class/net/lo/queues/rx-0/rps_cpus)
RFS_SAVED=()
restore_steering() {
  local i
  for ((i = ${#RFS_SAVED[@]} - 1; i >= 0; i--)); do echo "${RFS_SAVED[$i]}" >"${RFS_FILES[$i]}" || true; done
  RFS_SAVED=()
}

SERVER_PID=
# Deletes the keys a run's product and harness left in Redis (recovery history, offsets).
drop_redis_keys() {
  if [[ -n $REDIS_PREFIX ]]; then
    redis-cli -u "$REDIS_URL_BENCH" --scan --pattern "$REDIS_PREFIX*" | xargs -r redis-cli -u "$REDIS_URL_BENCH" del >/dev/null || true
  fi
}
cleanup() {
  if [[ -n "$SERVER_PID" ]]; then kill "$SERVER_PID" 2>/dev/null || true; fi
  drop_redis_keys
  if [[ -n "${HARNESS_PID:-}" ]]; then kill "$HARNESS_PID" 2>/dev/null || true; fi
  restore_steering
  if [[ $NET == veth ]]; then remove_veth; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

PIN_SERVER=() PIN_HARNESS=()
if command -v taskset >/dev/null && [[ $(nproc) -ge 2 ]]; then
  PIN_SERVER=(taskset -c 0) PIN_HARNESS=(taskset -c 1)
fi

case $NET in
  loopback) ;;
  rfs)
    if [[ ${#PIN_SERVER[@]} -eq 0 ]]; then echo "BENCH_NET=rfs needs 2 cores and taskset" >&2; exit 2; fi
    for f in "${RFS_FILES[@]}"; do
      if [[ ! -w $f ]]; then echo "BENCH_NET=rfs needs root: $f is not writable" >&2; exit 2; fi
    done
    for f in "${RFS_FILES[@]}"; do RFS_SAVED+=("$(cat "$f")"); done
    echo 65536 >"${RFS_FILES[0]}"
    echo 65536 >"${RFS_FILES[1]}"
    echo 3 >"${RFS_FILES[2]}" # cores 0 (server) and 1 (harness)
    echo "receive flow steering on lo for this run (restored on exit)"
    ;;
  veth)
    if [[ ${#PIN_SERVER[@]} -eq 0 ]]; then echo "BENCH_NET=veth needs 2 cores and taskset" >&2; exit 2; fi
    if [[ $(id -u) -ne 0 ]] || ! command -v ip >/dev/null || ! command -v tc >/dev/null || ! command -v ethtool >/dev/null; then
      echo "BENCH_NET=veth needs root, ip, tc and ethtool (apt-get install iproute2 ethtool)" >&2; exit 2
    fi
    remove_veth
    # 198.18.0.0/15 is set aside for benchmarks (RFC 2544): the server is .0.1, the clients .1.x.
    ip netns add "$VETH_NS"
    ip link add "$VETH_SERVER" type veth peer name "$VETH_CLIENT" netns "$VETH_NS"
    ip addr add 198.18.0.1/16 dev "$VETH_SERVER"
    for ((a = 2; a <= 254; a++)); do echo "addr add 198.18.1.$a/16 dev $VETH_CLIENT"; done | ip -n "$VETH_NS" -batch -
    ethtool -K "$VETH_SERVER" tso off gro on >/dev/null
    ip netns exec "$VETH_NS" ethtool -K "$VETH_CLIENT" tso off gro on >/dev/null
    # A veth end has no queue: when the peer's receive ring (256 packets) is full it drops, and
    # TCP retransmits 200 ms later. A queue, as a NIC has, lets veth hold the sender back instead.
    tc qdisc replace dev "$VETH_SERVER" root pfifo limit 100000
    tc -n "$VETH_NS" qdisc replace dev "$VETH_CLIENT" root pfifo limit 100000
    ip link set "$VETH_SERVER" up
    ip -n "$VETH_NS" link set lo up
    ip -n "$VETH_NS" link set "$VETH_CLIENT" up
    echo 1 >"/sys/class/net/$VETH_SERVER/threaded"
    ip netns exec "$VETH_NS" sh -c "echo 1 >/sys/class/net/$VETH_CLIENT/threaded"
    napi_server=$(pgrep "^napi/$VETH_SERVER") napi_client=$(pgrep "^napi/$VETH_CLIENT")
    if [[ -z $napi_server || -z $napi_client ]]; then echo "no NAPI threads on the veth pair" >&2; exit 1; fi
    taskset -pc 0 "$napi_server" >/dev/null
    taskset -pc 1 "$napi_client" >/dev/null
    SERVER_HOST=198.18.0.1 SOURCE_NET=198.18.1 NETNS=(ip netns exec "$VETH_NS") BILL=(--bill "$napi_server")
    echo "harness in network namespace $VETH_NS over veth (removed on exit); server host's receive thread $napi_server billed to the server"
    ;;
  *) echo "BENCH_NET must be loopback, rfs or veth" >&2; exit 2 ;;
esac

if [[ -n ${BENCH_SKIP_BUILD:-} ]]; then
  echo "using the release binaries already built (BENCH_SKIP_BUILD)"
else
  echo "building pizza-order, the floor and the client harness (release)"
  cargo build --release --bin pizza-order --example bench_floor --example bench_harness
fi
# Fanout: the product runs with Redis, where the harness publishes as another node would.
REDIS_URL_BENCH=${BENCH_REDIS_URL:-redis://127.0.0.1:6379}
REDIS_PREFIX=
if [[ $MODE == fanout ]]; then
  if ! command -v redis-cli >/dev/null || ! redis-cli -u "$REDIS_URL_BENCH" ping >/dev/null 2>&1; then
    echo "the fanout benchmark needs Redis at $REDIS_URL_BENCH (BENCH_REDIS_URL) and redis-cli" >&2; exit 2
  fi
fi
if [[ ! -f $BENCH/node_modules/.package-lock.json || $BENCH/package-lock.json -nt $BENCH/node_modules/.package-lock.json ]]; then
  (cd "$BENCH" && npm install --no-audit --no-fund)
fi

OUT=$(mktemp -d /tmp/bench-realtime.XXXXXX)
echo "results in $OUT"

wait_port() { # port, timeout s
  local deadline=$((SECONDS + $2))
  until (exec 3<>"/dev/tcp/$SERVER_HOST/$1") 2>/dev/null; do
    if ((SECONDS > deadline)); then echo "server on port $1 did not start" >&2; return 1; fi
    sleep 0.2
  done
}

# `pizza-order serve` as the benchmark runs it: its table secret, one worker, our address. (An
# `env` command rather than a function, so that `$!` is the server's own pid.)
PRODUCT_ENV=(env PIZZA__ORDERING__TABLE_SECRET="$TABLE_SECRET" PIZZA__SERVER__WORKERS="${BENCH_RUST_WORKERS:-1}"
  PIZZA__SERVER__BIND="$SERVER_HOST:$RUST_PORT")

# The product's database: the demo chain, and N/2 orders for the largest N (seed-orders.sql);
# and the snapshot the product answers for one of them, which Node and the floor answer too.
prepare_product() {
  DATA=$OUT/data
  local most=0 n
  for n in $SIZES; do ((n > most)) && most=$n; done
  "$ROOT/target/release/pizza-order" --data-dir "$DATA" seed >"$OUT/seed.log" 2>&1
  sed "s/:orders/$((most / 2 > 0 ? most / 2 : 1))/" "$BENCH/seed-orders.sql" | sqlite3 "$DATA/pizza.db"
  echo "seeded $(sqlite3 "$DATA/pizza.db" "SELECT count(*) FROM orders WHERE order_no LIKE 'BENCH%'") benchmark orders in $DATA"
  "${PRODUCT_ENV[@]}" "$ROOT/target/release/pizza-order" --data-dir "$DATA" serve >"$OUT/snapshot.server.log" 2>&1 &
  SERVER_PID=$!
  wait_port "$RUST_PORT" 60
  local token
  token=$(node -e 'const c = require("node:crypto"); const [secret, no] = process.argv.slice(1);
    console.log(c.createHmac("sha256", secret).update("pizza-order/order-view/v1\n").update(no).digest().subarray(0, 16).toString("hex"))' \
    "$TABLE_SECRET" BENCH00000000)
  curl -sf "http://$SERVER_HOST:$RUST_PORT/api/v1/orders/BENCH00000000?viewToken=$token" |
    node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.stringify(JSON.parse(s).data)))' \
      >"$OUT/snapshot.json"
  kill "$SERVER_PID"
  wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=
  echo "order snapshot: $(wc -c <"$OUT/snapshot.json") bytes"
}

ADDR=2 # source addresses 127.0.0.<ADDR>...; each run takes fresh ones (TIME_WAIT from the last)
run_one() { # n, label, run
  local n=$1 label=$2 run=$3 port
  local publisher=()
  if [[ $label == rust && $MODE == inbound ]]; then
    port=$RUST_PORT
    "${PRODUCT_ENV[@]}" "${PIN_SERVER[@]}" "$ROOT/target/release/pizza-order" --data-dir "$DATA" serve \
      >"$OUT/$n-$label.$run.server.log" 2>&1 &
  elif [[ $label == rust ]]; then
    port=$RUST_PORT
    # A fresh key prefix a run: no recovery history or offset from the last one.
    drop_redis_keys
    REDIS_PREFIX="pizza-bench-$$-$n-$run:"
    publisher=(--redis-url "$REDIS_URL_BENCH" --redis-prefix "$REDIS_PREFIX")
    "${PRODUCT_ENV[@]}" PIZZA__REDIS__URL="$REDIS_URL_BENCH" PIZZA__REDIS__KEY_PREFIX="$REDIS_PREFIX" \
      "${PIN_SERVER[@]}" "$ROOT/target/release/pizza-order" --data-dir "$DATA" serve \
      >"$OUT/$n-$label.$run.server.log" 2>&1 &
  elif [[ $label == floor ]]; then
    port=$FLOOR_PORT
    # In inbound mode the floor pings every 25 s, as the two servers do (their default).
    BENCH_ORDER_SNAPSHOT=$OUT/snapshot.json BENCH_FLOOR_PING_MS=$([[ $MODE == inbound ]] && echo 25000) \
      "${PIN_SERVER[@]}" "$ROOT/target/release/examples/bench_floor" "$port" "$SERVER_HOST" \
      >"$OUT/$n-$label.$run.server.log" 2>&1 &
  else
    port=$NODE_PORT
    BENCH_TABLE_SECRET=$TABLE_SECRET BENCH_ORDER_SNAPSHOT=$OUT/snapshot.json \
      "${PIN_SERVER[@]}" node "$BENCH/node-server.mjs" "$port" "$SERVER_HOST" >"$OUT/$n-$label.$run.server.log" 2>&1 &
  fi
  SERVER_PID=$!
  wait_port "$port" 30
  local per_addr=5000
  "${NETNS[@]}" timeout 600 "${PIN_HARNESS[@]}" "$ROOT/target/release/examples/bench_harness" \
    --host "$SERVER_HOST" --source-net "$SOURCE_NET" "${BILL[@]}" \
    --port "$port" --pid "$SERVER_PID" --n "$n" --label "$label" --addr-base "$ADDR" \
    --per-addr "$per_addr" "${HARNESS_ARGS[@]}" "${MODE_ARGS[@]}" "${publisher[@]}" \
    --table-secret "$TABLE_SECRET" --orders "$((n / 2 > 0 ? n / 2 : 1))" --watch-orders "$((n / 2 > 0 ? n / 2 : 1))" \
    --out "$OUT/$n-$label.$run.json" &
  HARNESS_PID=$!
  wait "$HARNESS_PID" || echo "harness ($label, n=$n, run $run) exited with $?" >&2
  HARNESS_PID=
  ADDR=$((ADDR + (n + per_addr - 1) / per_addr))
  kill "$SERVER_PID" 2>/dev/null || true
  wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=
  sleep 1
}

MODE_ARGS=()
if [[ $MODE == inbound ]]; then
  MODE_ARGS=(--mode inbound --sync-rate "${BENCH_SYNC_RATE:-5000}")
fi
prepare_product

for n in $SIZES; do
  if ((n + 64 > FD_LIMIT)); then
    echo "SKIPPED N=$n: the open files limit is $FD_LIMIT (one descriptor per socket on each side)" >&2
    continue
  fi
  if ((ADDR + 3 * REPEAT * ((n + 4999) / 5000) > 254)); then
    echo "SKIPPED N=$n: out of 127.0.0.x source addresses for this run" >&2
    continue
  fi
  for ((run = 1; run <= REPEAT; run++)); do
    for label in ${BENCH_SERVERS:-rust node floor}; do run_one "$n" "$label" "$run"; done
  done
done

if [[ $NET == veth ]]; then
  tx_dropped() { "$@" | awk '/TX:/ { getline; print $4 }'; }
  echo "veth packets dropped: server end $(tx_dropped ip -s link show "$VETH_SERVER"), client end $(tx_dropped ip -n "$VETH_NS" -s link show "$VETH_CLIENT")"
fi
if [[ $MODE == inbound ]]; then
  node "$BENCH/report-inbound.mjs" "$OUT"
  echo
  echo "server: core 0${PIN_SERVER:+ (taskset)}; harness: core 1; Rust: pizza-order serve, ${BENCH_RUST_WORKERS:-1} worker, embedded SQLite, recovery on (its default);"
else
  node "$BENCH/report.mjs" "$OUT"
  echo
  echo "server: core 0${PIN_SERVER:+ (taskset)}; harness (and the publishing node, in it): core 1; Rust: pizza-order serve, ${BENCH_RUST_WORKERS:-1} worker, embedded SQLite, Redis at $REDIS_URL_BENCH, recovery on (its default);"
fi
case $NET in
  loopback) echo "network: loopback, the clients' receive path in the server's context (BENCH_NET=veth: as on two hosts)." ;;
  rfs) echo "network: loopback with rfs, each packet received on the core of the process that reads its socket." ;;
  veth) echo "network: veth, the harness on a host of its own (a network namespace); the server host's receive thread billed to the server." ;;
esac
echo "node: socket.io $(node -p "require('$BENCH/node_modules/socket.io/package.json').version"), recovery off (its default)."
