#!/usr/bin/env bash
# `make peers`: the engines koten-ocr is compared with, on this machine's own PP-OCRv5 weights. Idempotent.
#   - Tesseract 5 with jpn and jpn_vert (Debian, pinned by version prefix)           -> the system, via apt
#   - Noto CJK fonts (Debian; also installed by scripts/setup.sh)                     -> the system, via apt
#   - RapidOCR 3.10.0 + onnxruntime 1.32.0 + OpenCV + Pillow ..., hash-pinned wheels  -> .deps/peers (venv)
#   - rapidocr_api 0.2.0 (RapidOCR's HTTP server: FastAPI, uvicorn ...), hash-pinned  -> the same venv
#   - RapidOCR's key file: ppocr_keys_v5.txt without its first line (`blank`) and its
#     last line (the space); RapidOCR's CTC decoder adds both itself (18383 + 2)      -> .deps/peers/ppocr_keys_rapidocr.txt
# Run after scripts/setup.sh (the Makefile does), which provides python3-venv and .deps/models/ppocr.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DEPS="$ROOT/.deps"
PEERS="$DEPS/peers"
REQ="$ROOT/scripts/peers/requirements.txt"
REQ_API="$ROOT/scripts/peers/requirements-api.txt"
KEYS_V5="$DEPS/models/ppocr/ppocr_keys_v5.txt"
KEYS_V5_SHA256="4941d35625bf15f7ef89fcbff443893e2fef40e25a7ecde885203994d4a9be25"
APT_PREFIX_PACKAGES=(
  "tesseract-ocr=5.3."
  "tesseract-ocr-jpn=1:4.1."
  "tesseract-ocr-jpn-vert=1:4.1."
  "fonts-noto-cjk=1:20220127"
)

log() { printf 'peers: %s\n' "$*" >&2; }
die() { printf 'peers: error: %s\n' "$*" >&2; exit 1; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else die "need root for: $*"; fi; }
source "$ROOT/scripts/apt-by-prefix.sh"

# ---- 1. Debian: Tesseract 5 (jpn, jpn_vert), Noto CJK ---------------------------------------------------
apt_by_prefix "${APT_PREFIX_PACKAGES[@]}"
langs="$(tesseract --list-langs 2>/dev/null)"
for l in jpn jpn_vert; do grep -qx "$l" <<<"$langs" || die "tesseract has no '$l' language data"; done
tesseract --version 2>/dev/null | head -n1 | grep -q '^tesseract 5\.' || die "tesseract is not version 5"

# ---- 2. venv with RapidOCR and its dependencies (binary wheels, hashes required) ---------------------------
REQ_SHA="$(sha256sum "$REQ" | cut -d' ' -f1)"
if [ ! -f "$PEERS/.ok-$REQ_SHA" ]; then
  log "creating $PEERS (RapidOCR 3.10.0, onnxruntime 1.32.0, OpenCV, Pillow; hash-pinned)"
  # Built in place (a venv records its own path); the stamp is written last, so a broken half is rebuilt.
  rm -rf "$PEERS"
  python3 -m venv "$PEERS"
  "$PEERS/bin/python" -m pip install --quiet --no-deps --require-hashes --only-binary=:all: -r "$REQ"
  touch "$PEERS/.ok-$REQ_SHA"
fi

# ---- 2b. rapidocr_api and its server stack into the same venv (for make bench-serve) ------------------------
REQ_API_SHA="$(sha256sum "$REQ_API" | cut -d' ' -f1)"
if [ ! -f "$PEERS/.ok-api-$REQ_API_SHA" ]; then
  log "adding rapidocr_api 0.2.0 (FastAPI, uvicorn; hash-pinned) to $PEERS"
  rm -f "$PEERS"/.ok-api-*
  "$PEERS/bin/python" -m pip install --quiet --no-deps --require-hashes --only-binary=:all: -r "$REQ_API"
  touch "$PEERS/.ok-api-$REQ_API_SHA"
fi

# ---- 3. RapidOCR's key file from the project's own ppocr_keys_v5.txt ---------------------------------------
KEYS_OUT="$PEERS/ppocr_keys_rapidocr.txt"
[ "$(sha256sum "$KEYS_V5" | cut -d' ' -f1)" = "$KEYS_V5_SHA256" ] || die "$KEYS_V5 missing or changed (run make setup)"
if [ ! -f "$KEYS_OUT" ]; then
  "$PEERS/bin/python" - "$KEYS_V5" "$KEYS_OUT" <<'PYEOF'
import os, sys
src, out = sys.argv[1:]
lines = open(src, encoding="utf-8", newline="").read().split("\n")
if lines and lines[-1] == "":
    lines.pop()                      # the file ends with a newline
assert lines[0] == "blank" and lines[-1] == " ", "unexpected first/last key"
keys = lines[1:-1]
assert len(keys) == 18383, len(keys)
with open(out + ".part", "w", encoding="utf-8", newline="") as f:
    f.write("\n".join(keys) + "\n")
os.replace(out + ".part", out)
PYEOF
  log "RapidOCR key file (18383 keys) -> $KEYS_OUT"
fi

# ---- 4. check: everything imports ---------------------------------------------------------------------------
"$PEERS/bin/python" -c 'import rapidocr, onnxruntime, cv2, PIL, numpy, pyclipper, shapely, fastapi, uvicorn, multipart, rapidocr_api' \
  || die "the peers venv does not import (delete $PEERS and run make peers again)"
log "ready (.deps/peers: RapidOCR 3.10.0, rapidocr_api 0.2.0, onnxruntime $("$PEERS/bin/python" -c 'import onnxruntime; print(onnxruntime.__version__)'); $(tesseract --version 2>/dev/null | head -n1) jpn jpn_vert)"
