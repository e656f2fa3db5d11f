# permuzzle — the two commands that matter: `make run` and `make test`.
# Each works alone on a fresh Debian 12 machine: it installs missing packages (apt-get, as root),
# configures, builds the Release preset, then runs the demo or the whole test suite.

SHELL := /bin/bash
PRESET ?= release
BUILD_DIR := build/$(PRESET)
JOBS ?= $(shell nproc)

# Debian packages the build, the tests and the fuzz harness need.
APT_PACKAGES := build-essential cmake ninja-build pkg-config ccache clang libclang-rt-14-dev \
  libcli11-dev libfmt-dev nlohmann-json3-dev libgmp-dev libgtest-dev libgmock-dev \
  libbenchmark-dev liblemon-dev graphviz pybind11-dev python3-dev python3-pytest python3-sympy \
  python3-pip python3-venv python3-setuptools python3-wheel python3-mypy libcpp-httplib-dev chromium \
  libopenmpi-dev openmpi-bin dpkg-dev groff-base

FUZZ_SECONDS ?= 4

# The Python module is built for Debian's interpreter (it has python3-pytest); see python/.
PYTHON ?= /usr/bin/python3
PYTHON_DIR := $(BUILD_DIR)/python

.PHONY: all deps configure build build-cli run test test-under-load unit-tests python python-tests fuzz \
  bench format clean node web-npm web-deps web-test install-test deb deb-test build-time

all: build

deps:
	@missing=$$(for p in $(APT_PACKAGES); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed$$' || echo $$p; \
	  done); \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing missing packages:" $$missing; \
	    export DEBIAN_FRONTEND=noninteractive; \
	    apt-get update -qq && apt-get install -y -qq --no-install-recommends $$missing; \
	  else \
	    echo "error: missing Debian packages:" $$missing >&2; \
	    echo "run as root:  apt-get update && apt-get install -y" $$missing >&2; \
	    exit 1; \
	  fi; \
	fi

configure: deps
	@cmake --preset $(PRESET) >/dev/null

build: web-npm configure
	@cmake --build --preset $(PRESET) -j $(JOBS)

# The demo needs only the CLI: no tests, no benchmarks.
build-cli: web-npm configure
	@cmake --build --preset $(PRESET) -j $(JOBS) --target permuzzle

run: build-cli
	./$(BUILD_DIR)/permuzzle demo
	@echo "Start the web app with:  ./$(BUILD_DIR)/permuzzle serve   (then open http://127.0.0.1:8080/)"

unit-tests: build
	ctest --preset $(PRESET) -j $(JOBS)

# The package lands in $(PYTHON_DIR)/permuzzle: PYTHONPATH=$(PYTHON_DIR) $(PYTHON) -c "import permuzzle"
python: deps
	@cmake --preset $(PRESET) -DPERMUZZLE_BUILD_PYTHON=ON >/dev/null
	@cmake --build --preset $(PRESET) -j $(JOBS) --target permuzzle_python permuzzle

# The tests run against the package as `pip install .` installs it, in a fresh virtual
# environment of $(PYTHON) (--system-site-packages: Debian's pytest, SymPy and mypy). setup.py
# reuses $(BUILD_DIR) (PERMUZZLE_BUILD_DIR), where `python` has just built the extension.
PYTHON_VENV := $(BUILD_DIR)/python-venv

python-tests: python
	@rm -rf $(PYTHON_VENV)
	$(PYTHON) -m venv --system-site-packages $(PYTHON_VENV)
	PERMUZZLE_BUILD_DIR=$(BUILD_DIR) $(PYTHON_VENV)/bin/python -m pip install -q \
	  --disable-pip-version-check --no-build-isolation --no-index .
	PERMUZZLE_TEST_INSTALLED=1 PERMUZZLE_CLI=$(BUILD_DIR)/permuzzle \
	  PERMUZZLE_TABLES=$(CURDIR)/$(BUILD_DIR)/test-tables $(PYTHON_VENV)/bin/python -m pytest -q python/tests

# Every harness in fuzz/ (one per family of text formats) runs FUZZ_SECONDS on its seeds, $(JOBS)
# side by side (fuzz/run_harness.sh: what a run reads, keeps and shows on a failure).
# name:max_len (bytes, including the selector bytes some harnesses read first)
# -O1: the sanitizers' usual level; it compiles the instrumented engine in half the time of -O2.
FUZZ_OPT := -O1 -DNDEBUG
FUZZ_HARNESSES := perm:256 generators:512 sliding:256 korf:1024 loopover:256 triangular:256 cube:256 \
  hanoi:256 binary:512 fifteen:128 table:256 def:2048 registry:4096

fuzz: deps
	@cmake -S fuzz -B build/fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$(FUZZ_OPT)" >/dev/null
	@cmake --build build/fuzz -j $(JOBS)
	@printf '%s\n' $(FUZZ_HARNESSES) | xargs -P $(JOBS) -I{} fuzz/run_harness.sh {} $(FUZZ_SECONDS) || \
	  { echo "make fuzz: a harness failed (above)" >&2; exit 1; }

# Node.js and npm: from the machine, else from Debian. They install the web app's bundler
# (esbuild) and cubing.js (the 3D puzzles) into web/node_modules, with which the CMake build
# bundles the app (web/build.mjs: cubing.js in chunks loaded only by a 3D page) and embeds the
# bundle in the binary; and they run the browser tests.
WEB_TESTS := web/tests

node:
	@command -v npm >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then \
	    export DEBIAN_FRONTEND=noninteractive; \
	    apt-get update -qq && apt-get install -y -qq --no-install-recommends nodejs npm; \
	  else echo "error: npm is missing (apt-get install nodejs npm)" >&2; exit 1; fi; }

