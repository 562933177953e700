import Foundation
import Testing
@testable import KotenOCRKit

/// The XML formats of pages the real pages may not show: no lines, a line with spaces, a line whose text NDL's
/// clean-up changed after recognition (its characters do not spell it), an empty line, an astral character.
@Suite("Output formats: edge cases")
struct FormatEdgeCaseTests {
    static func line(_ order: Int, _ text: String, characters: [(String, Float)], vertical: Bool = false) -> PageResult.TextLine {
        let box = PageResult.Box(x: 10 + order * 60, y: 10, width: vertical ? 40 : 300, height: vertical ? 300 : 40)
        return PageResult.TextLine(readingOrder: order, text: text,
                                   confidence: characters.isEmpty ? nil : characters.map(\.1).reduce(0, +) / Float(characters.count),
                                   characters: characters.map { .init(text: $0.0, confidence: $0.1) },
                                   orientation: vertical ? "vertical" : "horizontal", detectionScore: 0.9, box: box,
                                   polygon: [[Double(box.x), Double(box.y)], [Double(box.x + box.width), Double(box.y + 2)],
                                             [Double(box.x + box.width), Double(box.y + box.height)], [Double(box.x), Double(box.y + box.height)]])
    }

    static func page(_ lines: [PageResult.TextLine]) -> PageResult {
        PageResult(source: .init(path: "/in/a \"quoted\" <name>.png", page: 2, pageCount: 3, width: 800, height: 400, exifOrientation: 1),
                   mode: .ppocr, models: [], orientation: lines.isEmpty ? "none" : "horizontal", lines: lines)
    }

    static let pages: [(String, PageResult)] = [
        ("no lines", page([])),
        ("mixed", page([
            line(0, "Page 12 of", characters: "Page 12 of".map { (String($0), 0.9) }),
            line(1, "曰く、", characters: [("日", 0.4), ("く", 0.9)]),   // text changed after recognition
            line(2, "", characters: []),
            line(3, "𛀁と𠀋", characters: [("𛀁", 0.3), ("と", 0.99), ("𠀋", 0.8)], vertical: true),
        ])),
    ]

    @Test("ALTO, PAGE and hOCR of every edge page validate", arguments: pages.map(\.0))
    func valid(name: String) throws {
        let page = try #require(Self.pages.first { $0.0 == name }).1
        let dir = try TestPaths.temporaryDirectory("format-edges")
        for (format, check) in [(ResultFormat.alto, "alto-4-3.xsd"), (.pageXML, "pagecontent-2019-07-15.xsd"), (.hocr, "")] {
            let file = dir.appendingPathComponent(format.fileName(stem: "page"))
            try format.render(page).write(to: file)
            let verdict = check.isEmpty ? try FormatCheckers.checkHOCR(file) : try FormatCheckers.validate(file, schema: check)
            #expect(verdict.status == 0, "\(format.rawValue) of \(name): \(verdict.stdout)\(verdict.stderr)")
        }
    }

    @Test("words and glyphs: a line with spaces has one word each, a changed text keeps only the line's confidence")
    func words() throws {
        let page = try #require(Self.pages.last).1
        let alto = String(decoding: try ResultFormat.alto.render(page), as: UTF8.self)
        #expect(alto.contains("CONTENT=\"Page\"") && alto.contains("CONTENT=\"12\"") && alto.contains("<SP"))
        #expect(alto.contains("CONTENT=\"曰く、\"") && !alto.contains("CONTENT=\"日\""))
        #expect(alto.contains("CONTENT=\"𛀁\" GC=\"0.3\""))
        let hocr = String(decoding: try ResultFormat.hocr.render(page), as: UTF8.self)
        #expect(hocr.contains(">Page</span> <span") && hocr.contains("x_confs 40 90") == false)
    }
}

/// The formats in the NDL modes, on the stand-in models (random text, NDL's page tree and string clean-up).
@Suite("Output formats in the ndl and koten modes")
struct FormatModesTests {
    @Test("the vertical page in ndl and koten: ALTO, PAGE, hOCR validate, the PDF passes qpdf and reads back its text",
          arguments: ["ndl", "koten"])
    func modes(mode: String) throws {
        let out = try TestPaths.temporaryDirectory("formats-\(mode)")
        let page = TestPaths.image("ndlocr-lite/tategaki2026-04-24-094138.png")
        let run = try runProcess(TestPaths.cli, ["--mode", mode, "--models", try ModeFixtures.standIns().path, "-q", "-o", out.path,
                                                 "-f", "json,alto,page,hocr,pdf,viz,html", page.path])
        #expect(run.status == 0, "\(run.stderr)")
        let stem = out.appendingPathComponent("tategaki2026-04-24-094138")
        let result = try JSONDecoder().decode(PageResult.self, from: Data(contentsOf: stem.appendingPathExtension("json")))
        #expect(try FormatCheckers.validate(stem.appendingPathExtension("alto.xml"), schema: "alto-4-3.xsd").status == 0)
        #expect(try FormatCheckers.validate(stem.appendingPathExtension("page.xml"), schema: "pagecontent-2019-07-15.xsd").status == 0)
        #expect(try FormatCheckers.checkHOCR(stem.appendingPathExtension("hocr")).status == 0)
        let pdf = stem.appendingPathExtension("pdf")
        #expect(try FormatCheckers.run("qpdf", ["--check", pdf.path]).status == 0)
        let cer = characterErrorRate(withoutWhitespace(try pdfText(pdf)), reference: withoutWhitespace(result.text))
        #expect(cer <= 0.01, "CER \(cer)")
    }
}
