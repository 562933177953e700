import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport

/// A tiled pyramid TIFF is one page (issue 25): its reduced-resolution levels (NewSubfileType bit 0 in the main
/// chain, or SubIFDs) are not pages — in the page count, `--pages`, the output names and the PDF alike — and the
/// page read is the full-resolution one. The TIFFs are made here with libvips' `tiffsave` (`pyramid`, `tile`,
/// and `subifd`: `ImageWriter.savePyramidTIFF`) from scaned0.png.
@Suite("Pyramid TIFFs")
struct PyramidTIFFTests {
    /// The page as a PNG, and as the two pyramid TIFFs (main chain, SubIFDs), in one folder.
    static let files: Result<(png: URL, chain: URL, subIFDs: URL), Error> = Result {
        let folder = try TestPaths.temporaryDirectory("pyramid-tiff")
        let page = try ImageSource(url: TestPaths.image("ndlocr-lite-rs/scaned0.png")).decode()
        let png = folder.appendingPathComponent("page.png"), chain = folder.appendingPathComponent("pyramid.tif"),
            subIFDs = folder.appendingPathComponent("subifd.tif")
        try ImageWriter.save(page, to: png)
        try ImageWriter.savePyramidTIFF(page, to: chain)
        try ImageWriter.savePyramidTIFF(page, to: subIFDs, subIFDs: true)
        return (png, chain, subIFDs)
    }

    @Test("one page, at full resolution: the reduced levels are in the file but are no page")
    func onePage() throws {
        let (_, chain, subIFDs) = try Self.files.get()
        // The main chain does hold the levels: libvips opens its second directory, half the size.
        let level = try ImageOrigin.file(FileSystemPath(chain.path)).open(name: chain.path, page: 1, shrink: 1, dpi: 72, strict: true)
        #expect(level.width == 966)
        for file in [chain, subIFDs] {
            #expect(try ImageSource.pageCount(of: file) == 1)
            let source = try ImageSource(url: file)
            #expect(source.pageCount == 1 && source.width == 1932 && source.height == 500)
            #expect(throws: ImageError.noSuchPage(path: file.path, page: 1, pageCount: 1)) { try ImageSource(url: file, page: 1) }
        }
    }

    @Test("read by the CLI: one txt each (no _p0002), the same text as the full-resolution page; --pages 2 is past the end")
    func sameText() throws {
        let (png, chain, subIFDs) = try Self.files.get()
        let output = try TestPaths.temporaryDirectory("pyramid-tiff-out")
        let run = try runCLI(try BatchFixtures.cliArguments(["-q", "-f", "txt,pdf", "-o", output.path, png.path, chain.path, subIFDs.path]))
        #expect(run.status == 0, "\(run.stderr)")
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: output.path).filter { !$0.hasPrefix(".") })
        #expect(names == ["page.txt", "page.pdf", "pyramid.txt", "pyramid.pdf", "subifd.txt", "subifd.pdf"])
        let text = { (name: String) in try String(contentsOf: output.appendingPathComponent(name), encoding: .utf8) }
        #expect(!(try text("page.txt")).isEmpty)
        #expect(try text("pyramid.txt") == text("page.txt"))
        #expect(try text("subifd.txt") == text("page.txt"))
        #expect(try pdfImages(output.appendingPathComponent("pyramid.pdf")).count == 1)
        let past = try runCLI(try BatchFixtures.cliArguments(["-q", "--pages", "2", chain.path]))
        #expect(past.status == 1)
        #expect(past.stderrLines == ["koten-ocr: \(chain.path): --pages asks for page 2, but the file has 1 page"])
    }
}