# npm ci (from web/package-lock.json) when node_modules is missing or older than the lock file.
web-npm: node
	@if [ ! -f web/node_modules/.package-lock.json ] || \
	    [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then \
	  cd web && npm ci --no-audit --no-fund --loglevel=error; \
	fi

# Browser tests (web/tests/): playwright-core from npm drives Debian's chromium (no browser
# download); it needs Node.js 20 or newer (Debian's Node.js 18 is then reported as too old).
web-deps: deps node
	@node -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)' || { \
	  echo "error: the browser tests need Node.js 20 or newer (playwright-core); found $$(node --version)" >&2; \
	  exit 1; }
	@if [ ! -f $(WEB_TESTS)/node_modules/.package-lock.json ] || \
	    [ $(WEB_TESTS)/package-lock.json -nt $(WEB_TESTS)/node_modules/.package-lock.json ]; then \
	  cd $(WEB_TESTS) && npm ci --no-audit --no-fund --loglevel=error; \
	fi

web-test: build-cli web-deps
	cd $(WEB_TESTS) && PERMUZZLE_CLI=$(CURDIR)/$(BUILD_DIR)/permuzzle npm test --silent

# `cmake --install` into a scratch prefix: the installed program without the source tree, the man
# page, the bash completion, and a consumer built with find_package(permuzzle) and pkg-config.
install-test: build-cli
	packaging/install_test.sh $(BUILD_DIR)

# The Debian package (CPack, cmake/package.cmake) in $(BUILD_DIR)/deb/, and its test: unpacked
# with dpkg -x into a scratch root, it runs `permuzzle demo` without the source tree.
deb: build-cli
	@rm -f $(BUILD_DIR)/deb/permuzzle_*.deb
	@cd $(BUILD_DIR) && cpack -G DEB >/dev/null
	@ls $(BUILD_DIR)/deb/permuzzle_*.deb

deb-test: deb
	packaging/deb_test.sh $(BUILD_DIR)

test: unit-tests web-test python-tests fuzz install-test deb-test

# The slowest files of the last build of $(BUILD_DIR) from Ninja's log (seconds of wall time
# each; a file ccache served counts its lookup only; a machine shared with other builds inflates
# them): make build-time [BUILD_TIME_TOP=20].
BUILD_TIME_TOP ?= 15
build-time:
	@[ -f $(BUILD_DIR)/.ninja_log ] || { echo "error: no $(BUILD_DIR)/.ninja_log: build first (make build)" >&2; exit 1; }
	@awk -F'\t' '!/^#/ { t[$$4] = ($$2 - $$1) / 1000 } \
	  END { for (f in t) { sum += t[f]; n++ }; printf "%d outputs, %.0f s in all\n", n, sum; \
	        for (f in t) printf "%8.1f s  %s\n", t[f], f }' $(BUILD_DIR)/.ninja_log | \
	  { IFS= read -r head; echo "$$head"; sort -rn | head -n $(BUILD_TIME_TOP); }

# `make test` with two busy processes beside it, as on CI's shared machine: the suite's time
# checks read CPU time and the measured load (api/contract.hpp), so it must pass here too.
test-under-load:
	@( while :; do :; done ) & p1=$$!; ( while :; do :; done ) & p2=$$!; \
	trap 'kill $$p1 $$p2 2>/dev/null' EXIT; \
	start=$$(date +%s); $(MAKE) --no-print-directory test; code=$$?; \
	echo "make test beside two busy processes: exit $$code after $$(( $$(date +%s) - start )) s"; \
	exit $$code

bench: build
	./$(BUILD_DIR)/permuzzle_bench

format:
	@git ls-files '*.hpp' '*.cpp' | xargs clang-format -i

clean:
	rm -rf build
