import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport

/// The searchable PDF's image and its one-document-per-input rule through the batch: pages written by different
/// runs and shards, the document written once when the last is done, `--resume`.
@Suite("Searchable PDF")
struct SearchablePDFTests {
    static func cli(_ arguments: [String]) throws -> ProcessResult {
        try runProcess(TestPaths.cli, ["--mode", "ppocr", "--models", try TestPaths.ppocrModels().root.path, "-q"] + arguments)
    }

    /// The page of `pdf` rendered by poppler at `dpi`, as the engine decodes images.
    static func rendered(_ pdf: URL, dpi: Int) throws -> RGBImage {
        let prefix = pdf.deletingPathExtension().path + "-render"
        let result = try FormatCheckers.run("pdftoppm", ["-r", String(dpi), "-aa", "no", "-aaVector", "no", "-png", "-singlefile",
                                                        pdf.path, prefix])
        try #require(result.status == 0, "pdftoppm: \(result.stderr)")
        return try ImageSource(url: URL(fileURLWithPath: prefix + ".png")).decode()
    }

    /// `image` turned 180°.
    static func halfTurn(_ image: RGBImage) -> RGBImage {
        var turned = image
        let count = image.width * image.height
        for i in 0..<count {
            for c in 0..<3 { turned.pixels[(count - 1 - i) * 3 + c] = image.pixels[i * 3 + c] }
        }
        return turned
    }

    static func meanDifference(_ a: RGBImage, _ b: RGBImage) -> Double {
        guard a.width == b.width, a.height == b.height else { return .infinity }
        return Double(zip(a.pixels, b.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.pixels.count)
    }

    @Test("a JPEG turned by EXIF is passed through as it is and drawn upright; a PNG is stored losslessly")
    func images() throws {
        let dir = try TestPaths.temporaryDirectory("pdf-images")
        let page = try BatchFixtures.crop(3)
        let empty = { (source: ImageSource) in
            PageResult(source: .init(path: source.name, page: 1, pageCount: 1, width: source.width, height: source.height,
                                     exifOrientation: source.orientation),
                       mode: .ppocr, models: [], orientation: "none", lines: [])
        }
        for orientation in [1, 6, 3, 8] {
            let jpeg = dir.appendingPathComponent("turned\(orientation).jpg")
            try ImageWriter.save(page, to: jpeg, quality: 95, exifOrientation: orientation)
            let source = try ImageSource(url: jpeg)
            let pdf = dir.appendingPathComponent("turned\(orientation).pdf")
            try ResultFormat.pdf.render(empty(source), image: source).write(to: pdf)
            #expect(try FormatCheckers.run("qpdf", ["--check", pdf.path]).status == 0)
            let stored = try #require(try pdfImages(pdf).first)
            #expect(stored.encoding == "jpeg" && stored.width == page.width && stored.height == page.height)
            let embedded = try Data(contentsOf: jpeg)
            let pdfBytes = try Data(contentsOf: pdf)
            #expect(pdfBytes.range(of: embedded) != nil, "the JPEG's bytes are in the PDF unchanged")
            // Poppler's rendering is not pixel-exact (about 6-12 grey levels off on average on this crop), so the
            // upright image must be much closer than the same image turned half round.
            let rendered = try Self.rendered(pdf, dpi: 300), upright = try source.decode()
            let difference = Self.meanDifference(rendered, upright), turned = Self.meanDifference(rendered, Self.halfTurn(upright))
            #expect(difference < 16 && difference * 2 < turned,
                    "orientation \(orientation): rendered page differs from the upright image by \(difference), turned \(turned)")
        }
        let png = dir.appendingPathComponent("page.png")
        try ImageWriter.save(page, to: png)
        let source = try ImageSource(url: png)
        let pdf = dir.appendingPathComponent("page.pdf")
        try ResultFormat.pdf.render(empty(source), image: source).write(to: pdf)
        #expect(try pdfImages(pdf).first?.encoding == "image")
        let extracted = dir.appendingPathComponent("extracted")
        #expect(try FormatCheckers.run("pdfimages", ["-png", pdf.path, extracted.path]).status == 0)
        let stored = try ImageSource(url: URL(fileURLWithPath: extracted.path + "-000.png")).decode()
        #expect(Self.meanDifference(stored, page) == 0, "a PNG is stored losslessly")
    }

