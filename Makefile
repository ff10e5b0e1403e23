# The front door: `make help` lists the targets. Every target creates .venv when needed.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 5000
FIXTURE ?= seed/demo.json
WORKERS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: help run serve load test test-mongomock test-ferretdb seed status rollback lint format ferretdb clean bench bench-embedded

# Targets that start FerretDB install it first (a no-op once installed), unless the variable named
# by the argument points them at a server instead; without Go they say what is missing when run.
define need_ferretdb
	@if [ -z "$$$(1)" ] && command -v go >/dev/null 2>&1; then bash scripts/install-ferretdb.sh; fi
endef

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-16s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

# The demo configuration: the shipped example transformer (`fooBar`) is enabled by `make run` only.
DEMO_TRANSFORMER ?= app.transformers.foo_bar:FooBarTransformer

run: $(STAMP) ## Serve the demo site on http://HOST:PORT, 127.0.0.1:5000 (embedded store; MONGODB_URI to use a server)
	CMS_WEB_RESPONSE_TRANSFORMER="$${CMS_WEB_RESPONSE_TRANSFORMER-$(DEMO_TRANSFORMER)}" \
	  $(VENV)/bin/flask --app app:create_app run --host $(HOST) --port $(PORT)

serve: $(STAMP) ## Serve with gunicorn (gunicorn.conf.py: threaded workers), WORKERS workers
	$(VENV)/bin/gunicorn --config gunicorn.conf.py --workers $(WORKERS) --bind $(HOST):$(PORT) 'app:create_app()'

# Test processes (pytest-xdist): `auto` is one per CPU (8 at most), each FerretDB-tier one with
# its own FerretDB; TEST_WORKERS=0 runs the suite in this process. Idle processes take tests from
# busy ones. Each tier ends with its 25 slowest tests (CI's 90 minutes: docs/testing.md).
TEST_WORKERS ?= auto
PYTEST := $(PY) -m pytest -q --numprocesses=$(TEST_WORKERS) --maxprocesses=8 --dist=worksteal \
  --durations=25

test: test-mongomock test-ferretdb ## Run the suite on mongomock, then on FerretDB (real server)

test-mongomock: $(STAMP) ## The suite on the in-process mongomock tier (TEST_WORKERS processes)
	@echo "=== tier: mongomock ==="
	$(PYTEST) --tier=mongomock

test-ferretdb: $(STAMP) ## The same suite against FerretDB (started by the tests) or TEST_MONGODB_URI
	$(call need_ferretdb,TEST_MONGODB_URI)
	@echo "=== tier: ferretdb ==="
	$(PYTEST) --tier=ferretdb

ferretdb: ## Install FerretDB 1.24.2 into the Go bin directory (go env GOPATH)/bin
	bash scripts/install-ferretdb.sh

seed: $(STAMP) ## Load FIXTURE (default seed/demo.json) into MONGODB_URI (FORCE=1: rewrite it when live)
	@test -n "$$MONGODB_URI" || { echo "MONGODB_URI is not set: make seed loads a MongoDB server"; exit 2; }
	$(VENV)/bin/flask --app app:create_app seed $(if $(FORCE),--force) $(FIXTURE)

status: $(STAMP) ## What MONGODB_URI serves: live and previous generation, fixture, counts (JSON=1: as JSON)
	@test -n "$$MONGODB_URI" || { echo "MONGODB_URI is not set: make status reads a MongoDB server"; exit 2; }
	$(VENV)/bin/flask --app app:create_app site status $(if $(JSON),--json)

rollback: $(STAMP) ## Make the previous generation of MONGODB_URI live again (one write)
	@test -n "$$MONGODB_URI" || { echo "MONGODB_URI is not set: make rollback needs a MongoDB server"; exit 2; }
	$(VENV)/bin/flask --app app:create_app site rollback

bench: $(STAMP) ## Benchmark generated sites on FerretDB (BENCH_SIZES=1000,2000) or MONGODB_URI (1000,10000,100000)
	$(call need_ferretdb,MONGODB_URI)
	PATH="$$PATH:$$(go env GOPATH 2>/dev/null || echo $$HOME/go)/bin" BENCH_SIZES="$(BENCH_SIZES)" BENCH_SECONDS="$(BENCH_SECONDS)" $(PY) -m bench.run

bench-embedded: $(STAMP) ## The embedded store served by gunicorn, cold, at EMBEDDED_SIZES (1000,10000,50000) sources
	EMBEDDED_SIZES="$(EMBEDDED_SIZES)" BENCH_SECONDS="$(BENCH_SECONDS)" $(PY) -m bench.embedded

load: $(STAMP) ## Bounded loopback load test of gunicorn (LOAD_SECONDS=60 LOAD_CONCURRENCY=32), worker RSS
	$(call need_ferretdb,MONGODB_URI)
	PATH="$$PATH:$$(go env GOPATH 2>/dev/null || echo $$HOME/go)/bin" $(PY) -m bench.load

lint: $(STAMP) ## ruff check and format check, and the import layers (import-linter, pyproject.toml)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

format: $(STAMP) ## ruff fix and format
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

clean: ## Remove the virtualenv and caches
	rm -rf $(VENV) .pytest_cache .ruff_cache *.egg-info
