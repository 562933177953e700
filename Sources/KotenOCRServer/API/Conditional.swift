import Foundation
import KotenOCRKit

/// Answers for a document that does not change once made (a page's result, its image, the job's PDF and zips):
/// validators (`ETag`, `Last-Modified`), conditional requests (`If-None-Match`, `If-Modified-Since`: 304) and
/// ranges (`Range`: 206 with `Content-Range`, 416 past the end; `If-Range`; `Accept-Ranges: bytes`), as RFC 9110
/// §8.8, §13 and §14 say, so that a client can resume a 1,000-page book's PDF and keep what it fetched. One range
/// at a time: a request for several is given the whole document.
struct Representation: Sendable {
    /// A strong validator, quoted.
    let etag: String
    let lastModified: Date
    let contentType: String
    var extraHeaders: [(String, String)] = []

    /// A file's: its ETag from its inode, size and modification time (a file written again by rename has a new one).
    static func of(file url: URL, contentType: String, headers: [(String, String)] = []) throws(APIError) -> (Representation, size: Int64) {
        var info = stat()
        guard stat(url.path, &info) == 0 else { throw APIError(.notFound, "the file is gone") }
        let modified = Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
        let tag = "\"\(String(info.st_ino, radix: 16))-\(String(info.st_size, radix: 16))-\(String(info.st_mtim.tv_sec, radix: 16))\(String(info.st_mtim.tv_nsec, radix: 16))\""
        return (Representation(etag: tag, lastModified: modified, contentType: contentType, extraHeaders: headers), Int64(info.st_size))
    }

    /// The answer for `request`: 304 when its validators match, else the whole body or the range it asks (`size`
    /// is asked only then).
    func answer(_ request: APIRequest, size measure: () throws -> Int64,
                body: (_ offset: Int64, _ length: Int64) throws -> HTTPResponse.Body) throws(APIError) -> HTTPResponse {
        let validators = [("ETag", etag), ("Last-Modified", Self.httpDate(lastModified)), ("Cache-Control", "no-cache"),
                          ("Accept-Ranges", "bytes")]
        if notModified(request.headers) {
            return HTTPResponse(status: 304, headers: validators + extraHeaders)
        }
        let size: Int64
        do { size = try measure() } catch let error as APIError { throw error } catch { throw APIError(.internal, ErrorText.line(error)) }
        var status = 200, offset: Int64 = 0, length = size, range: [(String, String)] = []
        if let asked = request.headers["range"], rangeApplies(request.headers) {
            switch Self.range(asked, size: size) {
            case .whole: break
            case .part(let from, let count):
                (status, offset, length) = (206, from, count)
                range = [("Content-Range", "bytes \(from)-\(from + count - 1)/\(size)")]
            case .unsatisfiable:
                throw APIError(.rangeNotSatisfiable, "the range \(asked.prefix(60)) is past the document's \(size) bytes",
                               headers: [("Content-Range", "bytes */\(size)")] + validators)
            }
        }
        let made: HTTPResponse.Body
        do { made = try body(offset, length) } catch let error as APIError { throw error } catch { throw APIError(.internal, ErrorText.line(error)) }
        return HTTPResponse(status: status, headers: [("Content-Type", contentType)] + validators + range + extraHeaders, body: made)
    }

    /// `If-None-Match` (weak comparison, `*` any), else `If-Modified-Since` (to the second).
    private func notModified(_ headers: [String: String]) -> Bool {
        if let tags = headers["if-none-match"] {
            return tags.split(separator: ",").contains { tag in
                let t = tag.trimmingCharacters(in: .whitespaces)
                return t == "*" || (t.hasPrefix("W/") ? String(t.dropFirst(2)) : t) == etag
            }
        }
        if let since = headers["if-modified-since"].flatMap(Self.parseHTTPDate) {
            return lastModified.timeIntervalSince1970.rounded(.down) <= since.timeIntervalSince1970
        }
        return false
    }

    /// `If-Range`: the range is given only when the document is still the one named (strong ETag, or its date).
    private func rangeApplies(_ headers: [String: String]) -> Bool {
        guard let condition = headers["if-range"]?.trimmingCharacters(in: .whitespaces) else { return true }
        if condition.hasPrefix("\"") { return condition == etag }
        guard let date = Self.parseHTTPDate(condition) else { return false }
        return lastModified.timeIntervalSince1970.rounded(.down) == date.timeIntervalSince1970
    }

    enum RangeAnswer: Equatable { case whole, part(offset: Int64, length: Int64), unsatisfiable }

    /// A `Range` header against a document of `size` bytes: one `bytes=` range (`a-b`, `a-`, `-n`); several, or a
    /// header that is not one, give the whole document (RFC 9110 §14.2 lets a server ignore it).
    static func range(_ header: String, size: Int64) -> RangeAnswer {
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes="), !text.contains(",") else { return .whole }
        let spec = text.dropFirst(6).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else { return .whole }
        if parts[0].isEmpty {  // the last n bytes
            guard let n = Int64(parts[1]), n > 0 else { return parts[1].isEmpty ? .whole : .unsatisfiable }
            return size == 0 ? .unsatisfiable : .part(offset: max(0, size - n), length: min(n, size))
        }
        guard let first = Int64(parts[0]) else { return .whole }
        guard first < size else { return .unsatisfiable }
        guard !parts[1].isEmpty else { return .part(offset: first, length: size - first) }
        guard let last = Int64(parts[1]), last >= first else { return .whole }
        return .part(offset: first, length: min(last, size - 1) - first + 1)
    }

    static func httpDate(_ date: Date) -> String { formatterLock.withLock { formatter.string(from: date) } }

    static func parseHTTPDate(_ text: String) -> Date? {
        formatterLock.withLock { formatter.date(from: text.trimmingCharacters(in: .whitespaces)) }
    }

    private static let formatterLock = NSLock()
    /// Used under `formatterLock` only.
    private static let formatter: DateFormatter = {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return f
    }()
}

extension Representation {
    /// A file answered whole or in part.
    static func file(_ url: URL, contentType: String, headers: [(String, String)] = [], for request: APIRequest) throws(APIError) -> HTTPResponse {
        let (representation, size) = try of(file: url, contentType: contentType, headers: headers)
        return try representation.answer(request, size: { size }) { offset, length in .file(url, offset: offset, length: length) }
    }
}
