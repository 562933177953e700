import Foundation
import Testing
@testable import KotenOCRKit

@Suite("Detector tiles: a map too large for one run is read in tiles, stitched, and said so", .serialized)
struct DetectorTilingTests {
    static func detector(bound: Int?) throws -> DBDetector {
        var d = DBDetector(model: PPOCRModelFiles(directory: try TestPaths.ppocrModels().directory(for: .ppocr)).detector, maxSide: 1920)
        d.runElementsBound = bound
        return d
    }

    static func read(_ detector: DBDetector, diagnostics: RunDiagnostics? = nil) async throws -> PageResult {
        var config = OCRConfiguration(mode: .ppocr, models: try TestPaths.ppocrModels(), tuneAllocator: false, watchMemoryPressure: false)
        config.stages[.ppocr] = StageOverrides(detector: detector)
        return try await KotenOCR(configuration: config, diagnostics: diagnostics).read(TestPaths.image("ndlocr-lite-rs/scaned0.png"))
    }

    @Test("scaned0 at 1920 in 640×512 tiles reads as in one run; the JSON and the diagnostics say it was tiled")
    func tiledEqualsWhole() async throws {
        let whole = try await Self.read(try Self.detector(bound: Int.max))
        let run = RunDiagnostics(store: nil)
        let tiled = try await Self.read(try Self.detector(bound: 3 * 640 * 512), diagnostics: run)
        #expect(whole.detector?.tiled == false && whole.detector?.passes.map(\.tiles) == [1])
        let pass = try #require(tiled.detector?.passes.first)
        #expect(tiled.detector?.tiled == true && pass.tiles >= 3 && pass.width == 1920 && pass.height == 512, "\(pass)")
        // The same lines (taken top to bottom: the XY-cut's order of touching boxes may differ), boxes within a
        // few pixels (the stitched map keeps 8 bits per pixel and a tile sees less context near its edges), the
        // same text up to white space (the recogniser's 　 flips with a pixel of crop).
        func byPosition(_ page: PageResult) -> [PageResult.TextLine] { page.lines.sorted { ($0.box.y, $0.box.x) < ($1.box.y, $1.box.x) } }
        let a = byPosition(tiled), b = byPosition(whole)
        #expect(a.map { withoutWhitespace($0.text) } == b.map { withoutWhitespace($0.text) })
        for (a, b) in zip(a, b) {
            #expect(abs(a.box.x - b.box.x) <= 3 && abs(a.box.y - b.box.y) <= 3 && abs(a.box.width - b.box.width) <= 3
                    && abs(a.box.height - b.box.height) <= 3, "\(a.box) vs \(b.box)")
        }
        let json = String(decoding: try ResultFormat.json.render(tiled), as: UTF8.self)
        #expect(json.contains("\"tiled\" : true"))
        let payload = try await run.finish()
        let entry = try #require(payload.pages.tiled?.first)
        #expect(entry.tiles == pass.tiles && entry.page == 1 && entry.path.hasSuffix("scaned0.png"))
    }
}
