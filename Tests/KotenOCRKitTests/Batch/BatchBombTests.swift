import Foundation
import Testing
@testable import KotenOCRKit

/// Decompression bombs: files of a few hundred bytes whose headers declare about 10^10 pixels. Each is
/// refused on its header — before any pixel buffer exists — with a one-line error naming the file.
@Suite("Batch bombs: images declaring 100000×100000 pixels")
struct BatchBombTests {
    static let side = 100_000

    /// PNG: IHDR claiming 100000×100000 RGB, one stored (uncompressed) deflate block of zero rows, IEND.
    static func png() -> Data {
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            return be32(UInt32(body.count)) + typed + be32(crc32(typed))
        }
        let raw = [UInt8](repeating: 0, count: 4096)
        var adlerA: UInt32 = 1, adlerB: UInt32 = 0
        for byte in raw { adlerA = (adlerA + UInt32(byte)) % 65521; adlerB = (adlerB + adlerA) % 65521 }
        let n = UInt16(raw.count)
        let zlib: [UInt8] = [0x78, 0x01, 0x01, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8(~n >> 8)]
            + raw + be32(adlerB << 16 | adlerA)
        let ihdr = be32(UInt32(side)) + be32(UInt32(side)) + [8, 2, 0, 0, 0]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", zlib) + chunk("IEND", []))
    }

    /// BMP: a 24-bit BITMAPINFOHEADER claiming 100000×100000, 64 bytes of pixels.
    static func bmp() -> Data {
        let header: [UInt8] = Array("BM".utf8) + le32(54 + 64) + le32(0) + le32(54)
            + le32(40) + le32(UInt32(side)) + le32(UInt32(side)) + [1, 0, 24, 0] + le32(0) + le32(0)
            + le32(2835) + le32(2835) + le32(0) + le32(0)
        return Data(header + [UInt8](repeating: 0, count: 64))
    }

    /// TIFF: one uncompressed 8-bit grey strip claiming 100000×100000, 100 bytes of pixels.
    static func tiff() -> Data {
        let entries: [(tag: UInt16, type: UInt16, value: UInt32)] = [
            (256, 4, UInt32(side)), (257, 4, UInt32(side)), (258, 3, 8), (259, 3, 1), (262, 3, 1),
            (273, 4, 8 + 2 + 12 * 9 + 4), (277, 3, 1), (278, 4, UInt32(side)), (279, 4, 100),
        ]
        var ifd: [UInt8] = le16(UInt16(entries.count))
        for e in entries {
            ifd += le16(e.tag) + le16(e.type) + le32(1) + (e.type == 3 ? le16(UInt16(e.value)) + [0, 0] : le32(e.value))
        }
        return Data(Array("II".utf8) + [42, 0] + le32(8) + ifd + le32(0) + [UInt8](repeating: 0, count: 100))
    }

    /// GIF: logical screen and image of 65535×65535 (GIF's largest; 4.3 × 10^9 pixels), a tiny LZW stream.
    static func gif() -> Data {
        Data(Array("GIF89a".utf8) + le16(65535) + le16(65535) + [0x80, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF]
             + [0x2C] + le16(0) + le16(0) + le16(65535) + le16(65535) + [0, 2, 2, 0x44, 0x01, 0, 0x3B])
    }

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

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func le32(_ v: UInt32) -> [UInt8] { be32(v).reversed() }
    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
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
        #expect(result.stderrLines.count == 3, "\(result.stderr)")
        for file in files {
            let lines = result.stderrLines.filter { $0.contains(file.path) }
            #expect(lines.count == 1 && lines.first?.contains("100000×100000 = 10000000000 pixels, over the limit") == true,
                    "\(result.stderr)")
        }
        // 10^10 RGB pixels would be 30 GB; the process itself (runtime, ONNX Runtime, libvips) is well under 150 MB.
        let peak = try #require(result.peakResidentBytes, "peak RSS is measured with GNU time: apt-get install time")
        #expect(peak < 150 << 20, "peak RSS \(peak >> 20) MB")
        #expect(peak > 1 << 20)
    }
}
