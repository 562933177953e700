import Foundation
import Testing
@testable import KotenOCRCorpus
import KotenOCRTestSupport

/// The tests' seeded generator, `KotenOCRTestSupport`'s (visible to every file of the test module).
typealias SplitMix64 = KotenOCRTestSupport.SplitMix64

/// Shared helpers of the corpus tests: a fresh database, readings made of texts, the installed variant table.
enum CorpusFixtures {
    /// A new, empty corpus file path in a temporary folder (removed at the test process's exit).
    static func databaseURL(_ name: String = "corpus") throws -> URL {
        try TestPaths.temporaryDirectory("koten-corpus").appendingPathComponent("\(name).sqlite")
    }

    /// A vertical page (lines right to left, 60 px apart) whose lines read `texts`.
    static func reading(_ texts: [String], shift: Int = 0) -> EngineReading {
        EngineReading(width: 1000, height: 1200, lines: texts.enumerated().map { i, t in
            EngineLine(text: t, box: CorpusBox(x: 900 - i * 60 + shift, y: 100, width: 40, height: 1000),
                       polygon: [[Double(900 - i * 60), 100], [Double(940 - i * 60), 100]],
                       orientation: "vertical", confidence: 0.9)
        })
    }

    /// The Jōyō table's old forms as `scripts/setup.sh` installs them; records a failure if setup has not run.
    static func variants() throws -> VariantTable {
        let file = VariantTable.installedFile(under: TestPaths.packageRoot)
        try #require(FileManager.default.fileExists(atPath: file.path), "\(file.path) missing: run scripts/setup.sh")
        return try VariantTable.load(from: file)
    }

    /// The built `koten-ocr-bench` (the corpus tests' child writer).
    static var bench: URL { TestPaths.cli.deletingLastPathComponent().appendingPathComponent("koten-ocr-bench") }
}
