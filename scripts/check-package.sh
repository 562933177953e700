#!/usr/bin/env bash
# make check-package (part of make test): a package outside this one depends on KotenOCRKit by version, as an
# app would (`.package(url: "file://…", from: "0.1.0")` on a tagged clone of this working tree), builds in
# Swift 6 language mode, and reads samples/scaned0.png from pixels in memory (RGBA rows with padding, handed
# over as bytes) in a Task that follows the page's events. Its text must be what `koten-ocr` prints for the file.
# Needs what scripts/setup.sh installs (libvips, ONNX Runtime with its libonnxruntime.pc) and nothing else:
# no unsafe flags, no path into this checkout.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SWIFT="${SWIFT:-swift}"
fail() { printf 'check-package: FAILED: %s\n' "$*" >&2; exit 1; }
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT

# A tagged clone of the working tree as it is (tracked and new files, not ignored ones): the dependency.
mkdir -p "$tmp/KotenOCR"
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
   [ -e "$f" ] && printf '%s\0' "$f"; done | tar -cf - --null -T -) | tar -xf - -C "$tmp/KotenOCR"
git -C "$tmp/KotenOCR" init -q
git -C "$tmp/KotenOCR" add -A
git -C "$tmp/KotenOCR" -c user.name=check -c user.email=check@localhost commit -q -m "snapshot for check-package"
git -C "$tmp/KotenOCR" tag 0.1.0

mkdir -p "$tmp/ReaderApp/Sources/ReaderApp"
cat > "$tmp/ReaderApp/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ReaderApp",
    dependencies: [.package(url: "file://$tmp/KotenOCR", from: "0.1.0")],
    targets: [
        .executableTarget(name: "ReaderApp", dependencies: [.product(name: "KotenOCRKit", package: "KotenOCR")],
                          swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
SWIFT
cat > "$tmp/ReaderApp/Sources/ReaderApp/main.swift" <<'SWIFT'
import Foundation
import KotenOCRKit

// An app holding camera pixels: RGBA rows with padding (here decoded from a file to have some).
let arguments = CommandLine.arguments
let models = URL(fileURLWithPath: arguments[1]), file = URL(fileURLWithPath: arguments[2])
let rgb = try ImageSource(url: file).decode()
let bytesPerRow = rgb.width * 4 + 16
var rgba = [UInt8](repeating: 0, count: bytesPerRow * rgb.height)
for y in 0..<rgb.height {
    for x in 0..<rgb.width {
        let s = (y * rgb.width + x) * 3, d = y * bytesPerRow + x * 4
        rgba[d] = rgb.pixels[s]; rgba[d + 1] = rgb.pixels[s + 1]; rgba[d + 2] = rgb.pixels[s + 2]; rgba[d + 3] = 255
    }
}
let ocr = try KotenOCR(configuration: OCRConfiguration(mode: .ppocr, models: ModelDirectory(root: models)))
let source = try ImageSource(pixels: rgba, width: rgb.width, height: rgb.height, bytesPerRow: bytesPerRow, format: .rgba8)
let reading = Task {
    var lines = LineProgress(total: 0, done: 0)
    for try await event in ocr.events(reading: source) {
        switch event {
        case .lines(let progress): lines = progress
        case .read(let page): return (page, lines)
        }
    }
    throw CancellationError()
}
let (page, lines) = try await reading.value
FileHandle.standardError.write(Data("ReaderApp: \(lines.done)/\(lines.total) lines\n".utf8))
FileHandle.standardOutput.write(try ResultFormat.txt.renderForStream(page))
SWIFT

cd "$tmp/ReaderApp"
"$SWIFT" build --product ReaderApp 2>&1 | grep -E 'error|warning: .*unsafe|Compiling ReaderApp|Build' || true
[ -x .build/debug/ReaderApp ] || fail "ReaderApp did not build"
if readelf -d .build/debug/ReaderApp | grep -F "$ROOT"; then fail "ReaderApp's dynamic section names the checkout"; fi
got="$(KOTEN_OCR_STATE_DIR="$tmp/state" .build/debug/ReaderApp "$ROOT/.deps/models" "$ROOT/samples/scaned0.png")"
bin="$ROOT/.build/debug/koten-ocr"; [ -x "$bin" ] || bin="$ROOT/.build/release/koten-ocr"
expected="$(KOTEN_OCR_STATE_DIR="$tmp/state" "$bin" --quiet --mode ppocr --models "$ROOT/.deps/models" "$ROOT/samples/scaned0.png")"
[ -n "$got" ] && [ "$got" = "$expected" ] || fail "ReaderApp read other text than koten-ocr"
printf 'check-package: ok (KotenOCR 0.1.0 as a versioned dependency; %s lines of text from pixels in memory)\n' \
  "$(printf '%s\n' "$got" | wc -l)"
