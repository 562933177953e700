# KotenOCR — `make run` reads the sample page, `make test` runs the test suite. Both set up first if needed.
# `make install PREFIX=DIR` installs a relocatable koten-ocr (scripts/install.sh), `make uninstall PREFIX=DIR`.
SWIFT ?= swift
# Release builds link the Swift runtime statically, so the executable needs no toolchain at run time.
RELEASE ?= -c release --static-swift-stdlib
PREFIX ?= /usr/local
MODELS ?= .deps/models
SAMPLE ?= samples/scaned0.png
PYTHON ?= .deps/venv/bin/python
STANDINS ?= .deps/standins
PEERS_PY ?= .deps/peers/bin/python
QUALITY ?= .build/quality
# make quality options: pages (name patterns), engines, extra koten-ocr flags, more koten-ocr columns
PAGES ?=
ENGINES ?= koten,rapidocr,tesseract
KOTEN_ARGS ?=
KOTEN_VARIANTS ?=
# another koten-ocr build (e.g. main's) beside this one in make quality and make sweep: before/after in one run
KOTEN_BEFORE ?=
RAPIDOCR_ARGS ?=
SHELL := /bin/bash
# ONNX Runtime's telemetry off in every process a recipe starts (docs/privacy.md): koten-ocr turns it off itself,
# but the Python peers of the benchmarks load the same ONNX Runtime 1.32 from PyPI, which would call Microsoft's collector.
export ORT_DISABLE_TELEMETRY := 1

.PHONY: setup build run test test-asan test-tsan fuzz architecture parity bench bench-speed bench-serve bench-corpus standins peers quality sweep install uninstall check-package check-install clean

setup:
	@scripts/setup.sh

build: setup
	$(SWIFT) build $(RELEASE) --product koten-ocr

run: build
	.build/release/koten-ocr --models $(MODELS) $(SAMPLE)

# The floor plan check, the test suite, then the two library checks (issue 14): a package outside this one depends
# on KotenOCRKit by version and reads a page from pixels in memory; `make install` into a temporary prefix runs from anywhere.
test: setup architecture
	$(SWIFT) test
	@$(MAKE) --no-print-directory check-package check-install

# The suite under AddressSanitizer with LeakSanitizer, and under ThreadSanitizer (docs/reliability.md), each in its
# own build folder; the CLI children the tests start are built the same way and inherit the options. The
# suppressions name the toolchain's own leaks and races only: a leak or a race of ours still fails the run.
SANITIZERS := $(CURDIR)/scripts/sanitizers
# handle_segv=0 (both): a fault reaches the CLI's own crash record (tests/Diagnostics), as without the sanitizer.
test-asan: setup
	LSAN_OPTIONS=suppressions=$(SANITIZERS)/lsan.supp:print_suppressions=0 ASAN_OPTIONS=handle_segv=0 \
	  $(SWIFT) test --sanitize=address --scratch-path .build/asan

test-tsan: setup
	TSAN_OPTIONS=suppressions=$(SANITIZERS)/tsan.supp:second_deadlock_stack=1:handle_segv=0 \
	  $(SWIFT) test --sanitize=thread --scratch-path .build/tsan

# libFuzzer under AddressSanitizer, one entry point (docs/reliability.md, "Fuzzing"): make fuzz FUZZ_TARGET=pdf
FUZZ_TARGET ?= image
FUZZ_SECONDS ?= 600
fuzz: setup
	scripts/fuzz.sh $(FUZZ_TARGET) $(FUZZ_SECONDS)

check-package: setup
	scripts/check-package.sh

check-install: build
	scripts/check-install.sh

install: build
	scripts/install.sh "$(PREFIX)" .build/release/koten-ocr

uninstall:
	scripts/install.sh --uninstall "$(PREFIX)"

# The floor plan (docs/architecture.md, "Checking the plan"): which room depends on which, the registry, the
# mode switches and the docs/ citations; fails on a forbidden dependency, a cycle or an unresolved citation.
architecture:
	@python3 scripts/architecture-check.py

# NDL parity goldens (every folder under Tests/Fixtures/parity/{ndl,koten}) and the preprocessing goldens:
# one line per case with its result; the full log is in .build/parity.log.
parity: setup
	@mkdir -p .build; set -o pipefail; $(SWIFT) test --filter 'Parity|Preprocess' 2>&1 | tee .build/parity.log \
	  | grep -E '^(PARITY|PREPROCESS)|Test run with|✘'

# Memory benchmark (docs/performance.md): the four failures before/after, each mode, the budget alternation.
bench: standins
	$(SWIFT) build $(RELEASE)
	.build/release/koten-ocr-bench memory

