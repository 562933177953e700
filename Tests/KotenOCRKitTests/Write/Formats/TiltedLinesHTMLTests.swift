import Foundation
import KotenOCRTestSupport
import Testing
@testable import KotenOCRKit

/// html's overlay of tilted lines (issue 25): each line's text is turned to the line's angle, so that what a
/// selection or a search highlights lies on the line's pixels. The page is rendered here (libvips' text, turned:
/// `ImageWriter.saveTextPage`) with one line at +5° and one at −8°, read by the CLI (ppocr, real models), and its
/// html opened in headless Chromium (`HeadlessBrowser`); the screenshot, the page's text selected, is kept in
/// `.build/test-artifacts/formats`.
@Suite("html of tilted lines")
struct TiltedLinesHTMLTests {
    static let font = "Noto Sans CJK JP 40"
    static let texts = [ImageWriter.PlacedText("傾いた見出しの文字を選んで検索する", centre: (x: 700, y: 230), degrees: 5),
                        ImageWriter.PlacedText("逆向きに傾いた二行目の本文もある", centre: (x: 700, y: 520), degrees: -8)]

    @Test("in headless Chromium each character's selection lies on its line's pixels, at +5° and −8°; a screenshot is kept")
    func selectionOnTheLine() throws {
        let folder = try TestPaths.temporaryDirectory("tilted-html")
        let page = folder.appendingPathComponent("tilted.png"), output = folder.appendingPathComponent("out")
        try ImageWriter.saveTextPage(width: 1400, height: 760, texts: Self.texts, font: Self.font, to: page)
        let run = try runCLI(try BatchFixtures.cliArguments(["-q", "-f", "json,html", "-o", output.path, page.path]))
        try #require(run.status == 0, "\(run.stderr)")
        let file = output.appendingPathComponent("tilted.html")
        let result = try JSONDecoder().decode(PageResult.self, from: Data(contentsOf: output.appendingPathComponent("tilted.json")))
        try #require(result.textLines.count == 2, "lines read: \(result.textLines.map(\.text))")
        let lines = try HeadlessBrowser.lines(of: file)
        try #require(lines.count == 2)
        let pixels = try ImageSource(url: page).decode()
        for (shown, text) in zip(lines, Self.texts) {
            #expect(shown.characters.count == shown.text.count && !shown.characters.isEmpty)
            let angle = text.degrees * .pi / 180
            for (index, c) in shown.characters.enumerated() {
                let x = (c.left + c.right) / 2 - text.centre.x, y = (c.top + c.bottom) / 2 - text.centre.y
                // Across the rendered line from its middle, and along it: within half its height, within its length.
                let across = -x * sin(angle) + y * cos(angle), along = x * cos(angle) + y * sin(angle)
                #expect(abs(across) < 20, "\(shown.id) character \(index): \(Int(across)) px off the line (\(c))")
                #expect(abs(along) < 380, "\(shown.id) character \(index): \(Int(along)) px along the line (\(c))")
                #expect(Self.inkFraction(pixels, c) > 0.05, "\(shown.id) character \(index): no ink under \(c)")
            }
        }
        let html = try String(contentsOf: file, encoding: .utf8)
        #expect(html.contains("transform:rotate(") && html.contains("deg);"))
        let shot = FormatCheckers.artifacts.appendingPathComponent("tilted-lines.html.png")
        try HeadlessBrowser.screenshot(of: file, to: shot, selectingText: true)
        print("html screenshot of tilted lines: \(shot.path)")
    }

    /// The share of dark pixels (any channel < 128) of `image` inside `rect` (page pixels).
    static func inkFraction(_ image: RGBImage, _ rect: HeadlessBrowser.Rect) -> Double {
        let x0 = max(0, Int(rect.left)), x1 = min(image.width, Int(rect.right.rounded(.up)))
        let y0 = max(0, Int(rect.top)), y1 = min(image.height, Int(rect.bottom.rounded(.up)))
        guard x1 > x0, y1 > y0 else { return 0 }
        var dark = 0
        for y in y0..<y1 {
            for x in x0..<x1 where image.pixels[(y * image.width + x) * 3] < 128 { dark += 1 }
        }
        return Double(dark) / Double((x1 - x0) * (y1 - y0))
    }

    @Test("the overlay's place: a tilted line's own rectangle, centred on it, turned to its angle, horizontal or vertical")
    func placement() {
        func line(_ corners: [(Double, Double)], vertical: Bool) -> FormatLine {
            let xs = corners.map(\.0), ys = corners.map(\.1)
            let box = PageResult.Box(x: Int(xs.min() ?? 0), y: Int(ys.min() ?? 0), width: Int((xs.max() ?? 0) - (xs.min() ?? 0)),
                                     height: Int((ys.max() ?? 0) - (ys.min() ?? 0)))
            return FormatLine(PageResult.TextLine(readingOrder: 0, text: "文字", characters: [],
                                                  orientation: vertical ? "vertical" : "horizontal", detectionScore: 1,
                                                  box: box, polygon: corners.map { [$0.0, $0.1] }), number: 1)
        }
        // A 200×40 line turned 10° clockwise about (300, 200); a 40×200 vertical one turned −6° about (100, 300).
        func turned(_ w: Double, _ h: Double, _ degrees: Double, about c: (Double, Double)) -> [(Double, Double)] {
            let a = degrees * .pi / 180
            return [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)].map { p in
                (c.0 + p.0 * cos(a) - p.1 * sin(a), c.1 + p.0 * sin(a) + p.1 * cos(a))
            }
        }
        let h = PageHTML.Placement(line(turned(200, 40, 10, about: (300, 200)), vertical: false))
        #expect(abs(h.degrees - 10) < 0.01 && abs(h.width - 200) < 0.01 && abs(h.height - 40) < 0.01)
        #expect(abs(h.left - 200) < 0.01 && abs(h.top - 180) < 0.01 && abs(h.thickness - 40) < 0.01)
        let v = PageHTML.Placement(line(turned(40, 200, -6, about: (100, 300)), vertical: true))
        #expect(abs(v.degrees + 6) < 0.01 && abs(v.width - 40) < 0.01 && abs(v.height - 200) < 0.01)
        #expect(abs(v.left - 80) < 0.01 && abs(v.top - 200) < 0.01 && abs(v.thickness - 40) < 0.01)
        let level = PageHTML.Placement(line([(10, 20), (110, 20), (110, 50), (10, 50)], vertical: false))
        #expect(level == PageHTML.Placement(line([(10, 20), (110, 20), (110, 50), (10, 50)], vertical: false)))
        #expect(level.degrees == 0 && level.left == 10 && level.top == 20 && level.width == 100 && level.height == 30)
    }
}
