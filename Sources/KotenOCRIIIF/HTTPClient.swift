import CCurlShim
import Foundation
import KotenOCRKit

/// HTTP(S) GETs to files through libcurl (Debian's libcurl4-openssl-dev; `Sources/CCurlShim` wraps its variadic
/// calls): the IIIF wing's one network seam (docs/iiif.md, "Network behaviour").
///
/// Each body is streamed to a temporary file beside its destination and renamed into place once it is whole and
/// checked, so no body is ever held in memory and a destination is whole or absent. Certificates and host names
/// are verified (libcurl's defaults, set explicitly), only `http` and `https` are followed (at most 5 redirects),
/// a connection must open within `Limits.connectTimeout` seconds and a transfer that receives nothing for
/// `Limits.readTimeout` seconds is abandoned, a body past `Limits.maxBytes` is cut off. A 429 or 5xx answer, or a
/// connection that fails or breaks, is tried again up to `Limits.attempts` times in all, after the `Retry-After`
/// the server gave (at most `Limits.maxRetryWait` seconds) or else 1 s, then 2 s, 4 s...; a stalled transfer is
/// not (the server is there and sends nothing). At most `HostSlots.perHost` requests are in flight to one host
/// at once, whatever the callers. The `User-Agent` is `koten-ocr/<version>` and libcurl's.
package final class HTTPClient: Sendable {
    /// Limits of one request.
    package struct Limits: Sendable {
        /// Seconds to open a connection.
        package var connectTimeout = 10
        /// Seconds without a byte received before a transfer is abandoned (`--network-timeout`).
        package var readTimeout = 30
        /// The largest body taken, in bytes; a larger one is cut off.
        package var maxBytes: Int64 = 64 << 20
        /// Requests in all (the first and its retries).
        package var attempts = 3
        /// The longest wait before a retry, seconds, whatever `Retry-After` asks.
        package var maxRetryWait = 60.0

        package init() {}
    }

    /// What a body must be.
    package enum Expected: Sendable {
        /// An image: its first bytes are a JPEG, PNG, TIFF, JPEG 2000, WebP, GIF, BMP or HEIF/AVIF signature.
        case image
        /// JSON (a manifest, an `info.json`): its first non-blank byte is `{` or `[`.
        case json
    }

    /// One answered request.
    package struct Response: Sendable {
        package let status: Int
        package let contentType: String?
        package let bytes: Int64
        /// Where the body came from after redirects.
        package let url: String
    }

    /// The client every front end shares, so that the per-host limit holds across them.
    package static let shared = HTTPClient()

    package let userAgent: String
    package let hosts = HostSlots()

    package init(userAgent: String = "koten-ocr/\(KotenOCR.version) (\(HTTPClient.curlVersion))") {
        _ = Self.globalInit
        self.userAgent = userAgent
    }

    /// libcurl's version, as `libcurl/7.88.1`.
    package static var curlVersion: String {
        guard let text = curl_version() else { return "libcurl" }
        return String(cString: text).split(separator: " ").first.map(String.init) ?? "libcurl"
    }

    private static let globalInit: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    /// Fetches `url` into `file` (a temporary file in its folder, renamed into place once whole, of the `expected`
    /// kind and answered 200), retrying as the type describes. Runs on a thread of its own (libcurl's transfer
    /// blocks). Throws `HTTPError`, whose description is one line naming the URL and the reason.
    package func download(_ url: String, to file: URL, expected: Expected, limits: Limits = Limits()) async throws -> Response {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try self.downloadNow(url, to: file, expected: expected, limits: limits) })
            }
        }
    }

    /// `download`, on the calling thread.
    package func downloadNow(_ url: String, to file: URL, expected: Expected, limits: Limits) throws -> Response {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = parsed.host else {
            throw HTTPError(url: url, reason: "not an http or https address")
        }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let partial = file.deletingLastPathComponent()
            .appendingPathComponent("." + file.lastPathComponent + ".part-" + String(UInt32.random(in: 0...UInt32.max), radix: 16))
        defer { try? FileManager.default.removeItem(at: partial) }
        var attempt = 1
        while true {
            let outcome = hosts.withSlot(host) { transfer(url, to: partial, limits: limits) }
            switch outcome {
            case .answered(let answer) where answer.status == 200:
                let response = Response(status: answer.status, contentType: answer.contentType, bytes: answer.bytes, url: answer.url)
                try check(partial, expected: expected, response: response)
                if rename(partial.path, file.path) != 0 {
                    throw HTTPError(url: url, reason: "cannot write \(file.path) (\(String(cString: strerror(errno))))")
                }
                return response
            case .answered(let response):
                let again = response.status == 429 || (500...599).contains(response.status)
                let reason = "HTTP \(response.status)" + (response.status == 429 ? " (too many requests)" : "")
                guard again, attempt < limits.attempts else {
                    throw HTTPError(url: url, reason: reason + (attempt > 1 ? " after \(attempt) attempts" : ""))
                }
                wait(response.retryAfter ?? backoff(attempt), limits)
            case .failed(let reason, let transient):
                guard transient, attempt < limits.attempts else {
                    throw HTTPError(url: url, reason: reason + (attempt > 1 ? " after \(attempt) attempts" : ""))
                }
                wait(backoff(attempt), limits)
            }
            attempt += 1
        }
    }

    private func backoff(_ attempt: Int) -> Double { Double(1 << min(attempt - 1, 6)) }

    private func wait(_ seconds: Double, _ limits: Limits) {
        let bounded = min(max(0, seconds), limits.maxRetryWait)
        if bounded > 0 { Thread.sleep(forTimeInterval: bounded) }
    }

    /// Checks a whole 200 body: of the `expected` kind by its first bytes (the Content-Type is named in the reason).
    private func check(_ file: URL, expected: Expected, response: Response) throws {
        let head = (try? FileHandle(forReadingFrom: file)).map { handle in
            defer { try? handle.close() }
            return (try? handle.read(upToCount: 32)) ?? Data()
        } ?? Data()
        let type = response.contentType.map { " (Content-Type \($0))" } ?? ""
        switch expected {
        case .image:
            guard Self.isImage(head) else {
                let what = head.isEmpty ? "an empty body" : (Self.looksLikeHTML(head) ? "HTML" : Self.kind(head) ?? "data that is not an image")
                throw HTTPError(url: response.url, reason: "the server sent \(what)\(type), not an image")
            }
        case .json:
            guard let first = head.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }), first == 0x7B || first == 0x5B else {
                throw HTTPError(url: response.url, reason: "the server sent \(head.isEmpty ? "an empty body" : "something other than JSON")\(type)")
            }
        }
    }

    /// Whether `head` starts with the signature of an image format libvips reads (`FileSignature`, the package's one sniffer).
    package static func isImage(_ head: Data) -> Bool {
        FileSignature.of(head)?.isImage ?? false
    }

    /// What a body that is no image is, by its first bytes, when it is a kind often painted on canvases: a PDF, or
    /// an MP4/QuickTime file (sound or video). Nil for another.
    static func kind(_ head: Data) -> String? {
        let b = [UInt8](head.prefix(16))
        if b.starts(with: Array("%PDF".utf8)) { return "a PDF" }
        if b.count >= 12, Array(b[4..<8]) == Array("ftyp".utf8) {
            return "an MP4 or QuickTime file (brand \(String(decoding: b[8..<12], as: UTF8.self).trimmingCharacters(in: .whitespaces)): sound or video)"
        }
        return nil
    }

    private static func looksLikeHTML(_ head: Data) -> Bool {
        let text = String(decoding: head, as: UTF8.self).lowercased().trimmingCharacters(in: .whitespacesAndNewlines)
        return text.hasPrefix("<!doctype") || text.hasPrefix("<html") || text.hasPrefix("<")
    }

    private enum Outcome {
        case answered(Answer)
        /// The request did not complete; `transient`: worth another attempt.
        case failed(String, transient: Bool)
    }

    private struct Answer {
        let status: Int
        let contentType: String?
        let bytes: Int64
        let url: String
        let retryAfter: Double?
    }

    /// One GET of `url` into `file` (replaced).
    private func transfer(_ url: String, to file: URL, limits: Limits) -> Outcome {
        guard let handle = curl_easy_init() else { return .failed("libcurl could not start a transfer", transient: false) }
        defer { curl_easy_cleanup(handle) }
        guard let stream = fopen(file.path, "wb") else {
            return .failed("cannot write \(file.path) (\(String(cString: strerror(errno))))", transient: false)
        }
        let sink = Sink(stream: stream, limit: limits.maxBytes)
        let context = Unmanaged.passRetained(sink)
        defer { context.release() }
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { buffer in
            var ok = koten_curl_set_string(handle, CURLOPT_URL, url) == CURLE_OK
            ok = ok && koten_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, buffer.baseAddress) == CURLE_OK
            ok = ok && koten_curl_set_string(handle, CURLOPT_USERAGENT, userAgent) == CURLE_OK
            ok = ok && koten_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https") == CURLE_OK
            ok = ok && koten_curl_set_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https") == CURLE_OK
            ok = ok && koten_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 1) == CURLE_OK
            ok = ok && koten_curl_set_long(handle, CURLOPT_MAXREDIRS, 5) == CURLE_OK
            ok = ok && koten_curl_set_long(handle, CURLOPT_SSL_VERIFYPEER, 1) == CURLE_OK
            ok = ok && koten_curl_set_long(handle, CURLOPT_SSL_VERIFYHOST, 2) == CURLE_OK
            ok = ok && koten_curl_set_long(handle, CURLOPT_NOSIGNAL, 1) == CURLE_OK
            ok = ok && koten_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT, limits.connectTimeout) == CURLE_OK
            ok = ok && koten_curl_set_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1) == CURLE_OK
            ok = ok && koten_curl_set_long(handle, CURLOPT_LOW_SPEED_TIME, limits.readTimeout) == CURLE_OK
            ok = ok && koten_curl_set_offset(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limits.maxBytes)) == CURLE_OK
            ok = ok && koten_curl_set_string(handle, CURLOPT_ACCEPT_ENCODING, "") == CURLE_OK
            ok = ok && koten_curl_set_write_callback(handle, CURLOPT_WRITEFUNCTION, Sink.write) == CURLE_OK
            ok = ok && koten_curl_set_pointer(handle, CURLOPT_WRITEDATA, context.toOpaque()) == CURLE_OK
            guard ok else { return CURLE_FAILED_INIT }
            return curl_easy_perform(handle)
        }
        let closed = fclose(stream) == 0
        let message = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if sink.exceeded || code == CURLE_FILESIZE_EXCEEDED {
            return .failed("the body is larger than the \(limits.maxBytes >> 20) MB cap per image (transfer stopped)", transient: false)
        }
        guard code == CURLE_OK else {
            let detail = message.isEmpty ? String(cString: curl_easy_strerror(code)) : message
            switch code {
            case CURLE_OPERATION_TIMEDOUT:
                return .failed("no data for \(limits.readTimeout) s (the read time limit): \(detail)", transient: false)
            case CURLE_PARTIAL_FILE:
                return .failed("the body was cut short after \(sink.bytes) bytes: \(detail)", transient: true)
            case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR:
                return .failed(detail, transient: true)
            default:
                return .failed(detail, transient: false)
            }
        }
        guard closed else { return .failed("cannot write \(file.path)", transient: false) }
        var status = 0
        _ = koten_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var typePointer: UnsafePointer<CChar>?
        let contentType = koten_curl_get_string(handle, CURLINFO_CONTENT_TYPE, &typePointer) == CURLE_OK
            ? typePointer.map { String(cString: $0) } : nil
        var effective: UnsafePointer<CChar>?
        let finalURL = koten_curl_get_string(handle, CURLINFO_EFFECTIVE_URL, &effective) == CURLE_OK
            ? effective.map { String(cString: $0) } ?? url : url
        var retryAfter: curl_off_t = 0
        let hasRetryAfter = koten_curl_get_offset(handle, CURLINFO_RETRY_AFTER, &retryAfter) == CURLE_OK && retryAfter > 0
        return .answered(Answer(status: status, contentType: contentType, bytes: sink.bytes, url: finalURL,
                                retryAfter: hasRetryAfter ? Double(retryAfter) : nil))
    }

    /// The body's destination: counts bytes and stops the transfer past the cap.
    private final class Sink {
        let stream: UnsafeMutablePointer<FILE>
        let limit: Int64
        var bytes: Int64 = 0
        var exceeded = false

        init(stream: UnsafeMutablePointer<FILE>, limit: Int64) {
            self.stream = stream
            self.limit = limit
        }

        /// libcurl's write callback: returning fewer bytes than given stops the transfer.
        static let write: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = { data, size, count, context in
            guard let data, let context else { return 0 }
            let sink = Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue()
            let length = size * count
            guard sink.bytes + Int64(length) <= sink.limit else {
                sink.exceeded = true
                return 0
            }
            let written = fwrite(data, 1, length, sink.stream)
            sink.bytes += Int64(written)
            return written
        }
    }
}

/// A request that failed: one line naming the address and the reason.
package struct HTTPError: Error, CustomStringConvertible, Sendable {
    package let url: String
    package let reason: String
    package var description: String { "\(reason) (\(url))" }
}

/// At most `perHost` requests in flight to one host at once, across every caller of one client.
package final class HostSlots: @unchecked Sendable {
    package static let perHost = 2
    private let condition = NSCondition()
    private var inFlight: [String: Int] = [:]
    /// The most requests seen in flight to one host at once (the tests read it).
    package private(set) var highWater = 0

    /// Runs `body` holding one of `host`'s slots, waiting for one first.
    package func withSlot<T>(_ host: String, _ body: () -> T) -> T {
        let key = host.lowercased()
        condition.lock()
        while inFlight[key, default: 0] >= Self.perHost { condition.wait() }
        inFlight[key, default: 0] += 1
        highWater = max(highWater, inFlight[key, default: 0])
        condition.unlock()
        defer {
            condition.lock()
            inFlight[key, default: 1] -= 1
            condition.broadcast()
            condition.unlock()
        }
        return body()
    }
}
