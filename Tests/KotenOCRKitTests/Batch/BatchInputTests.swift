import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport

/// Books and unusual encodings through the real CLI and PP-OCRv5: a 3-page PDF and a 3-page TIFF give three
/// results each, and a 16-bit PNG, a palette PNG, a CMYK JPEG and a 1-bit TIFF of a page read like the page.
@Suite("Batch inputs: books and encodings", .serialized)
struct BatchInputTests {
    struct Corpus {
        let folder: URL
        let pdf: URL
        let tiff: URL
        /// Crops 0, 1, 2 as plain PNG: the reference texts.
        let plain: [URL]
        let variants: [ImageWriter.Encoding: URL]
    }

    static let corpus: Result<Corpus, Error> = Result {
        let folder = try TestPaths.temporaryDirectory("batch-inputs")
        let pdf = folder.appendingPathComponent("volume.pdf")
        try BatchFixtures.pdf(ofCrops: [0, 1, 2], scratch: try TestPaths.temporaryDirectory("batch-pdf")).write(to: pdf)
        let tiff = folder.appendingPathComponent("scan.tif")
        try ImageWriter.saveMultiPageTIFF([0, 1, 2].map { try BatchFixtures.crop($0) }, to: tiff)
        let plain = try BatchFixtures.writePages(0..<3, to: folder, name: { "plain\($0).v1.png" })
        var variants: [ImageWriter.Encoding: URL] = [:]
        let names: [ImageWriter.Encoding: String] = [.png16: "deep.png", .pngPalette: "palette.png",
                                                     .jpegCMYK: "cmyk.jpg", .tiff1Bit: "bilevel.tif"]
        for (encoding, name) in names {
            let url = folder.appendingPathComponent(name)
            try ImageWriter.save(try BatchFixtures.crop(0), to: url, encoding: encoding)
            variants[encoding] = url
        }
        return Corpus(folder: folder, pdf: pdf, tiff: tiff, plain: plain, variants: variants)
    }

    struct Run {
        let result: ChildResult
        let output: URL
    }

    /// One CLI run over every input of the corpus.
    static let run: Result<Run, Error> = Result {
        let corpus = try Self.corpus.get()
        let output = try TestPaths.temporaryDirectory("batch-inputs-out")
        let inputs = [corpus.pdf, corpus.tiff] + corpus.plain + ImageWriter.Encoding.allCases.compactMap { corpus.variants[$0] }
        let result = try runCLI(try BatchFixtures.cliArguments(["--output", output.path] + inputs.map(\.path)))
        return Run(result: result, output: output)
    }

    static func text(_ run: Run, _ stem: String) throws -> String {
        try String(contentsOf: run.output.appendingPathComponent(stem + ".txt"), encoding: .utf8)
    }

    static func page(_ run: Run, _ stem: String) throws -> PageResult {
        try JSONDecoder().decode(PageResult.self, from: Data(contentsOf: run.output.appendingPathComponent(stem + ".json")))
    }

    @Test("a 3-page PDF and a 3-page TIFF give three results each, named <stem>_p0001…")
    func multiPage() throws {
        let run = try Self.run.get()
        #expect(run.result.status == 0, "\(run.result.stderr)")
        for book in ["volume", "scan"] {
            for page in 1...3 {
                let stem = "\(book)_p000\(page)"
                let result = try Self.page(run, stem)
                #expect(result.source.page == page && result.source.pageCount == 3)
                let reference = withoutWhitespace(try Self.text(run, "plain\(page - 1).v1"))
                let text = withoutWhitespace(try Self.text(run, stem))
                #expect(reference.count >= 5)
                #expect(characterErrorRate(text, reference: reference) <= 0.2, "\(stem): '\(text)' vs '\(reference)'")
            }
            #expect(!FileManager.default.fileExists(atPath: run.output.appendingPathComponent("\(book)_p0004.txt").path))
        }
        // The PDF page is rendered at the default 300 dpi: its JPEG's own size.
        let rendered = try Self.page(run, "volume_p0001").source
        #expect(abs(rendered.width - 320) <= 1 && abs(rendered.height - 120) <= 1)
    }

    @Test("16-bit PNG, palette PNG, CMYK JPEG and 1-bit TIFF are read like the plain page",
          arguments: ImageWriter.Encoding.allCases)
    func encodings(_ encoding: ImageWriter.Encoding) throws {
        let run = try Self.run.get()
        let corpus = try Self.corpus.get()
        let url = try #require(corpus.variants[encoding])
        let stem = url.deletingPathExtension().lastPathComponent
        let reference = withoutWhitespace(try Self.text(run, "plain0.v1"))
        let text = withoutWhitespace(try Self.text(run, stem))
        let limit = encoding == .tiff1Bit ? 0.35 : 0.2
        #expect(characterErrorRate(text, reference: reference) <= limit, "\(stem): '\(text)' vs '\(reference)'")
    }

    @Test("the whole stem is kept: plain0.v1.png gives plain0.v1.txt and .json, and nothing else is written")
    func naming() throws {
        let run = try Self.run.get()
        let names = try FileManager.default.contentsOfDirectory(atPath: run.output.path).filter { !$0.hasPrefix(".") }
        let stems = ["volume_p0001", "volume_p0002", "volume_p0003", "scan_p0001", "scan_p0002", "scan_p0003",
                     "plain0.v1", "plain1.v1", "plain2.v1", "deep", "palette", "cmyk", "bilevel"]
        #expect(Set(names) == Set(stems.flatMap { ["\($0).txt", "\($0).json"] }))
    }
}
