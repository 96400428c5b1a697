# redactd build, setup and test entry points. See README.md.
SHELL := /bin/bash
GO ?= go
export CGO_ENABLED := 1

.PHONY: all build setup run test vet fmt clean

all: build

# setup fetches the pinned ONNX Runtime library and OCR models into .cache/
# (verified by SHA-256); nothing is downloaded at run time.
setup:
	./deploy/setup.sh

build:
	$(GO) build -o bin/ ./cmd/...

# run sets up, builds and serves on the embedded defaults (see README).
run: setup build
	./deploy/run-local.sh

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt needed"; exit 1; }

test: setup vet
	$(GO) test -count=1 -timeout 45m ./...

fmt:
	gofmt -w $$(git ls-files '*.go')

clean:
	rm -rf bin dist
