import Foundation

/// A request-target read as the API reads it (docs/serve.md, "What is refused"): the path split into segments, each
/// percent-decoded, and the query's parameters (`+` a space, percent-decoded; the last value of a name wins).
/// Refused (400 `bad_path`): a decoded control character (a NUL would cut the path where C reads it), an escape
/// that is not two hex digits, bytes that are not UTF-8; past `maxLength` bytes, 414 `uri_too_long`.
struct RequestTarget: Sendable {
    /// The path's segments, decoded: `/v1/jobs/x` is `["v1", "jobs", "x"]`, `/` none.
    let segments: [String]
    let query: [String: String]

    /// The longest target the API reads (libmicrohttpd itself refuses a request line past its memory, with its own
    /// HTML answer: docs/serve.md).
    static let maxLength = 8192

    init(_ target: String) throws(APIError) {
        guard target.utf8.count <= Self.maxLength else {
            throw APIError(.uriTooLong, "the request's URL is \(target.utf8.count) bytes, more than \(Self.maxLength)")
        }
        var rest = Substring(target)
        // The absolute form (`http://host/path`) names the path after its authority.
        if let scheme = rest.range(of: "://"), rest[..<scheme.lowerBound].allSatisfy({ $0.isLetter }) {
            let afterAuthority = rest[scheme.upperBound...]
            rest = afterAuthority.firstIndex(of: "/").map { afterAuthority[$0...] } ?? "/"
        }
        let pathPart = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let queryPart = rest.firstIndex(of: "?").map { rest[rest.index(after: $0)...] } ?? ""
        guard pathPart.hasPrefix("/") else { throw APIError(.badPath, "the request's path must start with /") }
        segments = pathPart == "/" ? [] : try pathPart.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
            .map { segment throws(APIError) in try Self.decode(segment, plus: false) }
        var query: [String: String] = [:]
        for pair in queryPart.split(separator: "&") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            query[try Self.decode(parts[0], plus: true)] = try Self.decode(parts.count > 1 ? parts[1] : "", plus: true)
        }
        self.query = query
    }

    /// `text` percent-decoded (and `+` a space in a query); throws `bad_path` for a bad escape, bytes that are not
    /// UTF-8, or a control character.
    static func decode(_ text: Substring, plus: Bool) throws(APIError) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            switch byte {
            case UInt8(ascii: "%"):
                guard utf8.count >= 2, let high = hex(utf8[utf8.startIndex]), let low = hex(utf8[utf8.startIndex + 1]) else {
                    throw APIError(.badPath, "the request's URL has a % that is not followed by two hex digits")
                }
                bytes.append(high << 4 | low)
                utf8 = utf8.dropFirst(2)
            case UInt8(ascii: "+") where plus: bytes.append(UInt8(ascii: " "))
            default: bytes.append(byte)
            }
        }
        if let control = bytes.first(where: { $0 < 0x20 || $0 == 0x7F }) {
            throw APIError(.badPath, "the request's URL holds a control character (\(String(format: "%%%02X", control)))")
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw APIError(.badPath, "the request's URL decodes to bytes that are not UTF-8")
        }
        return decoded
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
