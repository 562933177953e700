// swift-tools-version:6.0
// KotenOCR: OCR for Japanese classical books and modern print on ONNX Runtime, memory-first.
// Native dependencies come from `scripts/setup.sh` (ONNX Runtime into .deps/, libvips from Debian).
import PackageDescription

let ortLib = Context.packageDirectory + "/.deps/onnxruntime/lib"

let package = Package(
    name: "KotenOCR",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "KotenOCRKit", targets: ["KotenOCRKit"]),
        .executable(name: "koten-ocr", targets: ["koten-ocr"]),
    ],
    targets: [
        // ONNX Runtime C API: headers from .deps (setup.sh), library linked with an rpath to .deps,
        // so `swift build`, `swift test` and the CLI find it without LD_LIBRARY_PATH.
        .target(
            name: "CONNXRuntime",
            linkerSettings: [
                .linkedLibrary("onnxruntime"),
                .unsafeFlags(["-L", ortLib, "-Xlinker", "-rpath", "-Xlinker", ortLib]),
            ]
        ),
        // libvips through pkg-config; CVipsShim wraps its variadic calls (Swift cannot call C variadics).
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        .target(name: "CVipsShim", dependencies: ["CVips"]),
        // glibc allocator policy (fixed mmap threshold, trimming) and in-use byte counts.
        .target(name: "CAllocator"),
        // Run marker and fatal-signal crash record: async-signal-safe C (docs/diagnostics.md).
        .target(name: "CCrashRecord"),
        .target(
            name: "KotenOCRKit",
            dependencies: ["CONNXRuntime", "CVipsShim", "CAllocator", "CCrashRecord"],
            exclude: ["ReferenceSemantics/README.md"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The crash of the CLI's KOTEN_OCR_TEST_CRASH hook (docs/diagnostics.md, "Test hooks"); not in the library.
        .target(name: "CTestCrash"),
        .executableTarget(
            name: "koten-ocr",
            dependencies: ["KotenOCRKit", "CTestCrash"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Inputs for tests and benchmarks (image writer, 12 MP photo, decompression bombs), kept out of the
        // library an app embeds; CVipsTestShim holds the libvips save calls only they use. Not a product.
        .target(name: "CVipsTestShim", dependencies: ["CVips"]),
        .target(
            name: "KotenOCRTestSupport",
            dependencies: ["KotenOCRKit", "CVipsTestShim"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "koten-ocr-bench",
            dependencies: ["KotenOCRKit", "KotenOCRTestSupport"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "KotenOCRKitTests",
            dependencies: ["KotenOCRKit", "KotenOCRTestSupport"],
            exclude: [],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
