# KotenOCR — `make run` reads the sample page, `make test` runs the test suite. Both set up first if needed.
SWIFT ?= swift
MODELS ?= .deps/models
SAMPLE ?= samples/scaned0.png

.PHONY: setup build run test parity bench clean

setup:
	@scripts/setup.sh

build: setup
	$(SWIFT) build -c release --product koten-ocr

run: build
	.build/release/koten-ocr --models $(MODELS) $(SAMPLE)

test: setup
	$(SWIFT) test

parity: setup
	$(SWIFT) test --filter Parity

clean:
	rm -rf .build
