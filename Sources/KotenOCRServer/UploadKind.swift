import Foundation

/// What an uploaded file is, from its first bytes (never from its name): the types the server reads.
enum UploadKind: String, Sendable {
    case jpeg, png, tiff, webp, gif, pdf, zip, jp2

    /// Content types accepted as declared by a client (anything else is 415 before the bytes are looked at).
    static func acceptsDeclared(_ type: String?) -> Bool {
        guard let type, !type.isEmpty else { return true }
        return type.hasPrefix("image/") || ["application/pdf", "application/zip", "application/x-zip-compressed",
                                            "application/octet-stream"].contains(type)
    }

    /// The kind of the file at `url` from its magic bytes; nil for none the server reads.
    static func sniff(_ url: URL) -> UploadKind? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 16)) ?? Data())
        return sniff(head)
    }

    static func sniff(_ b: [UInt8]) -> UploadKind? {
        func starts(_ p: [UInt8]) -> Bool { b.count >= p.count && Array(b.prefix(p.count)) == p }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47]) { return .png }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts(Array("%PDF-".utf8)) { return .pdf }
        if starts(Array("GIF8".utf8)) { return .gif }
        if starts([0x50, 0x4B, 0x03, 0x04]) { return .zip }
        if starts([0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50]) || starts([0xFF, 0x4F, 0xFF, 0x51]) { return .jp2 }
        if b.count >= 12, starts(Array("RIFF".utf8)), Array(b[8..<12]) == Array("WEBP".utf8) { return .webp }
        return nil
    }

    /// The extension the server gives a stored input of this kind (its own name; never the client's).
    var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .tiff: "tif"
        case .webp: "webp"
        case .gif: "gif"
        case .pdf: "pdf"
        case .zip: "zip"
        case .jp2: "jp2"
        }
    }
}
