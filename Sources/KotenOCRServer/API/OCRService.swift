import Foundation
import KotenOCRKit

/// The API over one engine (docs/serve.md): the route table (API/Routes.swift) behind its wrappers (Host, CORS,
/// origin, token, metrics: API/Wrappers.swift), the limits (Limits/) and the jobs wing (Jobs/). One `KotenOCR` (one
/// model store, one budget) reads the pages of every request: `POST /v1/ocr` one page at a time (`EngineLane`),
/// jobs one at a time by `JobWorker` through the batch machinery.
package final class OCRService: HTTPHandler, @unchecked Sendable {
    let engine: KotenOCR
    let options: ServeOptions
    let queue: RequestQueue
    let clientRate: ClientRate
    let lane = EngineLane()
    let metrics = ServerMetrics()
    let store: JobStore
    let events: JobEvents
    let worker: JobWorker
    let intake: JobIntake
    /// The work directory's corpus: the pages read, their corrections and history, the search index (Corpus/).
    let corpus: JobCorpus
    let pdfGuard: (any PDFGuard)?
    /// The path the API's links start with (`--public-url`'s, without its last `/`; "" without one).
    let linkPrefix: String
    /// The route table, and the wrappers around every handler, in order.
    private(set) var table = RouteTable(routes: [])
    private(set) var wrappers: [any APIWrapper] = []
    /// `GET /openapi.json`, made once from the table.
    private(set) var openAPI = ""

    /// The formats a client may ask for.
    static let formats: [ResultFormat] = [.json, .txt, .alto, .pageXML, .hocr, .html, .pdf]

    package init(engine: KotenOCR, options: ServeOptions, token: String?, workDirectory: URL, pdfGuard: (any PDFGuard)?) throws {
        self.engine = engine
        self.options = options
        self.pdfGuard = pdfGuard
        queue = RequestQueue(capacity: options.queue)
        clientRate = ClientRate(perMinute: options.clientRate)
        linkPrefix = options.publicURL.map { url in url.path.hasSuffix("/") ? String(url.path.dropLast()) : url.path } ?? ""
        store = try JobStore(files: JobFiles(root: workDirectory))
        corpus = try JobCorpus(workDirectory: workDirectory)
        let prefix = linkPrefix
        events = JobEvents { job in
            (try? JSONSerialization.data(withJSONObject: JobJSON.status(job, linkPrefix: prefix), options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        }
        let metrics = self.metrics
        worker = JobWorker(store: store, events: events, engine: engine, queue: queue, pdfGuard: pdfGuard,
                           corpus: corpus, pageTimeout: options.pageTimeout) { outcome in
            switch outcome {
            case .read(let seconds): metrics.pageRead(seconds: seconds)
            case .failed: metrics.pageFailed()
            }
        }
        intake = JobIntake(store: store, worker: worker, engine: engine, queue: queue, pdfGuard: pdfGuard,
                           maxPages: options.maxPages, maxUpload: options.maxUpload)
        for _ in 0..<store.load() { _ = queue.reserve(force: true) }
        worker.syncCorpus(store.all())
        table = RouteTable(routes: routes)
        let names = options.allowHosts + [options.publicURL?.host].compactMap { $0 }
            + (ListenAddresses.isNumeric(options.host) ? [] : [options.host])
        let publicOrigin = options.publicURL.map { "\($0.scheme ?? "http")://\($0.host ?? "")" + ($0.port.map { ":\($0)" } ?? "") }
        wrappers = [HostCheck(names: names), CORS(origin: options.corsOrigin),
                    OriginCheck(allowed: [publicOrigin, options.corsOrigin].compactMap { $0 }),
                    TokenCheck(token: token.map { Array($0.utf8) }), RequestMetrics(metrics: metrics, table: table)]
        openAPI = OpenAPI.document(routes: table.routes, wrappers: wrappers, secured: token != nil,
                                   serverURL: linkPrefix.isEmpty ? nil : linkPrefix)
    }

    /// Starts the job worker (unfinished jobs found in the work directory first).
    package func start() { worker.start() }

    // MARK: HTTPHandler

    /// The most bytes of headers a request may have (names and values); libmicrohttpd refuses more than its memory
    /// with its own answer (docs/serve.md, "What is refused").
    static let maxHeaderBytes = 32 * 1024

    /// Reads the head: its target and headers, the route of its path; then each wrapper's check, then the route's
    /// method. An answer here is sent before the body is read.
    package func screen(_ head: HTTPRequest) -> HTTPResponse? {
        if case .answer(let response) = prepare(head) { return response }
        return nil
    }

    package func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let head: RequestHead, route: Route
        switch prepare(request) {
        case .answer(let response): return response
        case .route(let h, let r): (head, route) = (h, r)
        }
        var parameters = head.target.query
        for (name, value) in request.form { parameters[name] = value }
        let call = APIRequest(http: request, path: head.match?.parameters ?? [:], parameters: parameters)
        var response: HTTPResponse
        do {
            response = try await route.handler(call)
        } catch let error as APIError {
            response = answer(error)
        } catch {
            response = answer(APIError(.internal, ErrorText.line(error)))
        }
        if call.isHead, case .stream = response.body { response.body = .data(Data()) }
        finish(&response, head)
        return response
    }

    package func refuse(_ refusal: HTTPRefusal, head: HTTPRequest) -> HTTPResponse {
        let error: APIError
        switch refusal {
        case .tooLarge(let limit):
            error = APIError(.tooLarge, "the request body is over the upload limit of \(limit) bytes (--max-upload)", headers: [("Connection", "close")])
        case .badBody(let reason):
            error = APIError(.badBody, reason)
        }
        var response = answer(error)
        if let target = try? RequestTarget(head.target) {
            finish(&response, RequestHead(http: head, target: target, match: table.lookup(target.segments)))
        }
        return response
    }

    package func completed(_ head: HTTPRequest, status: Int, seconds: Double) {
        for wrapper in wrappers { wrapper.completed(head, status: status, seconds: seconds) }
    }

    /// The head read and checked: the route to call, or the answer instead.
    private enum Prepared { case route(RequestHead, Route), answer(HTTPResponse) }

    private func prepare(_ request: HTTPRequest) -> Prepared {
        let target: RequestTarget
        do {
            let headerBytes = request.headers.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
            guard headerBytes <= Self.maxHeaderBytes else {
                throw APIError(.headersTooLarge, "the request's headers are \(headerBytes) bytes, more than \(Self.maxHeaderBytes)")
            }
            target = try RequestTarget(request.target)
        } catch let error as APIError {
            return .answer(answer(error))
        } catch {
            return .answer(answer(APIError(.internal, "\(error)")))
        }
        let head = RequestHead(http: request, target: target, match: table.lookup(target.segments))
        func instead(_ response: HTTPResponse) -> Prepared {
            var response = response
            finish(&response, head)
            return .answer(response)
        }
        guard HTTPMethods.known.contains(request.method) else {
            return instead(answer(APIError(.notImplemented, "this server does not know the method \(request.method.prefix(20))")))
        }
        for wrapper in wrappers {
            do {
                if let response = try wrapper.screen(head) { return instead(response) }
            } catch {
                return instead(answer(error))
            }
        }
        guard let match = head.match else {
            return instead(answer(APIError(.notFound, "no such route: \(request.target.prefix(200))")))
        }
        guard let route = match.route(for: request.method) else { return instead(answer(.notAllowed(match.allowed))) }
        return .route(head, route)
    }

    /// An error's answer; a refusal is counted (`koten_refusals_total`).
    func answer(_ error: APIError) -> HTTPResponse {
        if let reason = error.code.refusal { metrics.refused(reason) }
        return error.response
    }

    private func finish(_ response: inout HTTPResponse, _ head: RequestHead) {
        for wrapper in wrappers { wrapper.finish(&response, head: head) }
    }
}
