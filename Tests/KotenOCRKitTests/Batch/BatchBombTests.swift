import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport

/// Decompression bombs: files of a few hundred bytes whose headers declare about 10^10 pixels. Each is
/// refused on its header — before any pixel buffer exists — with a one-line error naming the file.
@Suite("Batch bombs: images declaring 100000×100000 pixels")
struct BatchBombTests {
    static let side = 100_000

    static func png() -> Data { OversizedImage.png(width: side, height: side) }
    static func bmp() -> Data { OversizedImage.bmp(width: side, height: side) }
    static func tiff() -> Data { OversizedImage.tiff(width: side, height: side) }
    /// GIF's largest: 65535×65535 (4.3 × 10^9 pixels).
    static func gif() -> Data { OversizedImage.gif(width: 65535, height: 65535) }

    /// JPEG: a real 16×16 JPEG whose frame header is changed to claim 65000×65000.
    static func jpeg(scratch: URL) throws -> Data {
        let url = scratch.appendingPathComponent("small.jpg")
        try ImageWriter.save(RGBImage(width: 16, height: 16), to: url)
        var bytes = [UInt8](try Data(contentsOf: url))
        let at = try #require(BatchFixtures.jpegFrameHeader(bytes))
        bytes.replaceSubrange((at + 5)..<(at + 9), with: [0xFD, 0xE8, 0xFD, 0xE8])   // 65000: libjpeg refuses more than 65500
        return Data(bytes)
    }

    /// PDF: one page whose MediaBox renders at 300 dpi to 100000×100000.
    static func pdf() -> Data {
        BatchFixtures.pdf(jpegs: [(data: Data(), width: side, height: side)])
    }

    static func write(_ name: String, _ data: Data, to folder: URL) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    @Test("every format is refused on its header: ImageError.tooLarge",
          arguments: ["bomb.png", "bomb.bmp", "bomb.tif", "bomb.gif", "bomb.jpg", "bomb.pdf"])
    func refusedOnHeader(_ name: String) throws {
        let folder = try TestPaths.temporaryDirectory("batch-bomb")
        let data: Data
        switch name {
        case "bomb.png": data = Self.png()
        case "bomb.bmp": data = Self.bmp()
        case "bomb.tif": data = Self.tiff()
        case "bomb.gif": data = Self.gif()
        case "bomb.jpg": data = try Self.jpeg(scratch: folder)
        default: data = Self.pdf()
        }
        #expect(data.count < 20_000)
        let url = try Self.write(name, data, to: folder)
        #expect(try ImageSource.pageCount(of: url) == 1)
        do {
            _ = try ImageSource(url: url)
            Issue.record("\(name) was opened")
        } catch let error as ImageError {
            guard case .tooLarge(let path, let width, let height, _) = error else {
                Issue.record("\(name): expected tooLarge, got \(error)")
                return
            }
            #expect(path == url.path)
            #expect(width * height > 4_000_000_000, "\(width)×\(height)")
        }
    }

    @Test("the CLI refuses PNG, BMP and TIFF bombs with one line each, exit 1, and stays small in memory")
    func cli() throws {
        let folder = try TestPaths.temporaryDirectory("batch-bomb-cli")
        let files = try [("bomb.png", Self.png()), ("bomb.bmp", Self.bmp()), ("bomb.tif", Self.tiff())]
            .map { try Self.write($0.0, $0.1, to: folder) }
        let result = try runCLI(try BatchFixtures.cliArguments(files.map(\.path)))
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 4 && result.stderrLines.last?.hasPrefix("koten-ocr: 0 pages read, 3 failed, in ") == true,
                "one line each, then the summary: \(result.stderr)")
        for file in files {
            let lines = result.stderrLines.filter { $0.contains(file.path) }
            #expect(lines.count == 1 && lines.first?.contains("100000×100000 = 10000000000 pixels, over the limit") == true,
                    "\(result.stderr)")
        }
        // 10^10 RGB pixels would be 30 GB; the process itself (runtime, ONNX Runtime, libvips) is well under 150 MB
        // (a sanitizer's shadow memory is not: the figure is checked without one).
        let peak = try #require(result.peakResidentBytes, "peak RSS is measured with GNU time: apt-get install time")
        if !Sanitizers.active { #expect(peak < 150 << 20, "peak RSS \(peak >> 20) MB") }
        #expect(peak > 1 << 20)
    }
}
