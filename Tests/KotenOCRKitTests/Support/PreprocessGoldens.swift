import Foundation
import Testing
@testable import KotenOCRKit

/// The preprocessing goldens (parity README §3.6): manifests, their source pages and golden PNGs.
enum PreprocessGoldens {
    static func folder(_ relative: String) -> URL { Fixtures.parityRoot.appendingPathComponent(relative) }

    static func manifest(_ relative: String) throws -> [String: Any] {
        try JSONAccess.dict(Fixtures.json(folder(relative).appendingPathComponent("manifest.json")), "\(relative)/manifest.json")
    }

    /// A source image named in a manifest, looked up in every folder of Tests/Fixtures/images.
    static func sourceURL(_ name: String) throws -> URL {
        let dirs = (try? FileManager.default.contentsOfDirectory(atPath: TestPaths.images.path)) ?? []
        for dir in dirs.sorted() {
            let url = TestPaths.images.appendingPathComponent(dir).appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: url.path) { return url }
        }
        throw JSONAccess.Missing(what: "source image \(name) under \(TestPaths.images.path)")
    }

    /// Decodes through the production path (libvips, RGB, alpha dropped).
    static func decode(_ url: URL) throws -> RGBImage { try ImageSource(url: url).decode() }

    /// Source pages decoded once per test.
    final class PageCache {
        private var pages: [String: RGBImage] = [:]
        func page(_ name: String) throws -> RGBImage {
            if let page = pages[name] { return page }
            let page = try PreprocessGoldens.decode(sourceURL(name))
            pages[name] = page
            return page
        }
    }

    /// A 256-entry u8 → float32 table from a manifest (numbers are exact float32 values).
    static func floats(_ value: Any?) throws -> [Float] {
        try JSONAccess.flatNumbers(value).map { Float($0.doubleValue) }
    }

    /// SHA-256 of a float32 tensor's little-endian bytes.
    static func sha256(_ tensor: Tensor) -> String {
        SHA256.hex(float32LittleEndian: tensor.floats ?? [])
    }
}

/// Differences of one resized image against its golden, in u8 levels over all pixels and channels.
struct ImageDifference {
    let sameSize: Bool
    let maxAbs: Int
    let meanAbs: Double
    var identical: Bool { sameSize && maxAbs == 0 }

    init(_ a: RGBImage, _ b: RGBImage) {
        sameSize = a.width == b.width && a.height == b.height
        guard sameSize, !a.pixels.isEmpty else { maxAbs = sameSize ? 0 : 255; meanAbs = sameSize ? 0 : 255; return }
        var m = 0, total = 0
        for i in 0..<a.pixels.count {
            let d = abs(Int(a.pixels[i]) - Int(b.pixels[i]))
            m = max(m, d)
            total += d
        }
        maxAbs = m
        meanAbs = Double(total) / Double(a.pixels.count)
    }
}

/// Collects per-file results of one preprocessing stage and prints one summary line.
struct StageTally {
    let stage: String
    private(set) var files = 0
    private(set) var identical = 0
    private(set) var maxAbs = 0
    private(set) var meanSum = 0.0
    private(set) var tensorMatches = 0

    init(_ stage: String) { self.stage = stage }

    mutating func add(_ d: ImageDifference, tensorMatch: Bool) {
        files += 1
        if d.identical { identical += 1 }
        if tensorMatch { tensorMatches += 1 }
        maxAbs = max(maxAbs, d.maxAbs)
        meanSum += d.meanAbs
    }

    func report() {
        let mean = files > 0 ? meanSum / Double(files) : 0
        print("PREPROCESS \(stage): \(identical)/\(files) identical (max \(maxAbs), mean \(String(format: "%.6f", mean))); "
              + "tensor SHA-256 \(tensorMatches)/\(files) match")
    }
}
