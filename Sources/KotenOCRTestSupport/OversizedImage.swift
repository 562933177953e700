import Foundation

/// Tiny image files whose headers declare a huge size (decompression bombs), for tests and benchmarks of
/// the pixel limit: a few hundred bytes that a decoder trusting the header would turn into gigabytes.
/// Each is well-formed up to its pixel data, so only the size check can stop it.
public enum OversizedImage {
    /// PNG: IHDR with `width`×`height` 8-bit RGB, one stored (uncompressed) deflate block of 4096 zero bytes, IEND.
    public static func png(width: Int, height: Int) -> Data {
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
        let ihdr = be32(UInt32(clamping: width)) + be32(UInt32(clamping: height)) + [8, 2, 0, 0, 0]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", zlib) + chunk("IEND", []))
    }

    /// BMP: a 24-bit BITMAPINFOHEADER declaring `width`×`height`, 64 bytes of pixels.
    public static func bmp(width: Int, height: Int) -> Data {
        let header: [UInt8] = Array("BM".utf8) + le32(54 + 64) + le32(0) + le32(54)
            + le32(40) + le32(UInt32(clamping: width)) + le32(UInt32(clamping: height)) + [1, 0, 24, 0] + le32(0) + le32(0)
            + le32(2835) + le32(2835) + le32(0) + le32(0)
        return Data(header + [UInt8](repeating: 0, count: 64))
    }

    /// TIFF: one uncompressed 8-bit grey strip declaring `width`×`height`, 100 bytes of pixels.
    public static func tiff(width: Int, height: Int) -> Data {
        let entries: [(tag: UInt16, type: UInt16, value: UInt32)] = [
            (256, 4, UInt32(clamping: width)), (257, 4, UInt32(clamping: height)), (258, 3, 8), (259, 3, 1), (262, 3, 1),
            (273, 4, 8 + 2 + 12 * 9 + 4), (277, 3, 1), (278, 4, UInt32(clamping: height)), (279, 4, 100),
        ]
        var ifd: [UInt8] = le16(UInt16(entries.count))
        for e in entries {
            ifd += le16(e.tag) + le16(e.type) + le32(1) + (e.type == 3 ? le16(UInt16(e.value)) + [0, 0] : le32(e.value))
        }
        return Data(Array("II".utf8) + [42, 0] + le32(8) + ifd + le32(0) + [UInt8](repeating: 0, count: 100))
    }

    /// GIF: logical screen and one image of `width`×`height` (at most 65535 each), a tiny LZW stream.
    public static func gif(width: Int, height: Int) -> Data {
        let w = UInt16(clamping: width), h = UInt16(clamping: height)
        return Data(Array("GIF89a".utf8) + le16(w) + le16(h) + [0x80, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF]
                    + [0x2C] + le16(0) + le16(0) + le16(w) + le16(h) + [0, 2, 2, 0x44, 0x01, 0, 0x3B])
    }

    private static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    private static func le32(_ v: UInt32) -> [UInt8] { be32(v).reversed() }
    private static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }

    /// CRC-32 (ISO 3309, as PNG chunks use).
    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
