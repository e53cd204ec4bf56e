# The two commands of the README:
#   make demo  — install what is missing, build, run pith on the bundled sample
#   make test  — install what is missing, build, run every test
BUILD     ?= build
JOBS      ?= $(shell nproc)
WERROR    ?= $(if $(CI),ON,OFF)
CMAKE_ARGS ?=

.PHONY: all deps configure build test demo bench install clean

all: build

deps:
	@scripts/install-deps

configure: deps
	cmake -S . -B $(BUILD) -DPITH_WERROR=$(WERROR) $(CMAKE_ARGS)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

demo: build
	@PITH_BIN=$(abspath $(BUILD))/tools samples/demo.sh

bench: build
	bench/run.sh $(abspath $(BUILD))

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD)