    @Test("a multi-page input gives one PDF, pages in order: shards write their pages, the last one the document; --resume keeps it")
    func oneDocumentPerInput() throws {
        let dir = try TestPaths.temporaryDirectory("pdf-book")
        let book = dir.appendingPathComponent("book.tif")
        try ImageWriter.saveMultiPageTIFF([BatchFixtures.crop(0), BatchFixtures.crop(9), BatchFixtures.crop(18), BatchFixtures.crop(27)],
                                          to: book)
        let out = dir.appendingPathComponent("out")
        let pdf = out.appendingPathComponent("book.pdf")
        let arguments = ["-o", out.path, "-f", "txt,pdf", book.path]
        // Shard 1 of 2 reads some pages: they wait in hidden page files; no document yet.
        let first = try Self.cli(["--shard", "1/2"] + arguments)
        #expect(first.status == 0, "\(first.stderr)")
        let waiting = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".pdf-page") }
        #expect(!waiting.isEmpty && waiting.count < 4 && !FileManager.default.fileExists(atPath: pdf.path))
        // Shard 2 reads the rest and, its last page done, writes the document and removes the page files.
        let second = try Self.cli(["--shard", "2/2"] + arguments)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".pdf-page") }.isEmpty)
        #expect(try FormatCheckers.run("qpdf", ["--check", pdf.path]).status == 0)
        #expect(try pdfImages(pdf).count == 4)
        for page in 1...4 {
            let text = try String(contentsOf: out.appendingPathComponent("book_p000\(page).txt"), encoding: .utf8)
            let cer = characterErrorRate(withoutWhitespace(try pdfText(pdf, page: page)), reference: withoutWhitespace(text))
            #expect(cer <= 0.01, "page \(page): CER \(cer)")
        }
        let records = BatchManifest.load(from: out)
        #expect(records["book.tif#pdf"]?.outputs.first?.sha256 == (try SHA256.hex(fileAt: pdf)))
        // --resume: every page and the document are intact; nothing is read or written again.
        let before = try Data(contentsOf: pdf)
        let again = try Self.cli(["--resume"] + arguments)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try Data(contentsOf: pdf) == before)
        // Without --resume the document is in the way, like any result.
        let blocked = try Self.cli(arguments)
        #expect(blocked.status == 2 && blocked.stderr.contains("book"), "\(blocked.stderr)")
    }

    @Test("a document whose pages were all written but not joined (a kill in between) is written by the next --resume")
    func resumeJoinsWaitingPages() throws {
        let dir = try TestPaths.temporaryDirectory("pdf-join")
        let book = dir.appendingPathComponent("book.tif")
        try ImageWriter.saveMultiPageTIFF([BatchFixtures.crop(1), BatchFixtures.crop(10), BatchFixtures.crop(19)], to: book)
        // Each shard alone in its own folder: its pages wait for the others. Both folders joined hold every page
        // done and waiting, and no document: the state a kill after the last page leaves.
        let joined = dir.appendingPathComponent("joined")
        try FileManager.default.createDirectory(at: joined, withIntermediateDirectories: true)
        for shard in 1...2 {
            let out = dir.appendingPathComponent("shard\(shard)")
            let result = try Self.cli(["--shard", "\(shard)/2", "-o", out.path, "-f", "pdf", book.path])
            #expect(result.status == 0, "\(result.stderr)")
            // The folder's lock is each folder's own (OutputLock): the joined folder gets one when it is used.
            for name in try FileManager.default.contentsOfDirectory(atPath: out.path) where name != OutputLock.fileName {
                try FileManager.default.copyItem(at: out.appendingPathComponent(name), to: joined.appendingPathComponent(name))
            }
        }
        #expect(!FileManager.default.fileExists(atPath: joined.appendingPathComponent("book.pdf").path))
        let resumed = try Self.cli(["--resume", "-o", joined.path, "-f", "pdf", book.path])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let pdf = joined.appendingPathComponent("book.pdf")
        #expect(try pdfImages(pdf).count == 3)
        #expect(try FileManager.default.contentsOfDirectory(atPath: joined.path).filter { $0.hasSuffix(".pdf-page") }.isEmpty)
    }
}
