import Foundation

/// What a file is from its first bytes, never from its name: the signatures of the formats the engine reads
/// (`ImageSource`: JPEG, PNG, TIFF, WebP, GIF, BMP, HEIF/AVIF, JPEG 2000, PDF) and zip. The one sniffer of the
/// package: the server's uploads (`koten-ocr serve`) and the IIIF wing's downloads ask it.
package enum FileSignature: String, Sendable, CaseIterable {
    case jpeg, png, tiff, webp, gif, bmp, heif, jp2, pdf, zip

    /// How many bytes `of(_:)` looks at.
    package static let headLength = 32

    /// The signature `head` (a file's first bytes, at least `headLength` of them when the file is that long)
    /// starts with; nil for none of these.
    package static func of<Bytes: Collection<UInt8>>(_ head: Bytes) -> FileSignature? {
        let b = Array(head.prefix(headLength))
        func starts(_ s: [UInt8], at offset: Int = 0) -> Bool {
            b.count >= offset + s.count && Array(b[offset..<offset + s.count]) == s
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47]) { return .png }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts(Array("%PDF-".utf8)) { return .pdf }
        if starts(Array("GIF8".utf8)) { return .gif }
        if starts([0x50, 0x4B, 0x03, 0x04]) { return .zip }
        if starts([0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50]) || starts([0xFF, 0x4F, 0xFF, 0x51]) { return .jp2 }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return .webp }
        // BMP: "BM", then a DIB header of one of the sizes Windows and OS/2 define (two letters alone are text).
        if starts(Array("BM".utf8)), b.count >= 18 {
            let dib = Int(b[14]) | Int(b[15]) << 8 | Int(b[16]) << 16 | Int(b[17]) << 24
            if [12, 16, 40, 52, 56, 64, 108, 124].contains(dib) { return .bmp }
        }
        // HEIF and AVIF: an ISO base media file whose major brand is an image one (not a video's `mp41`, `isom`).
        if starts(Array("ftyp".utf8), at: 4), b.count >= 12,
           heifBrands.contains(String(decoding: b[8..<12], as: UTF8.self)) {
            return .heif
        }
        return nil
    }

    /// The signature of the file at `url`; nil when it is none of these or cannot be read.
    package static func of(fileAt url: URL) -> FileSignature? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        return of((try? handle.read(upToCount: headLength)) ?? Data())
    }

    /// The image brands of HEIF (ISO/IEC 23008-12) and AVIF.
    private static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs",
                                                  "mif1", "mif2", "msf1", "avif", "avis"]

    /// Whether it is an image (not a PDF or a zip).
    package var isImage: Bool { self != .pdf && self != .zip }

    /// The file name extension of its kind (a stored upload's, never the client's).
    package var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .tiff: "tif"
        case .heif: "heic"
        default: rawValue
        }
    }
}
