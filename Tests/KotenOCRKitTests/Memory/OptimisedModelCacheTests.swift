import Foundation
import Testing
@testable import KotenOCRKit

/// `OptimisedModelCache` with the real PP-OCRv5 models and ONNX Runtime: the entries written at the first load,
/// read at the next, a damaged one passed by and written again, a replaced model given its own, none written
/// under a tight budget; the page read the same every way.
@Suite("Optimised model cache")
struct OptimisedModelCacheTests {
    static let page = TestPaths.image("ndlocr-lite-rs/scaned0.png")

    /// A copy of the PP-OCRv5 model folder (its files may be touched) and an empty cache folder.
    static func scene() throws -> (models: URL, cache: URL) {
        let root = try TestPaths.temporaryDirectory("optimised-cache")
        let models = root.appendingPathComponent("models/ppocr")
        try FileManager.default.createDirectory(at: models.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try TestPaths.ppocrModels().root.appendingPathComponent("ppocr"), to: models)
        return (models.deletingLastPathComponent(), root.appendingPathComponent("cache"))
    }

    /// The page's lines (text and polygon) read by a fresh engine over `models` with `cache` (nil: none).
    static func read(models: URL, cache: URL?, budget: Int? = nil) async throws -> [String] {
        var config = OCRConfiguration(mode: .ppocr, models: ModelDirectory(root: models), memoryBudgetBytes: budget)
        config.optimisedModelCache = cache
        config.watchMemoryPressure = false
        let engine = try KotenOCR(configuration: config)
        let result = try await engine.read(page)
        return result.lines.map { "\($0.text) \($0.polygon)" }
    }

    /// The cache's entries (.ort files), each with its inode: an entry written again is a new file.
    static func entries(_ cache: URL) -> [String: Int] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: cache.path)) ?? []
        return Dictionary(uniqueKeysWithValues: names.filter { $0.hasSuffix(".ort") }.map { name in
            let url = cache.appendingPathComponent(name)
            return (name, (try? FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int) ?? -1)
        })
    }

    @Test("written at the first load, read at the next; a damaged entry is passed by and written again; the page reads the same")
    func writtenThenRead() async throws {
        let (models, cache) = try Self.scene()
        let plain = try await Self.read(models: models, cache: nil)
        #expect(!plain.isEmpty)
        #expect(try await Self.read(models: models, cache: cache) == plain)
        let written = Self.entries(cache)
        #expect(written.count == 3 && written.keys.allSatisfy { $0.hasSuffix(".ort") }, "\(written.keys.sorted())")
        #expect(try await Self.read(models: models, cache: cache) == plain)
        #expect(Self.entries(cache) == written)  // read, not written again
        // Damaged entries: bytes flipped inside every entry (ONNX Runtime would load them and read every line wrong)
        // and one replaced by text. Each is passed by, the model loaded from its .onnx file, the entry written again.
        for (name, _) in written {
            let url = cache.appendingPathComponent(name)
            var bytes = try Data(contentsOf: url)
            for offset in stride(from: bytes.count / 2, to: bytes.count / 2 + 256, by: 4) { bytes[offset] ^= 0x40 }
            try bytes.write(to: url)
        }
        #expect(try await Self.read(models: models, cache: cache) == plain)
        let rewritten = Self.entries(cache)
        #expect(rewritten.count == 3 && rewritten.allSatisfy { written[$0.key] != $0.value }, "\(rewritten) after \(written)")
        let textual = try #require(rewritten.keys.sorted().first)
        try Data("not a model".utf8).write(to: cache.appendingPathComponent(textual))
        #expect(try await Self.read(models: models, cache: cache) == plain)
        #expect(Self.entries(cache).count == 3)
        #expect(Self.entries(cache).keys.allSatisfy { name in
            OptimisedModelCache(directory: cache).isWhole(cache.appendingPathComponent(name))
        })
    }

    @Test("a replaced model file gets its own entry and its old one goes, so do a removed model's; none is written under a tight budget")
    func replacedRemovedAndTight() async throws {
        let (models, cache) = try Self.scene()
        _ = try await Self.read(models: models, cache: cache)
        let before = Set(Self.entries(cache).keys)
        let recogniser = models.appendingPathComponent("ppocr/ppocrv5_rec.onnx")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: recogniser.path)
        _ = try await Self.read(models: models, cache: cache)
        let after = Set(Self.entries(cache).keys)
        #expect(after.count == 3)
        #expect(before.subtracting(after).count == 1 && after.subtracting(before).count == 1)
        // Another copy of the models is read after the first copy is deleted: the deleted files' entries go.
        let (others, _) = try Self.scene()
        try FileManager.default.removeItem(at: models)
        _ = try await Self.read(models: others, cache: cache)
        let third = Set(Self.entries(cache).keys)
        #expect(third.count == 3 && third.isDisjoint(with: after), "\(third.sorted()) after \(after.sorted())")

        let tight = cache.appendingPathComponent("tight")
        // An explicit budget below the machine's memory (above this test process's own resident memory).
        _ = try await Self.read(models: others, cache: tight, budget: ResidentReader.bytes() + 1_000_000_000)
        #expect(Self.entries(tight).isEmpty)
    }

    @Test("the checksum: every flipped bit and a moved block change it, a file's tail counts, a FIFO is no entry")
    func checksum() throws {
        let dir = try TestPaths.temporaryDirectory("optimised-checksum")
        let file = dir.appendingPathComponent("x.ort")
        var bytes = (0..<(3 << 20) + 13).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }
        try Data(bytes).write(to: file)
        let sum = try #require(OptimisedModelCache.checksum(of: file))
        #expect(sum.count == 40)
        var seen: Set<String> = [sum]
        for offset in [0, 31, 32, 1 << 20, (3 << 20) + 12] {
            bytes[offset] ^= 1
            try Data(bytes).write(to: file)
            seen.insert(try #require(OptimisedModelCache.checksum(of: file)))
            bytes[offset] ^= 1
        }
        let (i, j) = (5, 37 + (1 << 20))  // two bytes of two blocks swapped: the same bytes, in another order
        try #require(bytes[i] != bytes[j])
        bytes.swapAt(i, j)
        try Data(bytes).write(to: file)
        seen.insert(try #require(OptimisedModelCache.checksum(of: file)))
        #expect(seen.count == 7)
        let fifo = dir.appendingPathComponent("fifo.ort")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        #expect(OptimisedModelCache.checksum(of: fifo) == nil)
    }

    @Test("the command line's folder: $KOTEN_OCR_CACHE_DIR, else $XDG_CACHE_HOME/koten-ocr, else ~/.cache/koten-ocr")
    func defaultDirectory() {
        #expect(OptimisedModelCache.defaultDirectory(environment: ["KOTEN_OCR_CACHE_DIR": "/c", "XDG_CACHE_HOME": "/x", "HOME": "/h"])?.path
                == "/c/optimised-models")
        #expect(OptimisedModelCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "/x", "HOME": "/h"])?.path
                == "/x/koten-ocr/optimised-models")
        #if os(Linux)
        #expect(OptimisedModelCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "", "HOME": "/h"])?.path
                == "/h/.cache/koten-ocr/optimised-models")
        #expect(OptimisedModelCache.defaultDirectory(environment: [:]) == nil)
        #endif
    }
}
