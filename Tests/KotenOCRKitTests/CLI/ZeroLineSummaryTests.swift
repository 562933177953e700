import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport

/// A page without any line is not an error, but a batch user must hear of it: one line on standard error.
@Suite("Pages without lines are named on standard error")
struct ZeroLineSummaryTests {
    @Test("a blank page among read ones: exit 0, exactly one line naming it, --quiet or not")
    func blankPageNamed() throws {
        let dir = try TestPaths.temporaryDirectory("zero-lines")
        defer { try? FileManager.default.removeItem(at: dir) }
        var white = RGBImage(width: 400, height: 200)
        for i in white.pixels.indices { white.pixels[i] = 255 }
        let blank = dir.appendingPathComponent("blank.png")
        try ImageWriter.save(white, to: blank)
        let text = try BatchFixtures.writePages(0..<1, to: dir, lines: true, name: { _ in "text.png" })[0]
        for quiet in [[], ["-q"]] {
            let run = try runCLI(try BatchFixtures.cliArguments(quiet + ["--mode", "ppocr", text.path, blank.path]))
            #expect(run.status == 0, "\(run.stderr)")
            let named = run.stderrLines.filter { $0.contains("no line found") }
            #expect(named == ["koten-ocr: \(blank.path): no line found (the page's text is empty)"], "\(run.stderr)")
            #expect(!run.stdout.isEmpty)
        }
    }
}
