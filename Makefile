# BGBench — the two commands a researcher needs: `make run` and `make test`.
SWIFT  ?= swift
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Debian packages the build needs (GSL through pkg-config).
APT_PACKAGES := libgsl-dev pkg-config

.PHONY: all deps build run test bench clean

all: build

## deps: install GSL with apt-get when pkg-config cannot find it
deps:
	@if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists gsl; then \
		echo "Installing $(APT_PACKAGES) with apt-get"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $(APT_PACKAGES); \
	fi

## build: release build of the library, CLI and benchmarks
build: deps
	$(SWIFT) build -c release

## run: build and run the main job
run: build
	$(SWIFT) run -c release bgbench --help

## test: build and run every test (debug build: internal invariant checks on)
test: deps
	$(SWIFT) test

## bench: performance benchmarks, each against a baseline measured in the same run
##        (pass options with ARGS, e.g. make bench ARGS="--csv --filter hold")
bench: deps
	$(SWIFT) run -c release BGBenchmarks $(ARGS)

clean:
	rm -rf .build
