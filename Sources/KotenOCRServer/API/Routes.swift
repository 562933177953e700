import Foundation
import KotenOCRKit

/// The route table: every route of the server, once, with what the OpenAPI document says of it and its handler.
/// The router, the metrics' labels and `/openapi.json` are all made from this list; a new route is one entry here
/// (and its handler). Every GET route answers HEAD too; the wrappers (Host, CORS, origin, token, metrics) are
/// around every handler, and add their errors to the document.
extension OCRService {
    var routes: [Route] {
        typealias Answer = OperationDoc.Answer
        let json = "application/json"
        let job = OpenAPISchemas.ref("Job")
        let ifMatch = OperationDoc.Parameter(name: "If-Match", description: "the page's ETag (its revision) as last read: 428 without it, 412 when the page changed since",
                                             schema: ["type": "string"])
        let pageTypes: [String: JSON] = [json: OpenAPISchemas.ref("Page"), "text/plain": ["type": "string"],
                                         "application/xml": ["type": "string"], "text/html": ["type": "string"]]
        return [
            Route("GET", "/", .open, OperationDoc(summary: "the web app", answers: [Answer(status: 200, description: "its page", content: ["text/html": ["type": "string"]])])) { _ in
                Self.text(WebApp.html, type: "text/html; charset=utf-8")
            },
            Route("GET", "/app.css", .open, OperationDoc(summary: "the web app's style", answers: [Answer(status: 200, description: "CSS", content: ["text/css": ["type": "string"]])])) { _ in
                Self.text(WebApp.stylesheet, type: "text/css; charset=utf-8")
            },
            Route("GET", "/app.js", .open, OperationDoc(summary: "the web app's script", answers: [Answer(status: 200, description: "JavaScript", content: ["text/javascript": ["type": "string"]])])) { _ in
                Self.text(WebApp.script, type: "text/javascript; charset=utf-8")
            },
            Route("GET", "/healthz", .open, OperationDoc(summary: "liveness: the process serves", answers: [
                Answer(status: 200, description: "{\"status\":\"ok\"}", content: [json: OpenAPISchemas.ref("Health")]),
            ])) { _ in .json(200, ["status": "ok"]) },
            Route("GET", "/readyz", .open, OperationDoc(summary: "readiness: the queue is not full (the models were checked within the budget at start-up)", answers: [
                Answer(status: 200, description: "ready", content: [json: OpenAPISchemas.ref("Ready")]),
                Answer(status: 503, description: "not ready, with the reasons", content: [json: OpenAPISchemas.ref("Ready")]),
            ])) { [self] _ in ready() },
            Route("GET", "/openapi.json", .open, OperationDoc(summary: "this document", answers: [
                Answer(status: 200, description: "OpenAPI 3.0", content: [json: ["type": "object"]]),
            ])) { [self] _ in Self.text(openAPI, type: "application/json") },
            Route("GET", "/metrics", OperationDoc(summary: "Prometheus text", answers: [
                Answer(status: 200, description: "the counters and gauges (docs/serve.md)", content: ["text/plain": ["type": "string"]]),
            ])) { [self] _ in await metricsText() },
            Route("GET", "/v1/status", OperationDoc(summary: "version, mode, queue, budget, models, jobs", answers: [
                Answer(status: 200, description: "the server's status", content: [json: OpenAPISchemas.ref("Status")]),
            ])) { [self] _ in status() },
            Route("POST", "/v1/ocr", OperationDoc(
                summary: "read one page", parameters: engineParameters + [formatParameter(Self.formats)], takesUpload: true,
                answers: [Answer(status: 200, description: "the page's JSON (docs/json-schema.md) or the format asked for",
                                 content: pageTypes.merging(["application/pdf": ["type": "string", "format": "binary"]]) { a, _ in a })],
                errors: [.badOption, .emptyBody, .manyPages, .unsupportedType, .undecodable, .tooManyPixels, .tooManyRequests,
                         .queueFull, .memory, .pageTimeout])) { [self] in try await ocr($0) },
            Route("POST", "/v1/jobs", OperationDoc(
                summary: "a job of images, PDFs, multi-page TIFFs or zips of images, or of a IIIF manifest's canvases",
                parameters: engineParameters + [OperationDoc.Parameter(
                    name: "manifest", description: "the http(s) URL of a IIIF Presentation 2.1 or 3.0 manifest (also as a form field): the job reads its canvases, each image fetched just before it is read; no file then",
                    schema: ["type": "string", "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://"])],
                takesUpload: true,
                answers: [Answer(status: 202, description: "the job, queued (its pages: GET its link)", content: [json: OpenAPISchemas.ref("JobAccepted")],
                                 headers: ["Location": "the job's URL"])],
                errors: [.badOption, .emptyBody, .unsupportedType, .undecodable, .tooManyPixels, .badZip, .noPages, .badManifest,
                         .tooManyPages, .tooManyRequests, .queueFull, .memory, .internal])) { [self] in try await submit($0) },
            Route("GET", "/v1/jobs/{id}", OperationDoc(summary: "the job's state and progress, and its proofreading figures", answers: [
                Answer(status: 200, description: "the job", content: [json: job]),
            ], errors: [.notFound])) { [self] in try await jobStatus($0) },
            Route("DELETE", "/v1/jobs/{id}", OperationDoc(summary: "cancel the job and remove it with its files", answers: [
                Answer(status: 204, description: "removed"),
            ], errors: [.notFound])) { [self] in try await delete($0) },
            Route("GET", "/v1/jobs/{id}/events", OperationDoc(summary: "Server-Sent Events: `progress` (the job) at each change, then `end`", answers: [
                Answer(status: 200, description: "the event stream: each event `progress` or `end`, its data the job (JSON)",
                       content: ["text/event-stream": OpenAPISchemas.ref("JobEvent")]),
            ], errors: [.notFound])) { [self] in try events($0) },
            Route("GET", "/v1/jobs/{id}/pages/{n}", OperationDoc(
                summary: "a page's result in a format (not pdf: a page's PDF is part of the job's, GET its result); in JSON (the default) with its correction layer, its ETag the page's revision",
                parameters: [formatParameter(Self.formats.filter { $0 != .pdf }), Self.textParameter],
                answers: [Answer(status: 200, description: "the page in the format", content: pageTypes.merging([json: OpenAPISchemas.ref("ProofreadPage")]) { _, b in b })],
                errors: [.badOption, .notFound, .pageFailed, .internal], conditional: true)) { [self] request in
                (request.parameters["format"] ?? "json").lowercased() == "json" ? try await proofreadPage(request) : try await page(request)
            },
            Route("PATCH", "/v1/jobs/{id}/pages/{n}", OperationDoc(
                summary: "correct a page: line texts, lines marked as not text, its state; only if If-Match is its ETag (docs/serve.md: Proofreading)",
                headers: [ifMatch], jsonBody: OpenAPISchemas.ref("PageEdit"),
                answers: [Answer(status: 200, description: "the page as it is now, its new ETag", content: [json: OpenAPISchemas.ref("ProofreadPage")],
                                 headers: ["ETag": "the page's revision"])],
                errors: [.emptyBody, .notFound, .pageFailed, .preconditionFailed, .preconditionRequired, .invalidEdit, .diskFull, .internal])) { [self] in
                try await patchPage($0)
            },
            Route("POST", "/v1/jobs/{id}/pages/{n}/lines", OperationDoc(
                summary: "add a line: the region drawn is read by the engine now and added (its modelText); only if If-Match is the page's ETag",
                headers: [ifMatch], jsonBody: OpenAPISchemas.ref("LineDrawn"),
                answers: [Answer(status: 201, description: "the page as it is now (`line`: the new line's id), its new ETag",
                                 content: [json: OpenAPISchemas.ref("ProofreadPage")], headers: ["ETag": "the page's revision", "Location": "the page's URL"])],
                errors: [.emptyBody, .badOption, .notFound, .pageFailed, .preconditionFailed, .preconditionRequired, .invalidEdit, .diskFull,
                         .queueFull, .memory, .pageTimeout, .clientClosed, .undecodable, .unsupportedType, .tooManyPixels, .internal])) { [self] in
                try await addLine($0)
            },
            Route("GET", "/v1/jobs/{id}/pages/{n}/history", OperationDoc(summary: "the page's changes, oldest first", answers: [
                Answer(status: 200, description: "the history", content: [json: OpenAPISchemas.ref("History")]),
            ], errors: [.notFound, .pageFailed, .internal])) { [self] in try await pageHistory($0) },
            Route("GET", "/v1/search", OperationDoc(
                summary: "every occurrence of a text in the current and the engine's text of every page read (旧字体 and 新字体 alike)",
                parameters: [OperationDoc.Parameter(name: "q", description: "the text (1 to 200 characters)", schema: ["type": "string", "minLength": 1, "maxLength": 200]),
                             OperationDoc.Parameter(name: "job", description: "only this job's pages", schema: PathParameter.id.schema),
                             OperationDoc.Parameter(name: "limit", description: "at most this many hits (default 20)", schema: ["type": "integer", "minimum": 1, "maximum": 1000]),
                             OperationDoc.Parameter(name: "offset", description: "hits skipped first (default 0)", schema: ["type": "integer", "minimum": 0, "maximum": 1_000_000])],
                answers: [Answer(status: 200, description: "the hits", content: [json: OpenAPISchemas.ref("SearchResults")])],
                errors: [.badOption, .notFound, .internal])) { [self] in try await search($0) },
            Route("GET", "/v1/jobs/{id}/pages/{n}/image", OperationDoc(summary: "the page image as read (upright), JPEG; a IIIF canvas's is the library's", answers: [
                Answer(status: 200, description: "the upright page", content: ["image/jpeg": ["type": "string", "format": "binary"]]),
                Answer(status: 303, description: "a canvas's image, at the library", headers: ["Location": "the image's URL"]),
            ], errors: [.notFound, .pageFailed, .internal], conditional: true)) { [self] in try image($0) },
            Route("GET", "/v1/jobs/{id}/result", OperationDoc(
                summary: "the job's result once it is done: pdf (the default) one searchable PDF of every page; txt the whole text, each page followed by a form feed (U+000C); <format>-zip (or json, alto, page, hocr, html) a zip of the pages' files (0001.json, …)",
                parameters: [OperationDoc.Parameter(name: "format", description: "pdf, txt (the whole text) or a zip of the pages' files (docs/serve.md)",
                                                    schema: ["type": "string", "enum": .strings(ResultDownload.names)]),
                             Self.textParameter],
                answers: [Answer(status: 200, description: "application/pdf, text/plain or application/zip, named after the job (Content-Disposition)",
                                 content: ["application/pdf": ["type": "string", "format": "binary"], "application/zip": ["type": "string", "format": "binary"],
                                           "text/plain": ["type": "string"]],
                                 headers: ["Content-Disposition": "attachment; the file name"])],
                errors: [.badOption, .notFound, .notDone, .internal], conditional: true)) { [self] in try await result($0) },
        ]
    }

