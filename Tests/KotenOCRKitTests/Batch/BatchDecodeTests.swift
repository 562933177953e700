import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport

/// Every input a library has, through `ImageSource` (libvips): page counts of books, page selection by
/// index, PDF resolution, and unusual encodings decoding to the page's pixels.
@Suite("Batch decode: formats and pages")
struct BatchDecodeTests {
    /// Mean absolute difference per channel value between two images of the same size.
    static func meanDifference(_ a: RGBImage, _ b: RGBImage) throws -> Double {
        try #require(a.width == b.width && a.height == b.height, "\(a.width)×\(a.height) vs \(b.width)×\(b.height)")
        var total = 0
        for i in 0..<a.pixels.count { total += abs(Int(a.pixels[i]) - Int(b.pixels[i])) }
        return Double(total) / Double(a.pixels.count)
    }

    @Test("a multi-page TIFF: three pages, each decodes to its own page exactly")
    func multiPageTIFF() throws {
        let url = try TestPaths.temporaryDirectory("batch-tiff").appendingPathComponent("book.tif")
        let pages = try [4, 5, 6].map { try BatchFixtures.crop($0) }
        try ImageWriter.saveMultiPageTIFF(pages, to: url)
        #expect(try ImageSource.pageCount(of: url) == 3)
        for (index, page) in pages.enumerated() {
            let source = try ImageSource(url: url, page: index)
            #expect(source.pageCount == 3)
            #expect(try source.decode() == page)
        }
    }

    @Test("a PDF: three pages rendered at the chosen DPI (300 by default)")
    func pdf() throws {
        let folder = try TestPaths.temporaryDirectory("batch-pdf")
        let url = folder.appendingPathComponent("book.pdf")
        try BatchFixtures.pdf(ofCrops: [7, 8, 9], scratch: folder).write(to: url)
        #expect(try ImageSource.pageCount(of: url) == 3)
        let source = try ImageSource(url: url, page: 1)
        #expect(source.loader == "pdfload" && source.pageCount == 3)
        #expect(try Self.meanDifference(source.decode(), BatchFixtures.crop(8)) < 12)
        let half = try ImageSource(url: url, page: 2, pdfDPI: 150)
        #expect(half.width == 160 && half.height == 60)
    }

    @Test("JPEG 2000, WebP, GIF, BMP, HEIC and AVIF are read, one page each",
          arguments: ["jp2", "webp", "gif", "bmp", "heic", "avif"])
    func otherFormats(_ suffix: String) throws {
        let url = try TestPaths.temporaryDirectory("batch-format").appendingPathComponent("page.\(suffix)")
        let page = try BatchFixtures.crop(10)
        try ImageWriter.save(page, to: url)
        #expect(try ImageSource.pageCount(of: url) == 1)
        let source = try ImageSource(url: url)
        #expect(source.pageCount == 1 && source.width == 320 && source.height == 120)
        #expect(try Self.meanDifference(source.decode(), page) < 12)
    }

    @Test("a JPEG 2000's resolution levels are not pages")
    func jpeg2000Levels() throws {
        let url = try TestPaths.temporaryDirectory("batch-jp2").appendingPathComponent("scan.jp2")
        try ImageWriter.save(try BatchFixtures.scan.get(), to: url)
        #expect(try ImageSource.pageCount(of: url) == 1)
        #expect(try ImageSource(url: url).pageCount == 1)
    }

    @Test("16-bit PNG, palette PNG, CMYK JPEG and 1-bit TIFF decode to the page", arguments: ImageWriter.Encoding.allCases)
    func encodings(_ encoding: ImageWriter.Encoding) throws {
        let suffix = [ImageWriter.Encoding.png16: "png", .pngPalette: "png", .jpegCMYK: "jpg", .tiff1Bit: "tif"][encoding] ?? "bin"
        let url = try TestPaths.temporaryDirectory("batch-encoding").appendingPathComponent("page.\(suffix)")
        let page = try BatchFixtures.crop(11)
        try ImageWriter.save(page, to: url, encoding: encoding)
        let bytes = [UInt8](try Data(contentsOf: url))
        let decoded = try ImageSource(url: url).decode()
        switch encoding {
        case .png16:
            #expect(bytes[24] == 16 && bytes[25] == 2)   // IHDR: bit depth 16, colour type RGB
            #expect(decoded == page)
        case .pngPalette:
            #expect(bytes[25] == 3)                      // IHDR: colour type 3 (palette)
            #expect(try Self.meanDifference(decoded, page) < 8)
        case .jpegCMYK:
            let at = try #require(BatchFixtures.jpegFrameHeader(bytes))
            #expect(bytes[at + 9] == 4)                  // four components
            #expect(try Self.meanDifference(decoded, page) < 15)
        case .tiff1Bit:
            #expect(Set(decoded.pixels).isSubset(of: [0, 255]))
            #expect(try Self.meanDifference(decoded, page) < 40)
        }
    }
}
