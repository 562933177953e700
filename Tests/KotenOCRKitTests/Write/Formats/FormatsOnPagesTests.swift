import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import KotenOCRKit

/// Every new format of real pages read by the CLI (ppocr, the real models), checked by the tools people load them
/// with: a horizontal PNG, the vertical page (tategaki), and a JPEG (passed through into the PDF).
@Suite("Output formats of real pages")
struct FormatsOnPagesTests {
    static let pages = ["ndlocr-lite-rs/scaned0.png", "ndlocr-lite/tategaki2026-04-24-094138.png",
                        "ndlocr-lite/digidepo_2531162_0024.jpg"]

    /// One CLI run over `pages` into a folder, in every format (shared by the tests below).
    static let run: Result<URL, Error> = Result {
        let folder = try TestPaths.temporaryDirectory("formats-pages")
        let result = try runProcess(TestPaths.cli, ["--mode", "ppocr", "--models", try TestPaths.ppocrModels().root.path, "-q",
                                                    "-o", folder.path, "-f", "txt,json,alto,page,hocr,pdf,viz,html"]
                                    + pages.map { TestPaths.image($0).path })
        guard result.status == 0 else { throw Failed(description: "koten-ocr exited \(result.status): \(result.stderr)") }
        return folder
    }

    struct Failed: Error, CustomStringConvertible { let description: String }

    /// The output file of `page` ending in `ending`, and the page's JSON result.
    static func output(_ page: String, _ ending: String) throws -> (file: URL, result: PageResult) {
        let folder = try run.get()
        let stem = ((page as NSString).lastPathComponent as NSString).deletingPathExtension
        let json = try Data(contentsOf: folder.appendingPathComponent(stem + ".json"))
        return (folder.appendingPathComponent(stem + ending), try JSONDecoder().decode(PageResult.self, from: json))
    }

    static func xml(_ file: URL) throws -> XMLDocument { try XMLDocument(contentsOf: file, options: []) }

    /// The attribute `name` of `element` (read from `attributes`: on Linux, `attribute(forName:)` finds none on an
    /// element in a default namespace).
    static func attribute(_ element: XMLElement?, _ name: String) -> String? {
        element?.attributes?.first { $0.name == name }?.stringValue
    }

