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

/// A request: its head (method, target, headers, client), and once its body has been read whole (within the upload
/// limit) the body's files and form fields. The HTTP layer decodes nothing of the target: the API reads it.
package struct HTTPRequest: Sendable {
    package let method: String
    /// The request-target as the client sent it: the path and the query, still percent-encoded.
    package let target: String
    /// Header names lowercased.
    package let headers: [String: String]
    /// The client's address as text.
    package let client: String
    /// The form fields of a multipart body that are not files; the last value of a name wins.
    package var form: [String: String] = [:]
    /// The raw body or the multipart file parts, in the order they came (none in a request's head).
    package var uploads: [HTTPUpload] = []

    package init(method: String, target: String, headers: [String: String], client: String,
                 form: [String: String] = [:], uploads: [HTTPUpload] = []) {
        self.method = method
        self.target = target
        self.headers = headers
        self.client = client
        self.form = form
        self.uploads = uploads
    }

    /// A body that is neither multipart nor empty (raw upload) is in `uploads[0]` with `field` "".
    package var isMultipart: Bool { headers["content-type"]?.lowercased().hasPrefix("multipart/form-data") ?? false }
}

/// A response: status, headers and a body held in memory, read from a file, or streamed.
package struct HTTPResponse: Sendable {
    package enum Body: Sendable {
        case data(Data)
        /// The file's bytes from `offset`, `length` of them (all to its end when nil); opened when the response is sent.
        case file(URL, offset: Int64 = 0, length: Int64? = nil)
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
    /// Looks at a request's head (no byte of its body read, no `100 Continue` sent): an answer to send at once (the
    /// body is then neither read nor stored), or nil to read the body and `handle` the whole request.
    func screen(_ head: HTTPRequest) -> HTTPResponse?
    /// Answers a whole request. Runs on a Swift task, never on the HTTP library's threads; the task is cancelled
    /// when the client disconnects.
    func handle(_ request: HTTPRequest) async -> HTTPResponse
    /// Answers a request the HTTP layer refused (`head`: the request without its body).
    func refuse(_ refusal: HTTPRefusal, head: HTTPRequest) -> HTTPResponse
    /// Called when a request (answered or not) ends: its head and status (0: none was sent), for metrics.
    func completed(_ head: HTTPRequest, status: Int, seconds: Double)
}

/// The HTTP layer's own settings.
package struct HTTPServerSettings: Sendable {
    /// The addresses to listen on (IPv4 or IPv6 text, as `ListenAddresses.resolve` gives them), all on one port.
    package var addresses: [String]
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

    package init(addresses: [String], port: Int, maxBody: Int, uploadDirectory: URL) {
        self.addresses = addresses
        self.port = port
        self.maxBody = maxBody
        self.uploadDirectory = uploadDirectory
    }
}
