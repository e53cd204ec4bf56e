# SPDX-License-Identifier: GPL-3.0-or-later
# The two commands of the README:
#   make demo  — install what the demo needs (scripts/install-deps demo), build the
#                tools only (no tests, benchmarks or man pages), run pith on the bundled sample
#   make test  — install what the tests need too (scripts/install-deps test), build
#                everything, run every test (and a short fuzz run, and the
#                distributed-engine recipes: corpus-engines-test, ~1 min)
# and for the parsers (docs/fuzzing.md):
#   make fuzz  — run every libFuzzer target FUZZ_SECONDS each (default 60)
# and for real paper sources (docs/papers.md; a few minutes, its own packages):
#   make papers-test  — the shipped papers end to end; make papers-bench PAPERS_DIR=… the whole corpus
# and for the Debian packages (tests/package/run.sh; root, a few minutes):
#   make package-test — build the .debs, lintian, install them into a clean Debian 12 root and use them
# and for CTAN (pith.sty, its manual; scripts/ctan-zip checks the layout):
#   make ctan — $(BUILD)/pith.zip
BUILD     ?= build
JOBS      ?= $(shell nproc)
WERROR    ?= $(if $(CI),ON,OFF)
# -O2 without debug information: a third less compile time than CMake's
# default here (RelWithDebInfo, -O2 -g), and the same code (CMake's Release
# is -O3, which makes GCC 12 warn falsely: -Wrestrict in std::string).
# A debugger's build: make test BUILD_TYPE=RelWithDebInfo (or CMAKE_ARGS).
BUILD_TYPE ?= Release
CMAKE_ARGS ?=
CONFIGURE = cmake -S . -B $(BUILD) -DPITH_WERROR=$(WERROR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
  $(if $(filter Release,$(BUILD_TYPE)),-DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG")
# The fuzz build: clang 16 (Debian 12's; 14 cannot compile std::expected), with
# sanitizers and coverage feedback, in its own directory.
FUZZ_BUILD ?= build-fuzz
FUZZ_CC ?= clang-16
FUZZ_CXX ?= clang++-16
FUZZ_SECONDS ?= 60
# Every target briefly: 16 targets x 8 s (~130 s) keep the smoke run of make test
# near its former 7 x 15 s, now that each process-message decoder has a target too.
FUZZ_SMOKE_SECONDS ?= 8

.PHONY: all deps deps-demo deps-bench configure build check-space test demo demo-build bench install clean fuzz-build fuzz fuzz-smoke \
        package-test corpus-engines-test papers-deps papers-test papers-bench ctan

all: build

# scripts/install-deps PROFILE: demo (build + the sample), test (+ the test tools), bench (+ hyperfine).
deps:
	@scripts/install-deps test
deps-demo:
	@scripts/install-deps demo
deps-bench:
	@scripts/install-deps bench

# Every target (tools, man pages, tests, benchmarks); CMAKE_ARGS come last and win.
configure: deps
	$(CONFIGURE) -DPITH_BUILD_TESTS=ON -DPITH_BUILD_BENCH=ON -DPITH_MAN_PAGES=ON $(CMAKE_ARGS)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# make test's peak on disk, measured (README "The two commands"): the two
# builds, the tests' scratch files and the packaging suite's Debian root.
TEST_SPACE_MIB ?= 2048
check-space:
	@scripts/check-space $(TEST_SPACE_MIB) $(BUILD) $${TMPDIR:-/tmp}

test: check-space build fuzz-build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)
	FUZZ_SEED=1 fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SMOKE_SECONDS)
	tests/package/maybe-run.sh
	$(MAKE) corpus-engines-test

# docs/corpus.md's recipes (GNU parallel over ssh, Dask distributed) end to
# end on 127.0.0.1; a recipe whose engine cannot start is skipped, saying so.
corpus-engines-test: build
	PITH_BIN=$(abspath $(BUILD))/tools PITH_SOURCE_DIR=$(CURDIR) PITH_ZOO_DIR=$(abspath $(BUILD))/zoo tests/engines/run.sh

# Real paper sources through pith end to end (docs/papers.md): the papers
# whose licences let us ship them (tests/papers/sources; a few minutes, so
# not part of make test), and the bench corpus of tests/papers/corpus.tsv
# fetched into PAPERS_DIR (network once; make papers-bench PAPERS_DIR=/srv/papers).
# Both need what real papers load beyond make test's packages
# (scripts/install-deps papers: texlive-fonts-extra is 509 MB).
PAPERS_DIR ?= $(CURDIR)/build-papers
papers-deps:
	@scripts/install-deps papers

papers-test: build papers-deps
	tests/papers/papers.py --bin $(abspath $(BUILD))/tools --require-all -j $(JOBS) tests/papers/sources

papers-bench: build papers-deps
	tests/papers/fetch.sh $(PAPERS_DIR)
	tests/papers/papers.py --bin $(abspath $(BUILD))/tools -j $(JOBS) --json $(PAPERS_DIR).json $(PAPERS_DIR)

fuzz-build: deps
	CC=$(FUZZ_CC) CXX=$(FUZZ_CXX) cmake -S . -B $(FUZZ_BUILD) -DPITH_FUZZ=ON \
	  -DPITH_BUILD_TESTS=OFF -DPITH_BUILD_BENCH=OFF $(CMAKE_ARGS)
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzzers

fuzz: fuzz-build
	fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

fuzz-smoke: fuzz-build
	FUZZ_SEED=1 fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SMOKE_SECONDS)

# The demo runs pith-stamp and pith-check: only those are built (same build
# directory as make test, which turns the rest back on and reuses the library).
demo-build: deps-demo
	$(CONFIGURE) -DPITH_BUILD_TESTS=OFF -DPITH_BUILD_BENCH=OFF -DPITH_MAN_PAGES=OFF $(CMAKE_ARGS)
	cmake --build $(BUILD) -j $(JOBS) --target pith-stamp pith-check

demo: demo-build
	@PITH_BIN=$(abspath $(BUILD))/tools samples/demo.sh

bench: deps-bench build
	bench/run.sh $(abspath $(BUILD))

package-test: deps
	tests/package/run.sh

install: build
	cmake --install $(BUILD)

ctan: configure
	cmake --build $(BUILD) --target ctan

clean:
	rm -rf $(BUILD) $(FUZZ_BUILD)
