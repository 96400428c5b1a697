# redactd build, setup and test entry points. See README.md.
SHELL := /bin/bash
GO ?= go
export CGO_ENABLED := 1

.PHONY: all build setup test-setup run test test-short vet lint fmt clean fuzz-short bundle bench

all: build

# setup fetches the pinned ONNX Runtime library and OCR models into .cache/
# (verified by SHA-256); nothing is downloaded at run time.
setup:
	./deploy/setup.sh

build:
	$(GO) build -o bin/ ./cmd/...
	$(GO) build -o bin/bench ./bench

# run sets up, builds and serves on the embedded defaults (see README).
run: setup build
	./deploy/run-local.sh

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt needed"; exit 1; }

# lint is vet, gofmt and staticcheck (pinned; fetched through the Go module
# proxy like any module, not part of go.mod, so the daemon's dependency
# graph does not change). Checks are staticcheck's defaults.
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
lint: vet
	$(GO) run $(STATICCHECK) ./...

# test-setup installs what the tests drive besides the code: Debian's
# chromium for the review editor's real-browser test, and the fonts the
# OCR tests draw text with (idempotent; each says so and goes on when it
# cannot install).
test-setup:
	./.ci/browser-setup.sh
	./.ci/fonts-setup.sh

# RACE_PKGS, the packages where requests, the dispatcher, the stores and
# webhook deliveries meet on many goroutines (the job service, the server
# and the editor, the record stores and their engines, webhooks), and the
# model batcher whose runs share thread slots (models/batch), run under
# the race detector, and only there: the rest of ./... runs without it.
# Measured on 2 cores: the race build and run of these packages take about
# 4 minutes, about 2.5 more than without -race (models/batch: 1.4 s).
RACE_PKGS := ./engine/jobs ./engine/store/... ./engine/webhook ./server/... ./models/batch

# The job service's tests run once, on the one record store (engine/store/storelog;
# over pebble as a node runs it, and as a cluster node with blob files where
# a test says so); every engine of engine/store passes engine/store/storetest.
# deploy/apt-ensure_test.sh checks that setup waits for apt's locks and,
# under CI, fails loudly.
test: setup test-setup lint
	./deploy/apt-ensure_test.sh
	$(GO) test -count=1 -timeout 45m $$($(GO) list ./... | grep -vxF "$$($(GO) list $(RACE_PKGS))")
	$(GO) test -race -count=1 -timeout 45m $(RACE_PKGS)
	$(MAKE) fuzz-short

# test-short is the quick loop: vet, gofmt and go test -short, with no
# setup, so no models and no network. Tests that need the ONNX Runtime or
# the models skip themselves when -short finds them missing
# (internal/testkit.SkipShortWithoutModels); after `make setup` they run.
test-short: vet
	$(GO) test -short -count=1 ./...

fmt:
	gofmt -w $$(git ls-files '*.go')

clean:
	rm -rf bin dist

# bundle builds the air-gapped release tarball
# dist/redactd-VERSION-linux-amd64.tar.gz (binaries, ONNX Runtime, models,
# config, systemd unit, install.sh, licenses, SHA256SUMS); see deploy/README.md.
# VERSION defaults to `git describe --always --dirty`, else the VERSION file.
bundle:
	GO="$(GO)" VERSION="$(VERSION)" ./deploy/bundle.sh --out dist

# bench installs the peer tools from Debian (bench/setup.sh), builds, runs
# the full benchmark against a fresh bin/redactd and regenerates
# bench/RESULTS.md with its charts; BENCH_FLAGS adds flags (e.g. --quick);
# BASELINE=COMMIT adds a before-and-after table of the same run against
# that commit's binary (bench/baseline.sh builds it).
bench: setup build
	./bench/setup.sh
	$(if $(BASELINE),base=$$(./bench/baseline.sh $(BASELINE)) && )./bin/bench --out bench/RESULTS.md $(if $(BASELINE),--baseline=$$base) $(BENCH_FLAGS)

# fuzz-short runs every Fuzz* target of the repository for FUZZTIME each, one
# at a time (.ci/fuzz-short, which says how); about two minutes in all.
# Longer: make fuzz-short FUZZTIME=10m.
FUZZTIME ?= 5s
fuzz-short:
	GO="$(GO)" FUZZTIME="$(FUZZTIME)" ./.ci/fuzz-short
