import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport

/// A page read turned back (`PageResult.rotation`, issue 11) has its coordinates in the upright page, so the
/// formats that show the image (pdf, viz, html) show the upright page, whatever turn the file was given in.
@Suite("Formats of a page read turned back")
struct TurnedPageFormatsTests {
    /// A result of `source` (the page as given) read turned back from `rotation`, with no lines.
    static func result(_ source: ImageSource, rotation: PageRotation) -> PageResult {
        let size = rotation.uprightSize(width: source.width, height: source.height)
        return PageResult(source: .init(path: source.name, page: 1, pageCount: 1, width: size.width, height: size.height,
                                        exifOrientation: source.orientation),
                          mode: .ppocr, models: [], orientation: "none", rotation: rotation, lines: [])
    }

    /// `upright` turned clockwise as a page given in `rotation` is.
    static func given(_ upright: RGBImage, _ rotation: PageRotation) -> RGBImage {
        upright.turnedCounterClockwise(quarterTurns: -rotation.quarterTurns)
    }

    @Test("a PNG given turned: viz and html show the upright page pixel for pixel, pdf draws it upright",
          arguments: PageRotation.allCases)
    func png(_ rotation: PageRotation) throws {
        let dir = try TestPaths.temporaryDirectory("turned-formats")
        let upright = try BatchFixtures.crop(3)
        let url = dir.appendingPathComponent("page\(rotation.degrees).png")
        try ImageWriter.save(Self.given(upright, rotation), to: url)
        let source = try ImageSource(url: url)
        let page = Self.result(source, rotation: rotation)
        #expect((page.source.width, page.source.height) == (upright.width, upright.height))

        // viz of a page with no lines is the page itself (PNG for a PNG source).
        let viz = try ResultFormat.viz.render(page, image: source)
        #expect(try ImageSource(data: viz).decode() == upright)

        // html embeds the upright page (the file's bytes only when no turn is needed), sized as the result says.
        let html = String(decoding: try ResultFormat.html.render(page, image: source), as: UTF8.self)
        #expect(html.contains("width=\"\(upright.width)\" height=\"\(upright.height)\""))
        let embedded = try #require(Self.dataURI(in: html))
        #expect(embedded.type == (rotation == .upright ? "image/png" : "image/jpeg"))
        let shown = try ImageSource(data: embedded.data).decode()
        #expect(shown.width == upright.width && shown.height == upright.height)
        #expect(SearchablePDFTests.meanDifference(shown, upright) < 8, "html image of a page given turned \(rotation.degrees)°")

        // pdf: the page is the upright page's size (300 dpi) and renders upright.
        let pdf = dir.appendingPathComponent("page\(rotation.degrees).pdf")
        try ResultFormat.pdf.render(page, image: source).write(to: pdf)
        #expect(try FormatCheckers.run("qpdf", ["--check", pdf.path]).status == 0)
        let rendered = try SearchablePDFTests.rendered(pdf, dpi: 300)
        #expect(rendered.width == upright.width && rendered.height == upright.height)
        let difference = SearchablePDFTests.meanDifference(rendered, upright)
        #expect(difference < 16, "pdf of a page given turned \(rotation.degrees)°: differs from upright by \(difference)")
    }

    @Test("a JPEG turned by EXIF and given turned: not passed through, drawn upright in the pdf and in viz",
          arguments: [PageRotation.clockwise90, .halfTurn])
    func jpeg(_ rotation: PageRotation) throws {
        let dir = try TestPaths.temporaryDirectory("turned-formats")
        let url = dir.appendingPathComponent("exif6-\(rotation.degrees).jpg")
        try ImageWriter.save(try BatchFixtures.crop(5), to: url, quality: 95, exifOrientation: 6)
        let source = try ImageSource(url: url)
        let upright = rotation.upright(try source.decode())
        let page = Self.result(source, rotation: rotation)
        let pdf = dir.appendingPathComponent("exif6-\(rotation.degrees).pdf")
        try ResultFormat.pdf.render(page, image: source).write(to: pdf)
        #expect(try pdfImages(pdf).first?.encoding == "image", "a JPEG given turned is stored as the upright page")
        let rendered = try SearchablePDFTests.rendered(pdf, dpi: 300)
        let difference = SearchablePDFTests.meanDifference(rendered, upright)
        #expect(difference < 16, "pdf: differs from the upright page by \(difference)")
        let viz = try ImageSource(data: try ResultFormat.viz.render(page, image: source)).decode()
        #expect(SearchablePDFTests.meanDifference(viz, upright) < 16)
    }

    /// The first `data:` URI of `html`: its media type and bytes.
    static func dataURI(in html: String) -> (type: String, data: Data)? {
        guard let start = html.range(of: "src=\"data:") else { return nil }
        let rest = html[start.upperBound...]
        guard let semicolon = rest.firstIndex(of: ";"), let comma = rest.firstIndex(of: ","),
              let end = rest[comma...].firstIndex(of: "\""),
              let data = Data(base64Encoded: String(rest[rest.index(after: comma)..<end])) else { return nil }
        return (String(rest[..<semicolon]), data)
    }
}