# Speed benchmark (docs/performance.md, "Speed"): ppocr against RapidOCR 3.10 and the plain ONNX Runtime pipeline on
# the same weights, whole processes alternated: scaned0, a 12 MP photo, a 50-page batch. Take it on a quiet machine.
# E.g. make bench-speed SPEED_ARGS='--rounds 3 --koten before=/tmp/koten-ocr-before'
SPEED_ARGS ?=
bench-speed: peers
	$(SWIFT) build $(RELEASE)
	.build/release/koten-ocr-bench speed $(SPEED_ARGS)

# Load benchmark of `koten-ocr serve` (docs/performance.md, "Serving under load"): 1, 8, 32 and 64 concurrent clients
# posting samples/scaned0.png for 60 s each, on 127.0.0.1 only, koten-ocr under --memory-budget 300MB beside
# rapidocr_api (.deps/peers) on the same PP-OCRv5 files; prints one Markdown table. About 15 minutes on 2 cores.
# Then the corpus benchmark below (search over 10,000 pages, issue 37: its index's size and build time, p95 per
# query kind). E.g. make bench-serve SERVE_ARGS='--seconds 10 --levels 1,8' (SERVE_CORPUS=0: the load alone)
SERVE_ARGS ?=
SERVE_CORPUS ?= 1
bench-serve: build peers
	python3 scripts/bench/serve_load.py $(SERVE_ARGS)
	@if [ "$(SERVE_CORPUS)" != 0 ]; then $(MAKE) --no-print-directory bench-corpus; fi

# Corpus benchmark (docs/corpus.md, "Benchmark"): 10,000 pages of generated text stored and indexed, search latency
# by query length and for 旧字体/新字体, corrections on a 1,000-page job; one Markdown table. E.g.
# make bench-corpus CORPUS_ARGS='--pages 2000'
CORPUS_ARGS ?=
bench-corpus: setup
	$(SWIFT) build $(RELEASE) --product koten-ocr-bench
	.build/release/koten-ocr-bench corpus $(CORPUS_ARGS)

# Stand-in NDL models (random weights, real signatures and sizes; scripts/make-standins.py) into $(STANDINS),
# laid out as a model folder (ndl/, koten/). Skipped when they exist for this version of the script.
standins: setup
	@sha=$$(sha256sum scripts/make-standins.py | cut -d' ' -f1); \
	if [ -f "$(STANDINS)/.ok-$$sha" ]; then echo "standins: $(STANDINS) is up to date"; exit 0; fi; \
	rm -rf "$(STANDINS).part" && $(PYTHON) scripts/make-standins.py "$(STANDINS).part" && \
	touch "$(STANDINS).part/.ok-$$sha" && rm -rf "$(STANDINS)" && mv "$(STANDINS).part" "$(STANDINS)"

# The engines koten-ocr is compared with (docs/quality.md): RapidOCR 3.10 in .deps/peers (hash-pinned wheels),
# Tesseract 5 jpn/jpn_vert and Noto CJK fonts from Debian; the plain ONNX Runtime pipeline runs in the same venv.
peers: setup
	@scripts/peers/install.sh

# Text-quality benchmark (docs/quality.md): renders the corpus, runs every engine on every page, prints one
# markdown table of ordered CER and order-free error. E.g. make quality PAGES='horizontal*,scaned0'
#   KOTEN_ARGS='--det-max-side 1280' KOTEN_VARIANTS='nocls=--no-orientation-classifier' ENGINES=koten,rapidocr
quality: peers
	$(SWIFT) build $(RELEASE) --product koten-ocr
	$(PEERS_PY) scripts/quality/render_corpus.py $(QUALITY)/corpus
	$(PEERS_PY) scripts/quality/benchmark.py --corpus $(QUALITY)/corpus --run-dir $(QUALITY)/run \
	  --pages="$(PAGES)" --engines="$(ENGINES)" --koten-args="$(KOTEN_ARGS)" \
	  --koten-variant="$(KOTEN_VARIANTS)" --rapidocr-args="$(RAPIDOCR_ARGS)" --koten-before="$(KOTEN_BEFORE)"

# The sweep (docs/quality.md, "The sweep"): renders pages that vary one thing at a time (tilt, JPEG, blur, noise,
# contrast, borders, font size, long side, large page, columns, length, narrow, tategaki, page numbers), reads them
# with the release CLI and prints CER per family with the worst cases. E.g. make sweep FAMILIES=tilt,narrow
#   SWEEP_ARGS='--engines koten,tesseract'. Its test subset (Tests/Fixtures/sweep) runs in make test (SweepTests).
FAMILIES ?=
SWEEP_ARGS ?=
sweep: peers
	$(SWIFT) build $(RELEASE) --product koten-ocr
	$(PEERS_PY) scripts/quality/sweep.py --families="$(FAMILIES)" --koten-before="$(KOTEN_BEFORE)" $(SWEEP_ARGS)

clean:
	rm -rf .build
