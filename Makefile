# The two commands: `make run` (build the app, serve everything on the embedded default)
# and `make test` (every test: Rust on SQLite and PostgreSQL, frontend, browser end-to-end).

SHELL := /bin/bash
CARGO ?= cargo
# PostgreSQL for the production-path variant of the integration tests. On CI it is mandatory.
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/postgres
FRONTEND := frontend

.PHONY: run build build-frontend test test-rust test-rust-postgres test-frontend test-e2e lint fmt

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

build-frontend: $(FRONTEND)/node_modules/.package-lock.json
	cd $(FRONTEND) && npm run build

test: lint test-rust test-rust-postgres test-frontend test-e2e

lint: $(FRONTEND)/node_modules/.package-lock.json
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	cd $(FRONTEND) && npm run typecheck && npm run lint

# Unit tests of both crates and the integration tests on the embedded SQLite.
test-rust:
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

test-frontend: $(FRONTEND)/node_modules/.package-lock.json
	cd $(FRONTEND) && npm test

# Browser tests: the real server binary serving the built app, driven by Debian's chromium.
test-e2e: build-frontend
	$(CARGO) build --bin pizza-order
	cd $(FRONTEND) && PIZZA_BIN=$(CURDIR)/target/debug/pizza-order npm run e2e

fmt:
	$(CARGO) fmt --all
