#!/usr/bin/env bash
# make check-install (part of make test): `make install` into a temporary prefix, the prefix moved elsewhere,
# and the installed koten-ocr run from another directory with no LD_LIBRARY_PATH, no model folder given and no
# user model folder: it must find its ONNX Runtime and its PP-OCRv5 models inside the prefix, carry no path
# into the checkout (readelf -d, and no byte of the checkout's path anywhere in the installed files), and
# print what the build tree's koten-ocr prints. `make uninstall` then leaves the prefix empty.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fail() { printf 'check-install: FAILED: %s\n' "$*" >&2; exit 1; }
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT

make -C "$ROOT" --no-print-directory install PREFIX="$tmp/prefix" >/dev/null
mv "$tmp/prefix" "$tmp/moved"                  # relocatable: nothing refers to where it was installed
prefix="$tmp/moved"; exe="$prefix/lib/koten-ocr/koten-ocr"
mkdir -p "$tmp/elsewhere" "$tmp/home"

readelf -d "$exe" | grep -F "$ROOT" && fail "readelf -d shows a path into the checkout"
[ "$(readelf -d "$exe" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')" = '$ORIGIN' ] || fail "RUNPATH is not \$ORIGIN"
if grep -rlaF "$ROOT" "$prefix"; then fail "installed files contain the checkout's path"; fi
# Which ONNX Runtime a real start loads (ldd would resolve $ORIGIN from the symlink, the kernel does not).
ort="$(cd "$tmp/elsewhere" && env -u LD_LIBRARY_PATH LD_DEBUG=libs "$prefix/bin/koten-ocr" --version 2>&1 >/dev/null \
       | sed -n 's/.*calling init: \(.*libonnxruntime[^ ]*\).*/\1/p' | head -n1)"
case "$ort" in "$prefix"/lib/koten-ocr/*) ;; *) fail "ONNX Runtime resolves to '$ort', not inside the prefix" ;; esac

expected="$(KOTEN_OCR_STATE_DIR="$tmp/state" "$ROOT/.build/release/koten-ocr" --quiet --mode ppocr --models "$ROOT/.deps/models" "$ROOT/samples/scaned0.png")"
got="$(cd "$tmp/elsewhere" && env -u LD_LIBRARY_PATH -u KOTEN_OCR_MODELS HOME="$tmp/home" XDG_DATA_HOME="$tmp/home/share" \
       KOTEN_OCR_STATE_DIR="$tmp/state" "$prefix/bin/koten-ocr" --quiet --mode ppocr "$ROOT/samples/scaned0.png")" \
  || fail "the installed koten-ocr failed"
[ -n "$got" ] && [ "$got" = "$expected" ] || fail "the installed koten-ocr printed other text than the build's"

# The installed server starts (libmicrohttpd and libzip from the system) and answers on an ephemeral port.
(cd "$tmp/elsewhere" && exec env -u LD_LIBRARY_PATH HOME="$tmp/home" KOTEN_OCR_STATE_DIR="$tmp/state" \
   "$prefix/bin/koten-ocr" serve --port 0 --mode ppocr --work-dir "$tmp/serve" >"$tmp/serve.out" 2>&1) &
server=$!
for _ in $(seq 1 120); do grep -q 'serving on' "$tmp/serve.out" 2>/dev/null && break; sleep 0.5; done
port="$(sed -n 's|.*serving on http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$tmp/serve.out")"
health="$(curl -s --max-time 10 "http://127.0.0.1:${port:-1}/healthz" || true)"
kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true
[ "$health" = '{"status":"ok"}' ] || fail "the installed koten-ocr serve did not answer /healthz: $(cat "$tmp/serve.out")"

make -C "$ROOT" --no-print-directory uninstall PREFIX="$prefix" >/dev/null
left="$(find "$prefix" -mindepth 1 -not -type d)"
[ -z "$left" ] || fail "uninstall left: $left"
printf 'check-install: ok (installed, moved, run from %s with ONNX Runtime %s; %s lines of text; serve answered; uninstalled)\n' \
  "another directory" "${ort##*/lib/koten-ocr/}" "$(printf '%s\n' "$got" | wc -l)"
