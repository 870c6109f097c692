# BGBench — the two commands a researcher needs: `make run` and `make test`.
SWIFT  ?= swift
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Debian packages the build needs (GSL through pkg-config).
APT_PACKAGES := libgsl-dev pkg-config

.PHONY: all deps build run test test-examples bench bench-instructions clean check-docs

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

## run: build and run the default suite into Reports/default/, replacing it whole
##      (about 13 s of CPU, 7 s on 2 free cores, plus the release build:
##      89 s in all on a fresh clone, README); SUITE=paper runs it on 2,000 users
##      for papers (ten times the CPU), SUITE=platforms sets iOS and Android
##      side by side (seconds), SUITE=smoke in seconds
SUITE ?= default
run: deps
	$(SWIFT) build -c release --product bgbench
	.build/release/bgbench run Benchmarks/suites/$(SUITE).json --out Reports/$(SUITE) --force

## test: build and run every test (debug build: internal invariant checks on),
##       then check-docs
test: deps
	$(SWIFT) test
	python3 Tests/docs/check-links.py

## check-docs: every intra-repository link, anchor and file path in the README,
##             Docs/, Datasets/ and Examples/ documents exists (under a second)
check-docs:
	python3 Tests/docs/check-links.py

## test-examples: build Examples/CustomPolicy from scratch (its own .build, BGBench
##                included), run its tests and its spec, check the report (a few minutes);
##                then Examples/python/fixed_interval.py against the built-in, byte for byte
test-examples: deps
	SWIFT="$(SWIFT)" Examples/CustomPolicy/test.sh
	SWIFT="$(SWIFT)" Examples/python/test.sh

## bench: performance benchmarks, each against a baseline measured in the same run
##        (pass options with ARGS, e.g. make bench ARGS="--csv --filter policy-cost")
bench: deps
	$(SWIFT) run -c release BGBenchmarks $(ARGS)

## bench-instructions: every configuration of the default suite alone, 40 users
##        × 7 days, in instructions per simulated event against greedy
##        (valgrind, installed here if missing; about 3 minutes)
bench-instructions: deps
	@command -v valgrind >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq valgrind; }
	$(SWIFT) build -c release --product bgbench
	$(SWIFT) run -c release BGBenchmarks --filter policy-instructions $(ARGS)

clean:
	rm -rf .build

## test-slurm: the Slurm job-array scripts on a private one-node Slurm cluster
## (installs slurm-wlm and munge; needs root). BGBENCH=Tests/slurm/fake-bgbench.sh
## tests the scripts' mechanics without building bgbench.
BGBENCH ?= .build/release/bgbench
.PHONY: test-slurm
test-slurm: $(if $(filter .build/release/bgbench,$(BGBENCH)),deps)
	@if [ "$(BGBENCH)" = ".build/release/bgbench" ]; then \
		$(SWIFT) build -c release --product bgbench; \
	fi
	BGBENCH="$(BGBENCH)" Tests/slurm/test-slurm.sh
