import Foundation
import KotenOCRKit

/// The API over one engine (docs/serve.md): every route, the token, CORS, the queue and the per-client limit.
/// One `KotenOCR` (one model store, one budget) reads the pages of every request: `POST /v1/ocr` one page at a
/// time (`EngineLane`), jobs one at a time by `JobStore`'s worker through the batch machinery.
package final class OCRService: HTTPHandler, @unchecked Sendable {
    let engine: KotenOCR
    let options: ServeOptions
    let token: [UInt8]?
    let admission: Admission
    let lane = EngineLane()
    let metrics = ServerMetrics()
    let jobs: JobStore
    let pdfGuard: (any PDFGuard)?

    /// The formats a client may ask for.
    static let formats: [ResultFormat] = [.json, .txt, .alto, .pageXML, .hocr, .html, .pdf]

    package init(engine: KotenOCR, options: ServeOptions, token: String?, workDirectory: URL, pdfGuard: (any PDFGuard)?) throws {
        self.engine = engine
        self.options = options
        self.token = token.map { Array($0.utf8) }
        self.pdfGuard = pdfGuard
        admission = Admission(capacity: options.queue, clientRate: options.clientRate)
        jobs = try JobStore(root: workDirectory, engine: engine, admission: admission, pdfGuard: pdfGuard, metrics: metrics,
                            pageTimeout: options.pageTimeout)
    }

    /// Starts the job worker (unfinished jobs found in the work directory first).
    package func start() { jobs.start() }

    // MARK: HTTPHandler

    package func handle(_ request: HTTPRequest) async -> HTTPResponse {
        var response = await route(request)
        response.headers += corsHeaders(request.headers)
        return response
    }

    package func refuse(_ refusal: HTTPRefusal, method: String, path: String, headers: [String: String]) -> HTTPResponse {
        var response: HTTPResponse
        switch refusal {
        case .tooLarge(let limit):
            metrics.refused("upload")
            response = .error(413, "too_large", "the request body is over the upload limit of \(limit) bytes (--max-upload)",
                              headers: [("Connection", "close")])
        case .badBody(let reason):
            response = .error(400, "bad_body", reason)
        }
        response.headers += corsHeaders(headers)
        return response
    }

    package func completed(method: String, path: String, status: Int, seconds: Double) {
        metrics.request(route: Self.routeName(method: method, path: path), status: status, seconds: seconds)
    }

    private func corsHeaders(_ headers: [String: String]) -> [(String, String)] {
        guard let origin = options.corsOrigin, headers["origin"] == origin else { return [] }
        return [("Access-Control-Allow-Origin", origin), ("Vary", "Origin")]
    }

    /// Constant-time comparison of the request's Bearer token with the server's.
    private func authorised(_ headers: [String: String]) -> Bool {
        guard let token else { return true }
        let given = Array((headers["authorization"] ?? "").utf8)
        let expected = Array("Bearer ".utf8) + token
        var difference = UInt8(given.count == expected.count ? 0 : 1)
        for i in 0..<expected.count { difference |= expected[i] ^ (i < given.count ? given[i] : 0) }
        return difference == 0
    }

    // MARK: routes

    static func routeName(method: String, path: String) -> String {
        let parts = path.split(separator: "/").map(String.init)
        if parts.count >= 3, parts[0] == "v1", parts[1] == "jobs" {
            return method + " /v1/jobs/{id}" + (parts.count > 3 ? "/" + parts[3...].enumerated().map { $0.offset == 1 && parts[3] == "pages" ? "{n}" : $0.element }.joined(separator: "/") : "")
        }
        let known = ["/", "/app.css", "/app.js", "/healthz", "/readyz", "/metrics", "/openapi.json", "/v1/status", "/v1/ocr", "/v1/jobs"]
        return method + " " + (known.contains(path) ? path : "other")
    }

    private func route(_ request: HTTPRequest) async -> HTTPResponse {
        let path = request.path, method = request.method
        if method == "OPTIONS", let origin = options.corsOrigin, request.headers["origin"] == origin {
            return HTTPResponse(status: 204, headers: [("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS"),
                                                       ("Access-Control-Allow-Headers", "Authorization, Content-Type"),
                                                       ("Access-Control-Max-Age", "600")])
        }
        switch path {
        case "/": return await get(method) { .init(status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: .data(Data(WebApp.html.utf8))) }
        case "/app.css": return await get(method) { .init(status: 200, headers: [("Content-Type", "text/css; charset=utf-8")], body: .data(Data(WebApp.css.utf8))) }
        case "/app.js": return await get(method) { .init(status: 200, headers: [("Content-Type", "text/javascript; charset=utf-8")], body: .data(Data(WebApp.js.utf8))) }
        case "/healthz": return await get(method) { .json(200, ["status": "ok"]) }
        case "/readyz": return await get(method) { self.ready() }
        case "/openapi.json": return await get(method) { .init(status: 200, headers: [("Content-Type", "application/json")], body: .data(Data(OpenAPI.document.utf8))) }
        default: break
        }
        guard authorised(request.headers) else {
            metrics.refused("token")
            return .error(401, "unauthorised", "a valid `Authorization: Bearer <token>` header is required", headers: [("WWW-Authenticate", "Bearer")])
        }
        switch path {
        case "/metrics": return await get(method) { await self.metrics.text(self) }
        case "/v1/status": return await get(method) { await self.status() }
        case "/v1/ocr":
            guard method == "POST" else { return Self.notAllowed("POST") }
            return await ocr(request)
        case "/v1/jobs":
            guard method == "POST" else { return Self.notAllowed("POST") }
            return await jobs.submit(request, service: self)
        default:
            let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            if parts.count >= 4, parts[0] == "", parts[1] == "v1", parts[2] == "jobs" {
                return await jobs.route(request, id: parts[3], rest: Array(parts.dropFirst(4)))
            }
            return .error(404, "not_found", "no such route: \(path.prefix(200))")
        }
    }

    private func get(_ method: String, _ answer: () async -> HTTPResponse) async -> HTTPResponse {
        guard method == "GET" || method == "HEAD" else { return Self.notAllowed("GET") }
        return await answer()
    }

    static func notAllowed(_ allowed: String) -> HTTPResponse {
        .error(405, "method_not_allowed", "this route takes \(allowed)", headers: [("Allow", allowed)])
    }

    private func ready() -> HTTPResponse {
        var reasons: [String] = []
        if admission.depth >= admission.capacity { reasons.append("the queue is full") }
        return .json(reasons.isEmpty ? 200 : 503, ["ready": reasons.isEmpty, "reasons": reasons])
    }

    private func status() async -> HTTPResponse {
        let states = engine.store.states()
        let counts = jobs.counts()
        return .json(200, [
            "version": KotenOCR.version, "mode": engine.configuration.mode.rawValue,
            "queue": ["depth": admission.depth, "capacity": admission.capacity],
            "budgetBytes": engine.store.budgetBytes, "usedBytes": ProcessMemory.residentBytes(),
            "models": states.keys.sorted().map { ["name": $0, "state": states[$0]?.rawValue ?? "unloaded"] },
            "jobs": ["queued": counts.queued, "running": counts.running, "done": counts.done],
        ])
    }

    // MARK: options

    struct RequestOptions {
        var format = ResultFormat.json
        var ruby = ResultFormat.RubyStyle.drop
    }

    /// The request's options. The engine's (mode, reading order, page rotation, line confidence) are the server's:
    /// a request may name them only with the server's values. Throws a 400 response.
    func requestOptions(_ p: [String: String], allowFormat: Bool) throws(ResponseError) -> RequestOptions {
        var o = RequestOptions()
        let config = engine.configuration
        func bad(_ text: String) -> ResponseError { ResponseError(.error(400, "bad_option", text)) }
        if let v = p["format"] {
            guard allowFormat else { throw bad("format is chosen when a job's result is fetched, not when it is posted") }
            guard let f = ResultFormat(rawValue: v.lowercased()), Self.formats.contains(f) else {
                throw bad("format must be one of \(Self.formats.map(\.rawValue).joined(separator: ", ")), not '\(v.prefix(40))'")
            }
            o.format = f
        }
        if let v = p["ruby"] {
            guard let r = ResultFormat.RubyStyle(rawValue: v) else { throw bad("ruby must be drop, separate or inline, not '\(v.prefix(40))'") }
            o.ruby = r
        }
        if let v = p["mode"] {
            guard let m = OCRMode(rawValue: v) else { throw bad("mode must be one of \(OCRMode.allCases.map(\.rawValue).joined(separator: ", ")), not '\(v.prefix(40))'") }
            guard m == config.mode else { throw bad("this server reads mode \(config.mode.rawValue) (koten-ocr serve --mode)") }
        }
        if let v = p["reading-order"] {
            guard let s = OCRConfiguration.ReadingOrderStyle(rawValue: v) else { throw bad("reading-order must be page or ndl, not '\(v.prefix(40))'") }
            guard s == config.readingOrder else { throw bad("this server's reading order is \(config.readingOrder.rawValue)") }
        }
        if let v = p["page-rotation"] {
            let given: PageRotation?? = v == "auto" ? .some(nil) : Int(v).flatMap(PageRotation.init(degrees:)).map { .some($0) }
            guard let given else { throw bad("page-rotation must be auto, 0, 90, 180 or 270, not '\(v.prefix(40))'") }
            guard given == config.pageRotation else { throw bad("this server's page rotation is \(config.pageRotation.map { String($0.rawValue) } ?? "auto")") }
        }
        if let v = p["min-line-confidence"] {
            guard let c = Float(v), c >= 0, c <= 1 else { throw bad("min-line-confidence needs a number from 0 to 1, not '\(v.prefix(40))'") }
            guard c == config.ppocrMinLineConfidence else { throw bad("this server's min-line-confidence is \(config.ppocrMinLineConfidence)") }
        }
        return o
    }

    /// The file of a request: multipart field `file`, or the raw body. Throws 400 (none, empty) or 415.
    func uploads(_ request: HTTPRequest) throws(ResponseError) -> [HTTPUpload] {
        let files = request.isMultipart ? request.uploads.filter { $0.field == "file" } : request.uploads
        guard !files.isEmpty, files.allSatisfy({ $0.size > 0 }) else {
            throw ResponseError(.error(400, "empty_body", request.isMultipart ? "no file in form field 'file' (or an empty one)" : "the request has no body"))
        }
        for file in files where !UploadKind.acceptsDeclared(file.contentType) {
            metrics.refused("type")
            throw ResponseError(.error(415, "unsupported_type", "\(file.contentType ?? "?") is not an image, PDF, TIFF or zip"))
        }
        return files
    }

    // MARK: POST /v1/ocr

    private func ocr(_ request: HTTPRequest) async -> HTTPResponse {
        guard admission.admit(client: request.client) else {
            metrics.refused("client_rate")
            return .error(429, "too_many_requests", "more than \(options.clientRate) OCR requests a minute from this client", headers: [("Retry-After", "60")])
        }
        let chosen: RequestOptions, upload: HTTPUpload
        do {
            chosen = try requestOptions(request.parameters, allowFormat: true)
            guard let first = try uploads(request).first else { return .error(400, "empty_body", "no file") }
            upload = first
        } catch {
            return error.response
        }
        guard let kind = UploadKind.sniff(upload.file), kind != .zip else {
            metrics.refused("type")
            return .error(415, "unsupported_type", "the body is not an image or PDF this server reads (POST a zip to /v1/jobs)")
        }
        guard admission.reserve() else {
            metrics.refused("queue")
            return .error(503, "queue_full", "the queue is full (\(admission.capacity) waiting)", headers: [("Retry-After", "5")])
        }
        defer { admission.release() }
        let name = upload.fileName.map { String($0.prefix(200)) } ?? "upload.\(kind.fileExtension)"
        if kind == .pdf, let pdfGuard {
            do { try pdfGuard.check(FileSystemPath(upload.file.path)) } catch {
                return .error(422, "undecodable", "\(name): \(error)")
            }
        }
        await lane.acquire()
        defer { Task { await lane.release() } }
        if Task.isCancelled { return .error(499, "client_closed", "the client went away") }
        let started = Date()
        do {
            let data = try Data(contentsOf: upload.file)
            let source = try engine.open(data, name: name)
            if source.pageCount > 1 {
                return .error(400, "many_pages", "\(name) has \(source.pageCount) pages: POST it to /v1/jobs")
            }
            let page = try await withPageTimeout { try await self.engine.read(source) }
            metrics.pageRead(seconds: Date().timeIntervalSince(started))
            let format = chosen.format
            let body = format.isText ? try format.renderForStream(page, image: source, ruby: chosen.ruby)
                                     : try format.render(page, image: source, ruby: chosen.ruby)
            return HTTPResponse(status: 200, headers: [("Content-Type", Self.contentType(format))], body: .data(body))
        } catch {
            metrics.pageFailed()
            if error is ModelStoreError { metrics.refused("memory") }
            return Self.failure(error, name: name, timeout: options.pageTimeout)
        }
    }

    struct PageTimeout: Error {}

    /// Runs `read` under the page time limit: past it the read is cancelled and `PageTimeout` thrown.
    func withPageTimeout<T: Sendable>(_ read: @escaping @Sendable () async throws -> T) async throws -> T {
        let limit = options.pageTimeout
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await read() }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(limit * 1e9))
                throw PageTimeout()
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw PageTimeout() }
            return value
        }
    }

    /// The answer for an error reading a page.
    static func failure(_ error: Error, name: String, timeout: Double) -> HTTPResponse {
        switch error {
        case is PageTimeout: return .error(504, "page_timeout", "\(name): the page took longer than \(Int(timeout)) s (--page-timeout)")
        case is CancellationError: return .error(499, "client_closed", "the client went away")
        case let e as ImageError:
            if case .unsupportedFormat = e { return .error(415, "unsupported_type", ErrorText.line(e)) }
            if case .tooLarge = e { return .error(422, "too_many_pixels", ErrorText.line(e)) }
            return .error(422, "undecodable", ErrorText.line(e))
        case let e as ModelStoreError: return .error(503, "memory", ErrorText.line(e), headers: [("Retry-After", "5")])
        default: return .error(500, "internal", "\(name): \(ErrorText.line(error))")
        }
    }

    static func contentType(_ format: ResultFormat) -> String {
        switch format {
        case .json: "application/json; charset=utf-8"
        case .txt: "text/plain; charset=utf-8"
        case .alto, .pageXML: "application/xml; charset=utf-8"
        case .hocr, .html: "text/html; charset=utf-8"
        case .pdf: "application/pdf"
        default: "application/octet-stream"
        }
    }
}

/// A response thrown by a step that refuses the request.
struct ResponseError: Error {
    let response: HTTPResponse
    init(_ response: HTTPResponse) { self.response = response }
}
