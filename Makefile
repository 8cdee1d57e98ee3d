# The two commands: `make run` (build the app, serve everything on the embedded default)
# and `make test` (every test: Rust on SQLite, PostgreSQL and with Redis sessions, frontend,
# browser end-to-end).

SHELL := /bin/bash
CARGO ?= cargo
# PostgreSQL for the production-path variant of the integration tests. On CI it is mandatory.
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/postgres
# Redis for the variant with sessions kept in Redis. On CI it is mandatory.
TEST_REDIS_URL ?= redis://127.0.0.1:6379
FRONTEND := frontend

.PHONY: run build build-frontend build-rust lint-rust lint-frontend check-frontend test test-rust test-rust-sqlite test-rust-postgres test-rust-redis test-frontend test-budget test-e2e test-schema lint fmt check-api-types

run: build-frontend
	$(CARGO) run --release --bin pizza-order -- serve

build: build-frontend
	$(CARGO) build --release --bin pizza-order

# `npm install` rather than `npm ci`: the registry reachable here serves only the Linux builds of
# some optional platform packages, so the lockfile cannot list every platform as `npm ci` demands.
# `npm install` still installs exactly the locked versions.
$(FRONTEND)/node_modules/.package-lock.json: $(FRONTEND)/package-lock.json
	cd $(FRONTEND) && npm install --no-audit --no-fund
	@touch $@

# The built app, rebuilt only when its sources change: `make test` runs its stages as separate
# make calls (tests/stages.sh), and the budget and browser stages share one build.
FRONTEND_SOURCES := $(shell find $(FRONTEND)/src $(FRONTEND)/public -type f 2>/dev/null) \
	$(wildcard $(FRONTEND)/index.html $(FRONTEND)/vite.config.ts $(FRONTEND)/tsconfig*.json)
$(FRONTEND)/dist/.built: $(FRONTEND)/node_modules/.package-lock.json $(FRONTEND_SOURCES)
	cd $(FRONTEND) && npm run build
	@touch $@

build-frontend: $(FRONTEND)/dist/.built

# How the stages below build the server before using it. `make test` builds everything once in
# its first stage (build-rust) and sets these to `:`, so no later stage waits on cargo's lock
# while clippy holds it.
BUILD_BIN ?= $(CARGO) build --bin pizza-order
BUILD_BENCH ?= $(CARGO) build --bin pizza-order --example bench_bare_http

# Each stage a make call of its own, timed, the times printed at the end (tests/stages.sh);
# `a+b` runs a and b side by side (the build beside node's checks). docs/ci.md says where the
# minutes go and what running more side by side did on two cores.
TEST_STAGES := build-rust+check-frontend test-rust lint-rust check-api-types test-schema \
	test-budget test-e2e test-bench-http
test:
	BUILD_BIN=: BUILD_BENCH=: bash tests/stages.sh $(TEST_STAGES)

# Every Rust target the tests run, built once: the test binaries, the server, the bench peer.
build-rust:
	$(CARGO) test --workspace --no-run
	$(CARGO) build --bin pizza-order --example bench_bare_http

lint: lint-rust check-api-types lint-frontend

lint-rust:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

lint-frontend: $(FRONTEND)/node_modules/.package-lock.json
	cd $(FRONTEND) && npm run typecheck && npm run lint

# The app's typecheck, lint and unit tests (Vitest).
check-frontend: lint-frontend test-frontend

# The app's API types (frontend/src/lib/api/schema.gen.ts) against the server's OpenAPI document:
# regenerated from `pizza-order openapi` into a temporary file and compared; stale fails with the
# diff and says to run `npm run gen:api` (docs/api-schema.md).
check-api-types: $(FRONTEND)/node_modules/.package-lock.json
	$(BUILD_BIN)
	cd $(FRONTEND) && PIZZA_BIN=$(CURDIR)/target/debug/pizza-order npm run --silent gen:api -- --check

