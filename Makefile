# KotenOCR — `make run` reads the sample page, `make test` runs the test suite. Both set up first if needed.
SWIFT ?= swift
MODELS ?= .deps/models
SAMPLE ?= samples/scaned0.png
PYTHON ?= .deps/venv/bin/python
STANDINS ?= .deps/standins
SHELL := /bin/bash

.PHONY: setup build run test parity bench standins clean

setup:
	@scripts/setup.sh

build: setup
	$(SWIFT) build -c release --product koten-ocr

run: build
	.build/release/koten-ocr --models $(MODELS) $(SAMPLE)

test: setup
	$(SWIFT) test

# NDL parity goldens (every folder under Tests/Fixtures/parity/{ndl,koten}) and the preprocessing goldens:
# one line per case with its result; the full log is in .build/parity.log.
parity: setup
	@mkdir -p .build; set -o pipefail; $(SWIFT) test --filter 'Parity|Preprocess' 2>&1 | tee .build/parity.log \
	  | grep -E '^(PARITY|PREPROCESS)|Test run with|✘'

# Memory benchmark (docs/performance.md): the four failures before/after, each mode, the budget alternation.
bench: standins
	$(SWIFT) build -c release
	.build/release/koten-ocr-bench memory

# Stand-in NDL models (random weights, real signatures and sizes; scripts/make-standins.py) into $(STANDINS),
# laid out as a model folder (ndl/, koten/). Skipped when they exist for this version of the script.
standins: setup
	@sha=$$(sha256sum scripts/make-standins.py | cut -d' ' -f1); \
	if [ -f "$(STANDINS)/.ok-$$sha" ]; then echo "standins: $(STANDINS) is up to date"; exit 0; fi; \
	rm -rf "$(STANDINS).part" && $(PYTHON) scripts/make-standins.py "$(STANDINS).part" && \
	touch "$(STANDINS).part/.ok-$$sha" && rm -rf "$(STANDINS)" && mv "$(STANDINS).part" "$(STANDINS)"

clean:
	rm -rf .build
