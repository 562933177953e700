import Foundation

/// The seam between the HTTP library and the API: a request in (its body already streamed to files), a response
/// out. `MicroHTTPDServer` is the one implementation (libmicrohttpd); nothing else in this target names it.

/// One uploaded part of a `multipart/form-data` body, or the whole raw body: its bytes are in `file`
/// (a file in the request's own temporary folder, removed when the request ends).
package struct HTTPUpload: Sendable {
    /// The form field's name (`file`), or "" for a raw body.
    package let field: String
    /// The file name the client gave (only shown in results, never used as a path), or nil.
    package let fileName: String?
    /// The part's or body's content type (lowercased, parameters dropped), or nil.
    package let contentType: String?
    package let file: URL
    package let size: Int
}

/// A request whose body has been read whole (within the upload limit).
package struct HTTPRequest: Sendable {
    package let method: String
    /// The path, without the query.
    package let path: String
    /// Query parameters and (for multipart) form fields that are not files; the last value of a name wins.
    package let parameters: [String: String]
    /// Header names lowercased.
    package let headers: [String: String]
    /// The client's address as text.
    package let client: String
    /// The raw body or the multipart file parts, in the order they came.
    package let uploads: [HTTPUpload]
    /// A body that is neither multipart nor empty (raw upload) is in `uploads[0]` with `field` "".
    package var isMultipart: Bool { headers["content-type"]?.lowercased().hasPrefix("multipart/form-data") ?? false }
}

/// A response: status, headers and a body held in memory, read from a file, or streamed.
package struct HTTPResponse: Sendable {
    package enum Body: Sendable {
        case data(Data)
        /// The file's bytes (opened when the response is sent).
        case file(URL)
        /// Chunks as they come (Server-Sent Events); the response ends when the stream finishes.
        case stream(AsyncStream<Data>)
    }
    package var status: Int
    package var headers: [(String, String)]
    package var body: Body

    package init(status: Int, headers: [(String, String)] = [], body: Body = .data(Data())) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    package static func json(_ status: Int, _ object: Any, headers: [(String, String)] = []) -> HTTPResponse {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return HTTPResponse(status: status, headers: [("Content-Type", "application/json; charset=utf-8")] + headers, body: .data(data))
    }

    /// The API's error shape: `{"error": code, "message": one line}`.
    package static func error(_ status: Int, _ code: String, _ message: String, headers: [(String, String)] = []) -> HTTPResponse {
        json(status, ["error": code, "message": message], headers: headers)
    }
}

/// What the HTTP layer refuses itself, before a handler sees the request (the handler only names the answer).
package enum HTTPRefusal: Sendable {
    /// The body (declared by Content-Length, or counted as it streams) is over the limit.
    case tooLarge(limit: Int)
    /// The multipart body could not be parsed, or its files could not be stored.
    case badBody(String)
}

/// The API side of the seam.
package protocol HTTPHandler: Sendable {
    /// Answers a whole request. Runs on a Swift task, never on the HTTP library's threads; the task is cancelled
    /// when the client disconnects.
    func handle(_ request: HTTPRequest) async -> HTTPResponse
    /// Answers a request the HTTP layer refused (`headers`: the request's, lowercased).
    func refuse(_ refusal: HTTPRefusal, method: String, path: String, headers: [String: String]) -> HTTPResponse
    /// Called when a request (answered or not) ends: route and status, for metrics.
    func completed(method: String, path: String, status: Int, seconds: Double)
}

/// The HTTP layer's own settings.
package struct HTTPServerSettings: Sendable {
    package var host: String
    package var port: Int
    /// Largest body accepted, bytes.
    package var maxBody: Int
    /// Where each request's uploaded files go (one private folder per request, removed when it ends).
    package var uploadDirectory: URL
    package var threads = 4
    package var connectionLimit = 256
    /// libmicrohttpd closes a connection past this with no HTTP answer, so it is no per-client limit of the API
    /// (that is `--client-rate`'s 429 and the queue's 503): as high as `connectionLimit`, so a client's waiting
    /// requests are answered, never dropped (make bench-serve lost them at 32 and 64 clients with 32 here).
    package var perClientConnections = 256
    package var idleTimeoutSeconds = 60

    package init(host: String, port: Int, maxBody: Int, uploadDirectory: URL) {
        self.host = host
        self.port = port
        self.maxBody = maxBody
        self.uploadDirectory = uploadDirectory
    }
}