# Every Rust test: both crates' unit tests, the integration and real-time tests on the embedded
# SQLite, then the integration tests again on PostgreSQL and with Redis (mandatory on CI), those
# two side by side (tests/rust.sh).
test-rust:
	TEST_DATABASE_URL="$(TEST_DATABASE_URL)" TEST_REDIS_URL="$(TEST_REDIS_URL)" CARGO="$(CARGO)" bash tests/rust.sh

# The same variants one at a time.
test-rust-sqlite:
	$(CARGO) test --workspace

# The same integration tests on PostgreSQL: a fresh database per test, dropped after.
test-rust-postgres:
	@if pg_isready -q -d "$(TEST_DATABASE_URL)" 2>/dev/null; then \
		echo "integration tests on PostgreSQL"; \
		TEST_DATABASE_URL="$(TEST_DATABASE_URL)" $(CARGO) test --test api; \
	elif [ "$$CI" = "true" ]; then \
		echo "PostgreSQL is not reachable at $(TEST_DATABASE_URL) and is mandatory on CI" >&2; exit 1; \
	else \
		echo "SKIPPED: PostgreSQL variant (no server at $(TEST_DATABASE_URL)); CI runs it"; \
	fi

# The same integration tests on the production path: PostgreSQL (when reachable) and Redis
# (sessions, and the Socket.IO adapter between the nodes of the two-node test); each test app
# its own key prefix, its keys deleted after.
test-rust-redis:
	@if redis-cli -u "$(TEST_REDIS_URL)" ping 2>/dev/null | grep -q PONG; then \
		echo "integration tests with Redis"; \
		if pg_isready -q -d "$(TEST_DATABASE_URL)" 2>/dev/null; then export TEST_DATABASE_URL="$(TEST_DATABASE_URL)"; fi; \
		TEST_REDIS_URL="$(TEST_REDIS_URL)" $(CARGO) test --test api; \
	elif [ "$$CI" = "true" ]; then \
		echo "Redis is not reachable at $(TEST_REDIS_URL) and is mandatory on CI" >&2; exit 1; \
	else \
		echo "SKIPPED: Redis variant (no server at $(TEST_REDIS_URL)); CI runs it"; \
	fi

# The OpenAPI document against a running server: a bounded schemathesis pass (fixed seed, 10
# cases an operation) that fails on any 5xx, schema violation or undocumented status or
# content type. Needs `pip install -r tests/schema/requirements.txt` (.ci/run does it).
# Once on the embedded SQLite, once on PostgreSQL when reachable (mandatory on CI): PostgreSQL
# refuses text SQLite keeps.
test-schema:
	$(BUILD_BIN)
	PIZZA_BIN=$(CURDIR)/target/debug/pizza-order bash tests/schema/run.sh
	@if pg_isready -q -d "$(TEST_DATABASE_URL)" 2>/dev/null; then \
		SCHEMA_DATABASE_URL="$(TEST_DATABASE_URL)" PIZZA_BIN=$(CURDIR)/target/debug/pizza-order bash tests/schema/run.sh; \
	elif [ "$$CI" = "true" ]; then \
		echo "PostgreSQL is not reachable at $(TEST_DATABASE_URL) and is mandatory on CI" >&2; exit 1; \
	else \
		echo "SKIPPED: schema check on PostgreSQL (no server at $(TEST_DATABASE_URL)); CI runs it"; \
	fi

test-frontend: $(FRONTEND)/node_modules/.package-lock.json
	cd $(FRONTEND) && npm test

# The home page's first load in gzipped JavaScript (frontend/scripts/bundle-budget.mjs): issue
# 21's 100 KB, reached (frontend/README.md "Chunks" has the figures and what they are made of).
BUNDLE_BUDGET_KB ?= 100
test-budget: build-frontend
	cd $(FRONTEND) && BUDGET_KB=$(BUNDLE_BUDGET_KB) npm run budget

# Browser tests: the real server binary serving the built app, driven by Debian's chromium.
test-e2e: build-frontend
	$(BUILD_BIN)
	cd $(FRONTEND) && PIZZA_BIN=$(CURDIR)/target/debug/pizza-order npm run e2e

fmt:
	$(CARGO) fmt --all

