import Foundation
import Testing

/// Locates the parity fixtures relative to this source file (not bundle resources).
enum Fixtures {
    static let parityRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // KotenOCRKitTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures/parity")

    static func data(_ url: URL) throws -> Data { try Data(contentsOf: url) }

    static func json(_ url: URL) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(contentsOf: url), options: [.fragmentsAllowed])
    }
}

/// One discovered parity case: a folder with a `raw_outputs.json`.
struct ParityCase: Sendable, CustomTestStringConvertible, CustomStringConvertible {
    let mode: String   // "ndl" or "koten"
    let kind: String   // "pages", "pages_reconstruction", "edge"
    let folder: String
    var url: URL { Fixtures.parityRoot.appendingPathComponent("\(mode)/\(kind)/\(folder)") }
    var description: String { "\(mode)/\(kind)/\(folder)" }
    var testDescription: String { description }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }
    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: file(name).path) }
}

/// Every folder under `ndl/{pages,pages_reconstruction,edge}` and `koten/{pages,edge}` that holds a
/// `raw_outputs.json`, sorted; a folder added later is picked up without a code change.
func discoveredCases(mode: String? = nil) -> [ParityCase] {
    let kinds: [(String, String)] = [
        ("ndl", "pages"), ("ndl", "pages_reconstruction"), ("ndl", "edge"),
        ("koten", "pages"), ("koten", "edge"),
    ]
    var cases: [ParityCase] = []
    for (m, kind) in kinds where mode == nil || mode == m {
        let dir = Fixtures.parityRoot.appendingPathComponent("\(m)/\(kind)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        for name in names.sorted() {
            let c = ParityCase(mode: m, kind: kind, folder: name)
            if c.exists("raw_outputs.json") { cases.append(c) }
        }
    }
    return cases
}
