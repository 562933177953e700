import Foundation
import KotenOCRKit

/// An answer that refuses: its code (which carries its HTTP status and, for a refusal the metrics count, its
/// reason), a one-line message, and any headers it needs (`Allow`, `Retry-After`, `WWW-Authenticate`). Every error
/// the API gives is one of these, `{"error": "<code>", "message": "<one line>"}` (docs/serve.md, "API").
struct APIError: Error, Sendable {
    /// Every error code, with its status. The OpenAPI document lists, for each route, the codes it may answer.
    enum Code: String, Sendable, CaseIterable {
        case badPath = "bad_path", badOption = "bad_option", emptyBody = "empty_body", badBody = "bad_body"
        case manyPages = "many_pages"
        case unauthorised
        case crossOrigin = "cross_origin"
        case notFound = "not_found", pageFailed = "page_failed"
        case methodNotAllowed = "method_not_allowed"
        case notDone = "not_done"
        case tooLarge = "too_large", tooManyPages = "too_many_pages"
        case uriTooLong = "uri_too_long"
        case unsupportedType = "unsupported_type"
        case rangeNotSatisfiable = "range_not_satisfiable"
        case unknownHost = "unknown_host"
        case undecodable, tooManyPixels = "too_many_pixels", badZip = "bad_zip", noPages = "no_pages"
        case badManifest = "bad_manifest"
        case tooManyRequests = "too_many_requests"
        case headersTooLarge = "headers_too_large"
        case clientClosed = "client_closed"
        case `internal`
        case notImplemented = "not_implemented"
        case queueFull = "queue_full", memory
        case pageTimeout = "page_timeout"
        case preconditionFailed = "precondition_failed", preconditionRequired = "precondition_required"
        case invalidEdit = "invalid_edit"
        case diskFull = "disk_full"

        var status: Int {
            switch self {
            case .badPath, .badOption, .emptyBody, .badBody, .manyPages: 400
            case .unauthorised: 401
            case .crossOrigin: 403
            case .notFound, .pageFailed: 404
            case .methodNotAllowed: 405
            case .notDone: 409
            case .tooLarge, .tooManyPages: 413
            case .uriTooLong: 414
            case .unsupportedType: 415
            case .rangeNotSatisfiable: 416
            case .unknownHost: 421
            case .preconditionFailed: 412
            case .undecodable, .tooManyPixels, .badZip, .noPages, .badManifest, .invalidEdit: 422
            case .preconditionRequired: 428
            case .tooManyRequests: 429
            case .headersTooLarge: 431
            case .clientClosed: 499
            case .internal: 500
            case .notImplemented: 501
            case .queueFull, .memory: 503
            case .pageTimeout: 504
            case .diskFull: 507
            }
        }

        /// The reason `koten_refusals_total` counts it under, when it is a refusal the metrics count.
        var refusal: String? {
            switch self {
            case .tooLarge: "upload"
            case .unsupportedType: "type"
            case .unauthorised: "token"
            case .tooManyRequests: "client_rate"
            case .queueFull: "queue"
            case .badZip: "zip"
            case .memory: "memory"
            case .badManifest: "manifest"
            case .unknownHost: "host"
            case .crossOrigin: "origin"
            default: nil
            }
        }
    }

    let code: Code
    let message: String
    var headers: [(String, String)] = []

    init(_ code: Code, _ message: String, headers: [(String, String)] = []) {
        self.code = code
        self.message = message
        self.headers = headers
    }

    var status: Int { code.status }

    /// The answer: the error's JSON with its status and headers.
    var response: HTTPResponse {
        .json(status, ["error": code.rawValue, "message": message], headers: headers)
    }

    static func notAllowed(_ allowed: [String]) -> APIError {
        let list = allowed.joined(separator: ", ")
        return APIError(.methodNotAllowed, "this route takes \(list)", headers: [("Allow", list)])
    }

    static func queueFull(_ capacity: Int) -> APIError {
        APIError(.queueFull, "the queue is full (\(capacity) waiting)", headers: [("Retry-After", "5")])
    }
}

extension APIError {
    /// The answer for an error reading page `name` (or opening it): the time limit, a client gone, an image that
    /// cannot be read or is too large, the memory budget, or the server's own failure.
    init(reading error: Error, name: String, timeout: Double) {
        switch error {
        case is PageTimeout: self.init(.pageTimeout, "\(name): the page took longer than \(Int(timeout)) s (--page-timeout)")
        case is CancellationError: self.init(.clientClosed, "the client went away")
        case let e as PDFRefused: self.init(.undecodable, "\(name): \(e.reason)")
        case let e as ImageError:
            switch e {
            case .unsupportedFormat: self.init(.unsupportedType, ErrorText.line(e))
            case .tooLarge: self.init(.tooManyPixels, ErrorText.line(e))
            default: self.init(.undecodable, ErrorText.line(e))
            }
        case let e as ModelStoreError: self.init(.memory, ErrorText.line(e), headers: [("Retry-After", "5")])
        default: self.init(.internal, "\(name): \(ErrorText.line(error))")
        }
    }

    /// The answer for a refusal of the jobs wing.
    init(_ error: JobError) {
        switch error {
        case .unsupportedType(let m): self.init(.unsupportedType, m)
        case .badZip(let m): self.init(.badZip, m)
        case .unreadable(let name, let e): self.init(reading: e, name: name, timeout: 0)
        case .tooManyPages(let m): self.init(.tooManyPages, m)
        case .noPages(let m): self.init(.noPages, m)
        case .badManifest(let m): self.init(.badManifest, m)
        case .badOption(let m): self.init(.badOption, m)
        case .queueFull(let capacity): self = .queueFull(capacity)
        case .storage(let m): self.init(.internal, m)
        case .notFound(let m): self.init(.notFound, m)
        case .pageFailed(let m): self.init(.pageFailed, m)
        case .notDone(let m): self.init(.notDone, m)
        }
    }
}

/// A page that ran past `--page-timeout`.
struct PageTimeout: Error {}

extension HTTPResponse {
    /// `object` as JSON (keys sorted, slashes unescaped).
    static func json(_ status: Int, _ object: Any, headers: [(String, String)] = []) -> HTTPResponse {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return HTTPResponse(status: status, headers: [("Content-Type", "application/json; charset=utf-8")] + headers, body: .data(data))
    }
}
