// swift-tools-version:6.0
// KotenOCR: OCR for Japanese classical books and modern print on ONNX Runtime, memory-first.
// Native dependencies are found through pkg-config, as Swift packages find system libraries: libvips (`vips`,
// Debian's libvips-dev) and ONNX Runtime (`libonnxruntime`); `scripts/setup.sh` installs both
// (docs/native-dependencies.md). No unsafe flags and no path into a checkout, so a package can depend on
// KotenOCRKit by version.
import PackageDescription

let package = Package(
    name: "KotenOCR",
    // No Apple platform is declared: only Linux (Debian 12, x86_64) is built and tested. Neither ONNX Runtime nor
    // libvips is provided here for iOS, and no macOS build has been made (README, "Platforms").
    products: [
        .library(name: "KotenOCRKit", targets: ["KotenOCRKit"]),
        .executable(name: "koten-ocr", targets: ["koten-ocr"]),
    ],
    targets: [
        // ONNX Runtime C API through pkg-config (`libonnxruntime.pc`: setup.sh writes one under /usr/local;
        // ONNX Runtime's own install and Homebrew's write the same); found at run time by the dynamic linker.
        .systemLibrary(name: "CONNXRuntime", pkgConfig: "libonnxruntime"),
        // libvips through pkg-config; CVipsShim wraps its variadic calls (Swift cannot call C variadics).
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        // libtiff (a dependency of libvips-dev) for the pages of a TIFF: which directories are pages and which a
        // pyramid's reduced levels (libvips counts every directory).
        .systemLibrary(name: "CTIFF", pkgConfig: "libtiff-4", providers: [.apt(["libtiff-dev"])]),
        .target(name: "CVipsShim", dependencies: ["CVips", "CTIFF"]),
        // libcurl through pkg-config (Debian's libcurl4-openssl-dev): the IIIF wing's HTTP(S) client, never KotenOCRKit's.
        // CCurlShim wraps its variadic calls (curl_easy_setopt, curl_easy_getinfo).
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "CCurlShim", dependencies: ["CCurl"]),
        // glibc allocator policy (fixed mmap threshold, trimming), in-use byte counts, clean library pages unmapped.
        .target(name: "CAllocator"),
        // Run marker and fatal-signal crash record: async-signal-safe C (docs/diagnostics.md).
        .target(name: "CCrashRecord"),
        // Inner loops a debug build of Swift makes slow (generic SIMD and min/max called per element): the CTC
        // recogniser's best and runner-up classes per step, OpenCV's bilinear row passes. C, vectorised where it pays.
        .target(name: "CKernels"),
        .target(
            name: "KotenOCRKit",
            dependencies: ["CONNXRuntime", "CVipsShim", "CAllocator", "CCrashRecord", "CKernels"],
            exclude: ["ReferenceSemantics/README.md"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // IIIF in and out (docs/iiif.md): manifests read, canvases' images fetched to files (libcurl), the
        // run's manifest written. A library of this package, not a product: KotenOCRKit does not depend on it.
        .target(
            name: "KotenOCRIIIF",
            dependencies: ["KotenOCRKit", "CCurlShim"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The crash of the CLI's KOTEN_OCR_TEST_CRASH hook (docs/diagnostics.md, "Test hooks"); not in the library.
        .target(name: "CTestCrash"),
        // `koten-ocr serve` (docs/serve.md): libmicrohttpd (Debian's libmicrohttpd-dev) behind one seam,
        // CMicroHTTPDShim for its variadic calls; libzip (libzip-dev) for zip uploads and result zips. Not a
        // product: KotenOCRKit never depends on them.
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .target(name: "CMicroHTTPDShim", dependencies: ["CMicroHTTPD"]),
        .systemLibrary(name: "CLibZip", pkgConfig: "libzip", providers: [.apt(["libzip-dev"])]),
        .target(
            name: "KotenOCRServer",
            dependencies: ["KotenOCRKit", "KotenOCRIIIF", "KotenOCRCorpus", "CMicroHTTPDShim", "CLibZip"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The corpus wing (docs/corpus.md): the engine's readings, the users' corrections with their history, and
        // the search index, in one SQLite database (Debian's libsqlite3-dev, pkg-config `sqlite3`) behind one
        // seam (SQLite/SQLiteConnection.swift). Not a product: KotenOCRKit never depends on it.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(
            name: "KotenOCRCorpus",
            dependencies: ["CSQLite"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "koten-ocr",
            dependencies: ["KotenOCRKit", "KotenOCRServer", "KotenOCRIIIF", "CTestCrash"],
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
            dependencies: ["KotenOCRKit", "KotenOCRTestSupport", "KotenOCRCorpus"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The fuzzing entry points (docs/reliability.md): built with `-sanitize=fuzzer -DFUZZING` by `make fuzz`,
        // libFuzzer's driver (declared by CFuzzerDriver) runs them; a plain build replays files through them.
        // Not a product.
        .target(name: "CFuzzerDriver"),
        .executableTarget(
            name: "koten-ocr-fuzz",
            dependencies: ["KotenOCRKit", "CFuzzerDriver"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "KotenOCRKitTests",
            dependencies: ["KotenOCRKit", "KotenOCRIIIF", "KotenOCRServer", "KotenOCRTestSupport", "KotenOCRCorpus"],
            exclude: [],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