    @Test("ALTO validates against ALTO 4.3's XSD: every line in reading order, its direction, its glyphs' confidences",
          arguments: pages)
    func alto(page: String) throws {
        let (file, result) = try Self.output(page, ".alto.xml")
        let verdict = try FormatCheckers.validate(file, schema: "alto-4-3.xsd")
        #expect(verdict.status == 0, "\(verdict.stderr)")
        let document = try Self.xml(file)
        let lines = try document.nodes(forXPath: "//*[local-name()='TextLine']").compactMap { $0 as? XMLElement }
        #expect(lines.count == result.lines.count)
        let order = try document.nodes(forXPath: "//*[local-name()='ElementRef']").compactMap { Self.attribute(($0 as? XMLElement), "REF") }
        #expect(order == lines.compactMap { Self.attribute($0, "ID") })
        for (element, line) in zip(lines, result.lines) {
            #expect(Self.attribute(element, "BASEDIRECTION") == (line.orientation == "vertical" ? "ttb" : "ltr"))
            let strings = (element.children ?? []).compactMap { $0 as? XMLElement }.filter { $0.name == "String" }
            #expect(strings.compactMap { Self.attribute($0, "CONTENT") }.joined()
                    == line.text.filter { !$0.isWhitespace })
            let glyphs = strings.flatMap { ($0.children ?? []).compactMap { $0 as? XMLElement } }
                .compactMap { Self.attribute($0, "GC").flatMap(Double.init) }
            let expected = line.characters.filter { !$0.text.allSatisfy(\.isWhitespace) }.map { Double($0.confidence) }
            if glyphs.count == expected.count {
                #expect(zip(glyphs, expected).allSatisfy { abs($0 - $1) < 1e-4 })
            } else {
                Issue.record("line \(line.readingOrder): \(glyphs.count) glyph confidences for \(expected.count) characters")
            }
        }
    }

    @Test("PAGE validates against PAGE 2019-07-15's XSD: every line in reading order, its text, direction and confidence",
          arguments: pages)
    func pageXML(page: String) throws {
        let (file, result) = try Self.output(page, ".page.xml")
        let verdict = try FormatCheckers.validate(file, schema: "pagecontent-2019-07-15.xsd")
        #expect(verdict.status == 0, "\(verdict.stderr)")
        let lines = try Self.xml(file).nodes(forXPath: "//*[local-name()='TextLine']").compactMap { $0 as? XMLElement }
        #expect(lines.count == result.lines.count)
        for (index, (element, line)) in zip(lines, result.lines).enumerated() {
            #expect(Self.attribute(element, "custom") == "readingOrder {index:\(index);}")
            #expect(Self.attribute(element, "readingDirection")
                    == (line.orientation == "vertical" ? "top-to-bottom" : "left-to-right"))
            let equiv = (element.children ?? []).compactMap { $0 as? XMLElement }.last { $0.name == "TextEquiv" }
            #expect(equiv?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines) == line.text)
            let conf = Self.attribute(equiv, "conf").flatMap(Double.init)
            #expect(abs((conf ?? -1) - Double(line.confidence ?? -1)) < 1e-4)
        }
    }

    @Test("hOCR passes hocr-spec; its lines are the page's lines in reading order, vertical ones in vertical-rl",
          arguments: pages)
    func hocr(page: String) throws {
        let (file, result) = try Self.output(page, ".hocr")
        let verdict = try FormatCheckers.checkHOCR(file)
        #expect(verdict.status == 0 && verdict.stdout.contains("Document is valid"), "\(verdict.stdout)\(verdict.stderr)")
        let document = try XMLDocument(contentsOf: file, options: [.nodePreserveWhitespace])
        let lines = try document.nodes(forXPath: "//*[@class='ocr_line']").compactMap { $0 as? XMLElement }
        #expect(lines.map { $0.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "" } == result.lines.map(\.text))
        for (element, line) in zip(lines, result.lines) {
            #expect((Self.attribute(element, "style") == "writing-mode: vertical-rl") == (line.orientation == "vertical"))
            let b = line.box
            #expect(Self.attribute(element, "title")?.hasPrefix("bbox \(b.x) \(b.y) \(b.x + b.width) \(b.y + b.height)") == true)
        }
    }

    @Test("PDF: qpdf --check passes, the image keeps its pixels (a JPEG passed through), pdftotext reads the text in reading order, its word boxes inside the line boxes",
          arguments: pages)
    func pdf(page: String) throws {
        let (file, result) = try Self.output(page, ".pdf")
        let check = try FormatCheckers.run("qpdf", ["--check", file.path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let images = try pdfImages(file)
        #expect(images.count == 1)
        #expect(images.first?.width == result.source.width && images.first?.height == result.source.height)
        #expect(images.first?.encoding == (page.hasSuffix(".jpg") ? "jpeg" : "image"))
        let text = withoutWhitespace(try pdfText(file))
        let cer = characterErrorRate(text, reference: withoutWhitespace(result.text))
        #expect(cer <= 0.01, "CER \(cer): \(text)")
        let source = try ImageSource(url: TestPaths.image(page))
        let dpi = try source.declaredDPI() ?? (SearchablePDF.defaultDPI, SearchablePDF.defaultDPI)
        let scale = (x: 72 / dpi.x, y: 72 / dpi.y)
        let words = try pdfWordBoxes(file).first ?? []
        #expect(!words.isEmpty)
        for word in words {
            let inside = result.lines.contains { line in
                let b = line.box, slack = 1.0
                return word.x0 >= Double(b.x) * scale.x - slack && word.x1 <= Double(b.x + b.width) * scale.x + slack
                    && word.y0 >= Double(b.y) * scale.y - slack && word.y1 <= Double(b.y + b.height) * scale.y + slack
            }
            #expect(inside, "\(word) lies in no line's box")
        }
    }

    @Test("viz: the page in its source's encoding with the first line outlined in its orientation's colour",
          arguments: pages)
    func viz(page: String) throws {
        let jpeg = page.hasSuffix(".jpg")
        let (file, result) = try Self.output(page, jpeg ? ".viz.jpg" : ".viz.png")
        let picture = try ImageSource(url: file)
        #expect(picture.loader == (jpeg ? "jpegload" : "pngload"))
        let scale = Double(picture.width) / Double(result.source.width)
        #expect(max(picture.width, picture.height) <= PageViz.maxSide)
        #expect(abs(Double(picture.height) - Double(result.source.height) * scale) <= 1)
        let line = try #require(result.lines.first)
        let corners = line.polygon
        let x = Int(((corners[0][0] + corners[3][0]) / 2 * scale).rounded()), y = Int(((corners[0][1] + corners[3][1]) / 2 * scale).rounded())
        let pixels = try picture.decode()
        let i = (y * pixels.width + x) * 3
        let colour = line.orientation == "vertical" ? PageViz.vertical : PageViz.horizontal
        let distance = abs(Double(pixels.pixels[i]) - colour.red) + abs(Double(pixels.pixels[i + 1]) - colour.green)
            + abs(Double(pixels.pixels[i + 2]) - colour.blue)
        #expect(distance < 60, "pixel at (\(x), \(y)) is \(pixels.pixels[i...(i + 2)])")
    }

    @Test("html in headless Chromium: each line's text lies on its box and is what is found there; a screenshot is kept",
          arguments: pages)
    func html(page: String) throws {
        let (file, result) = try Self.output(page, ".html")
        let lines = try HeadlessBrowser.lines(of: file)
        #expect(lines.count == result.lines.count)
        for (shown, line) in zip(lines, result.lines) {
            #expect(shown.text == line.text)
            #expect(shown.hit == shown.id, "the point at the middle of \(shown.id)'s box shows \(shown.hit ?? "nothing")")
            if line.text.isEmpty { continue }  // no text, no place to check
            let inside = shown.textRect.left >= shown.box.left - 2 && shown.textRect.right <= shown.box.right + 2
                && shown.textRect.top >= shown.box.top - 2 && shown.textRect.bottom <= shown.box.bottom + 2
            #expect(inside, "\(shown.id): text at \(shown.textRect), box \(shown.box)")
        }
        let shot = FormatCheckers.artifacts.appendingPathComponent(file.deletingPathExtension().lastPathComponent + ".html.png")
        try HeadlessBrowser.screenshot(of: file, to: shot)
        let picture = try ImageSource(url: shot)
        #expect(picture.width > 0)
        print("html screenshot: \(shot.path)")
    }
}
