#!/usr/bin/env bash
# make install / make uninstall: a relocatable koten-ocr under PREFIX (default /usr/local).
#   scripts/install.sh PREFIX BINARY     install BINARY (a `make build` koten-ocr) and what it needs
#   scripts/install.sh --uninstall PREFIX remove what an install recorded, nothing else
# Layout (PREFIX can be moved or copied anywhere afterwards):
#   PREFIX/bin/koten-ocr -> ../lib/koten-ocr/koten-ocr     the command
#   PREFIX/lib/koten-ocr/koten-ocr                          the executable: Swift runtime linked statically
#                                                           (--static-swift-stdlib), RUNPATH $ORIGIN only,
#                                                           debug sections stripped (they name the checkout)
#   PREFIX/lib/koten-ocr/libonnxruntime.so.1[.x.y.z]        the ONNX Runtime it was linked with, found through
#                                                           $ORIGIN (the dynamic linker resolves it from the
#                                                           executable's real path, symlinks followed)
#   PREFIX/share/koten-ocr/models/ppocr/                    the PP-OCRv5 models and their NOTICE (found beside
#                                                           the executable: ModelDirectory.installedModels)
#   PREFIX/share/koten-ocr/installed-files                  what uninstall removes
# Still needed from the system: libvips (Debian: libvips42), libmicrohttpd and libzip for `koten-ocr serve`
# (Debian: libmicrohttpd12, libzip4; docs/serve.md) and glibc/libstdc++.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
die() { printf 'install: error: %s\n' "$*" >&2; exit 1; }
log() { printf 'install: %s\n' "$*" >&2; }

if [ "${1:-}" = "--uninstall" ]; then
  PREFIX="${2:?usage: install.sh --uninstall PREFIX}"
  LIST="$PREFIX/share/koten-ocr/installed-files"
  [ -f "$LIST" ] || { log "nothing installed under $PREFIX (no $LIST)"; exit 0; }
  while IFS= read -r rel; do
    case "$rel" in ''|/*|*..*) continue ;; esac   # only paths below PREFIX
    rm -f -- "$PREFIX/$rel"
  done < "$LIST"
  rm -f -- "$LIST"
  for dir in share/koten-ocr/models/ppocr share/koten-ocr/models share/koten-ocr lib/koten-ocr; do
    rmdir -- "$PREFIX/$dir" 2>/dev/null || true
  done
  log "removed koten-ocr from $PREFIX"
  exit 0
fi

PREFIX="${1:?usage: install.sh PREFIX BINARY}"
BINARY="${2:?usage: install.sh PREFIX BINARY}"
[ -x "$BINARY" ] || die "$BINARY: no such executable (make build)"
case "$PREFIX" in /*) ;; *) PREFIX="$(pwd)/$PREFIX" ;; esac
# The executable must carry no path but $ORIGIN and need no Swift runtime library.
runpath="$(readelf -d "$BINARY" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')"
[ "$runpath" = '$ORIGIN' ] || die "$BINARY has RUNPATH '$runpath', not \$ORIGIN alone (build it with make build)"
if readelf -d "$BINARY" | grep -q 'NEEDED.*libswift\|NEEDED.*libFoundation'; then
  die "$BINARY needs the Swift runtime's shared libraries (build it with --static-swift-stdlib: make build)"
fi
# The ONNX Runtime the executable was linked with: the one pkg-config names.
ORT_DIR="$(pkg-config --variable=libdir libonnxruntime)" || die "pkg-config finds no libonnxruntime (scripts/setup.sh)"
ORT_REAL="$(readlink -f "$ORT_DIR/libonnxruntime.so.1")"
[ -f "$ORT_REAL" ] || die "$ORT_DIR/libonnxruntime.so.1: not found"
MODELS="$ROOT/.deps/models/ppocr"

mkdir -p "$PREFIX/bin" "$PREFIX/lib/koten-ocr" "$PREFIX/share/koten-ocr/models/ppocr"
files=()
put() {  # put SOURCE RELATIVE-TARGET MODE [strip]: copied to a temporary name, then renamed into place
  install -m "$3" "$1" "$PREFIX/$2.part-$$"
  # Debug sections name the source files by their paths in the checkout: the installed executable has none.
  if [ "${4:-}" = strip ]; then strip --strip-debug "$PREFIX/$2.part-$$"; fi
  mv -f "$PREFIX/$2.part-$$" "$PREFIX/$2"
  files+=("$2")
}
put "$BINARY" lib/koten-ocr/koten-ocr 0755 strip
put "$ORT_REAL" "lib/koten-ocr/$(basename "$ORT_REAL")" 0644
ln -sfn "$(basename "$ORT_REAL")" "$PREFIX/lib/koten-ocr/libonnxruntime.so.1"; files+=(lib/koten-ocr/libonnxruntime.so.1)
ln -sfn ../lib/koten-ocr/koten-ocr "$PREFIX/bin/koten-ocr"; files+=(bin/koten-ocr)
if [ -d "$MODELS" ]; then
  for f in "$MODELS"/*; do put "$f" "share/koten-ocr/models/ppocr/$(basename "$f")" 0644; done
else
  log "no PP-OCRv5 models in $MODELS (scripts/setup.sh): installed without models"
fi
printf '%s\n' "${files[@]}" > "$PREFIX/share/koten-ocr/installed-files"
log "koten-ocr -> $PREFIX/bin/koten-ocr (ONNX Runtime $(basename "$ORT_REAL"), ${#files[@]} files)"
