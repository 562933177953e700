#!/usr/bin/env bash
# Fuzzes one entry point with libFuzzer under AddressSanitizer (docs/reliability.md, "Fuzzing").
#   scripts/fuzz.sh TARGET SECONDS    TARGET: image | pdf | manifest
# Builds koten-ocr-fuzz with -sanitize=fuzzer,address (one option: given twice, swiftc keeps only the last and
# the Swift code gets no coverage counters) into .build/fuzz, starts from the seeds in
# Tests/Fixtures/fuzz/seeds/TARGET, keeps the grown corpus in .build/fuzz/corpus-TARGET and any crash input in
# .build/fuzz/crashes-TARGET, and prints libFuzzer's last status line. Exit status: libFuzzer's (0: no crash).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TARGET="${1:-image}"; SECONDS_TO_RUN="${2:-600}"
case "$TARGET" in image|pdf|manifest) ;; *) echo "fuzz: unknown target $TARGET (image, pdf, manifest)" >&2; exit 2 ;; esac
SCRATCH="$ROOT/.build/fuzz"
cd "$ROOT"
swift build -c release --product koten-ocr-fuzz --scratch-path "$SCRATCH" \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING \
  -Xcc -fsanitize=fuzzer-no-link -Xcc -fsanitize=address >&2
BIN="$SCRATCH/release/koten-ocr-fuzz"
CORPUS="$SCRATCH/corpus-$TARGET"; CRASHES="$SCRATCH/crashes-$TARGET"
mkdir -p "$CORPUS" "$CRASHES"
cp -n "Tests/Fixtures/fuzz/seeds/$TARGET"/* "$CORPUS/" 2>/dev/null || true
# The toolchain's own leaks are suppressed as in `make test-asan`; a leak of ours is a finding.
export LSAN_OPTIONS="suppressions=$ROOT/scripts/sanitizers/lsan.supp:print_suppressions=0"
export KOTEN_FUZZ_TARGET="$TARGET"
LOG="$SCRATCH/fuzz-$TARGET.log"
set +e
# FUZZ_ARGS: more libFuzzer options, e.g. "-fork=1 -ignore_timeouts=1 -ignore_ooms=1" to go on past a hang or
# an out-of-memory input (by default libFuzzer stops at the first and keeps it as a finding).
# shellcheck disable=SC2086
"$BIN" -max_total_time="$SECONDS_TO_RUN" -timeout=30 -rss_limit_mb=3072 -max_len=65536 -print_final_stats=1 \
  -artifact_prefix="$CRASHES/" ${FUZZ_ARGS:-} "$CORPUS" > "$LOG" 2>&1
status=$?
set -e
grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE)' "$LOG" | tail -n 1 || true
grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$LOG" || true
grep -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|SUMMARY' "$LOG" | head -n 5 || true
echo "fuzz $TARGET: exit $status, corpus $(ls "$CORPUS" | wc -l) inputs, crashes $(ls "$CRASHES" | wc -l) (log $LOG)"
exit $status
