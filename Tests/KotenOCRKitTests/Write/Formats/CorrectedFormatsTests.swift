import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import KotenOCRKit

/// A page with a proofreader's corrections (`PageResult.applying`): every format takes the corrected text, a line
/// marked as not text is left out, an added line is in; PAGE and ALTO keep the engine's reading beside the
/// corrected one and still validate against their schemas; JSON keeps `modelText`.
@Suite("Output formats: corrected pages")
struct CorrectedFormatsTests {
    typealias Edge = FormatEdgeCaseTests

    /// Four lines read: 氨送子 (for 気送子), 円商形 (for 円筒形), junk, and a ruby line over the first.
    static func read() -> PageResult {
        var ruby = Edge.line(3, "きそうし", characters: "きそうし".map { (String($0), 0.9) })
        ruby.kind = "ruby"
        ruby.annotates = PageResult.RubyTarget(line: 0, start: 0, end: 3)
        return Edge.page([
            Edge.line(0, "氨送子", characters: [("氨", 0.41), ("送", 0.95), ("子", 0.97)]),
            Edge.line(1, "円商形", characters: [("円", 0.98), ("商", 0.52), ("形", 0.99)]),
            Edge.line(2, "ノ:;", characters: [("ノ", 0.2), (":", 0.3), (";", 0.2)]),
            ruby,
        ])
    }

    static let corrections = PageCorrections(lines: [
        .read(index: 3, text: nil),
        .read(index: 0, text: "気送子"),
        .added(PageCorrections.AddedLine(box: PageResult.Box(x: 500, y: 300, width: 200, height: 40), text: "せず", modelText: "せす")),
        .read(index: 1, text: "円筒形"),
        // line 2 (junk) left out: marked as not text
    ])

    @Test("the corrected page: lines in the corrections' order, texts corrected, the junk out, the added line in, ruby following its line")
    func applying() throws {
        let page = try Self.read().applying(Self.corrections)
        #expect(page.lines.map(\.text) == ["きそうし", "気送子", "せず", "円筒形"])
        #expect(page.lines.map(\.readingOrder) == [0, 1, 2, 3])
        #expect(page.lines.map(\.modelText) == [nil, "氨送子", "せす", "円商形"])
        #expect(page.lines[2].added == true && page.lines[2].characters.isEmpty)
        #expect(page.lines[0].annotates == PageResult.RubyTarget(line: 1, start: 0, end: 3))
        #expect(page.text == "気送子\nせず\n円筒形")
        // Unchanged: the same page; a line the reading does not have: refused.
        #expect(try Self.read().applying(.unchanged(lineCount: 4)) == Self.read())
        #expect(throws: PageCorrectionsError.self) { try Self.read().applying(PageCorrections(lines: [.read(index: 4, text: "x")])) }
        // Its body line left out, a ruby line goes with it.
        let orphan = try Self.read().applying(PageCorrections(lines: [.read(index: 1, text: nil), .read(index: 3, text: nil)]))
        #expect(orphan.lines.map(\.text) == ["円商形"] && orphan.text == "円商形")
    }

    @Test("txt, hOCR and html take the corrected text; PAGE has both readings (index 1 corrected, 2 the engine's), ALTO the engine's as ALTERNATIVE; both validate")
    func formats() throws {
        let page = try Self.read().applying(Self.corrections)
        let dir = try TestPaths.temporaryDirectory("format-corrected")
        let txt = String(decoding: try ResultFormat.txt.render(page), as: UTF8.self)
        #expect(txt == "気送子\nせず\n円筒形\n")
        let hocr = String(decoding: try ResultFormat.hocr.render(page), as: UTF8.self)
        #expect(hocr.contains("気送子") && hocr.contains("せず") && !hocr.contains("氨送子") && !hocr.contains("ノ"))
        let page3 = String(decoding: try ResultFormat.pageXML.render(page), as: UTF8.self)
        let pageFile = dir.appendingPathComponent("p.page.xml")
        try Data(page3.utf8).write(to: pageFile)
        let pageVerdict = try FormatCheckers.validate(pageFile, schema: "pagecontent-2019-07-15.xsd")
        #expect(pageVerdict.status == 0, "\(pageVerdict.stderr)")
        let document = try XMLDocument(data: Data(page3.utf8))
        func equivs(_ line: String) throws -> [String] {
            try document.nodes(forXPath: "//*[local-name()='TextLine'][@id='\(line)']/*[local-name()='TextEquiv']")
                .compactMap { node in
                    guard let element = node as? XMLElement else { return nil }
                    return ((try? element.nodes(forXPath: "@index"))?.first?.stringValue ?? "-") + ":" + (element.stringValue ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
                }
        }
        let l2 = try equivs("l2")
        #expect(l2 == ["1:気送子", "2:氨送子"], "\(l2)")
        #expect(try equivs("l3") == ["1:せず", "2:せす"])
        #expect(try equivs("l1") == ["-:きそうし"])
        #expect(!page3.contains("ノ"))
        let alto = String(decoding: try ResultFormat.alto.render(page), as: UTF8.self)
        let altoFile = dir.appendingPathComponent("p.alto.xml")
        try Data(alto.utf8).write(to: altoFile)
        let altoVerdict = try FormatCheckers.validate(altoFile, schema: "alto-4-3.xsd")
        #expect(altoVerdict.status == 0, "\(altoVerdict.stderr)")
        #expect(alto.contains("CONTENT=\"気送子\"") && alto.contains("<ALTERNATIVE PURPOSE=\"OCR\">氨送子</ALTERNATIVE>"))
        #expect(alto.contains("CONTENT=\"円筒形\"") && alto.contains(">円商形</ALTERNATIVE>") && !alto.contains("ノ"))
        let json = try JSONSerialization.jsonObject(with: ResultFormat.json.render(page)) as? [String: Any]
        let lines = (json?["lines"] as? [[String: Any]]) ?? []
        #expect(lines.map { $0["text"] as? String ?? "" } == ["きそうし", "気送子", "せず", "円筒形"])
        #expect(lines[1]["modelText"] as? String == "氨送子" && lines[0]["modelText"] == nil && lines[2]["added"] as? Bool == true)
    }
}