# The real-time fanout benchmark: `pizza-order serve` with Redis (events published into Redis as
# another node does) vs the official socket.io 4.8 server vs the floor (the sends alone), same
# client harness (examples/bench_harness/; tests/bench/). Needs Redis (BENCH_REDIS_URL).
# BENCH_SIZES="1000 10000" and BENCH_REPEAT=3 (medians) by default; BENCH_NET=veth (root) puts
# the harness on a host of its own (a network namespace), BENCH_NET=rfs receives each packet on
# its reader's core. Not part of `make test`.
.PHONY: bench-realtime
bench-realtime:
	bash tests/bench/run.sh

# The Socket.IO inbound benchmark: `pizza-order serve` (release) vs socket.io 4.8 vs the floor
# answering `order:watch` once per socket, then `time:sync` at BENCH_SYNC_RATE a second (5000);
# acks per server CPU-second and the ratios. Same BENCH_SIZES, BENCH_REPEAT, BENCH_NET as above.
.PHONY: bench-socket-inbound
bench-socket-inbound:
	BENCH_MODE=inbound bash tests/bench/run.sh

# The HTTP benchmark: `pizza-order serve` (release, embedded SQLite, one worker) against a bare
# actix-web handler answering the same bytes (examples/bench_bare_http.rs), wrk on the other
# core; then the access log's cost, pretty and JSON (tests/bench/http/run.sh,
# docs/benchmarks.md). BENCH_REPEAT=3, BENCH_DURATION=10 by default. Not part of `make test`,
# which runs `test-bench-http`: the same script for a second a route against debug builds.
.PHONY: bench-http test-bench-http
bench-http:
	$(CARGO) build --release --bin pizza-order --example bench_bare_http
	bash tests/bench/http/run.sh

test-bench-http:
	$(BUILD_BENCH)
	bash tests/bench/http/smoke.sh

# The same, counting instructions under callgrind (one connection, every server under valgrind):
# figures that do not move with the machine's neighbours, the kernel's part left out
# (docs/benchmarks.md). BENCH_REPEAT=1 is enough: the counts repeat.
.PHONY: bench-http-instructions
bench-http-instructions:
	$(CARGO) build --release --bin pizza-order --example bench_bare_http
	BENCH_CALLGRIND=1 BENCH_REPEAT=$${BENCH_REPEAT:-1} BENCH_DURATION=$${BENCH_DURATION:-8} bash tests/bench/http/run.sh

# The memory soak: one `pizza-order serve` node (PostgreSQL, Redis) takes orders for
# BENCH_DURATION s (600) and idles BENCH_IDLE s (60); its RSS sampled every 10 s: start, peak,
# end of load, after idle (tests/bench/soak/run.sh, docs/benchmarks.md "Memory soak").
.PHONY: bench-soak
bench-soak:
	$(CARGO) build --release --bin pizza-order
	BENCH_DATABASE_URL="$(TEST_DATABASE_URL)" BENCH_REDIS_URL="$(TEST_REDIS_URL)" bash tests/bench/soak/run.sh

# The end-to-end benchmark: orders submitted and paid per second on PostgreSQL and Redis with
# two nodes, then one, with p50/p99 of submit and of payment-to-tablet (tests/bench/e2e/run.sh,
# docs/benchmarks.md). A throwaway database on $(TEST_DATABASE_URL)'s server. Not part of
# `make test`.
.PHONY: bench-e2e
bench-e2e:
	$(CARGO) build --release --bin pizza-order
	BENCH_DATABASE_URL="$(TEST_DATABASE_URL)" BENCH_REDIS_URL="$(TEST_REDIS_URL)" bash tests/bench/e2e/run.sh

# The SQL statements one order costs, phase by phase (docs/benchmarks.md).
.PHONY: bench-statements
bench-statements:
	$(CARGO) build --release --bin pizza-order
	BENCH_DATABASE_URL="$(TEST_DATABASE_URL)" BENCH_REDIS_URL="$(TEST_REDIS_URL)" bash tests/bench/statements/run.sh