    static func text(_ text: String, type: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", type)], body: .data(Data(text.utf8)))
    }

    private func ready() -> HTTPResponse {
        var reasons: [String] = []
        if queue.isFull { reasons.append("the queue is full") }
        return .json(reasons.isEmpty ? 200 : 503, ["ready": reasons.isEmpty, "reasons": reasons])
    }

    private func status() -> HTTPResponse {
        let states = engine.store.states()
        let counts = store.counts()
        return .json(200, [
            "version": KotenOCR.version, "mode": engine.configuration.mode.rawValue,
            "queue": ["depth": queue.depth, "capacity": queue.capacity],
            "budgetBytes": engine.store.budgetBytes, "usedBytes": ProcessMemory.residentBytes(),
            "models": states.keys.sorted().map { ["name": $0, "state": states[$0]?.rawValue ?? "unloaded"] },
            "jobs": ["queued": counts.queued, "running": counts.running, "done": counts.done],
        ])
    }

    private func metricsText() async -> HTTPResponse {
        var gauges = ServerMetrics.Gauges(queueDepth: queue.depth, queueCapacity: queue.capacity, budgetBytes: engine.store.budgetBytes,
                                          models: engine.store.states().mapValues(\.rawValue), jobs: store.counts())
        let corpus = self.corpus, jobs = store.all().map(\.id)
        if let t = try? await JobCorpus.run({ corpus.totals(jobs: jobs) }) {
            gauges.proofreading = (t.pagesProofread, t.linesCorrected, t.characters, t.modelCER)
        }
        return Self.text(metrics.text(gauges), type: "text/plain; version=0.0.4; charset=utf-8")
    }
}
