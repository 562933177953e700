import Foundation
import Testing
@testable import KotenOCRKit

@Suite("Atomic file writes")
struct AtomicFileTests {
    @Test("a result whose name nearly fills the 255-byte limit is written; its temporary name still fits")
    func longName() throws {
        let folder = try TestPaths.temporaryDirectory()
        let stem = String(repeating: "ページ", count: 26) + "a"  // 26 × 9 + 1 = 235 bytes
        let target = folder.appendingPathComponent(stem + ".json")
        try AtomicFile.write("{}", to: target)
        #expect(try String(contentsOf: target, encoding: .utf8) == "{}")
        let prefix = AtomicFile.temporaryPrefix(for: target.lastPathComponent)
        #expect(prefix.utf8.count <= 245)
        #expect(prefix.hasPrefix(".ページ"))
        // A temporary file a killed writer left behind for it is found and removed, and only that one.
        let stale = folder.appendingPathComponent(prefix + "123")
        try Data().write(to: stale)
        let other = folder.appendingPathComponent(AtomicFile.temporaryPrefix(for: "other.json") + "9")
        try Data().write(to: other)
        #expect(AtomicFile.removeStaleTemporaries(for: [target]).map(\.lastPathComponent) == [stale.lastPathComponent])
        #expect(FileManager.default.fileExists(atPath: other.path))
        #expect(AtomicFile.temporaryPrefix(for: "a.txt") == ".a.txt.tmp-")
    }
}
