import Foundation
import KotenOCRCorpus
import KotenOCRKit

/// The proofreading routes (docs/serve.md, "Proofreading"): a page's JSON with its correction layer, edits under
/// `If-Match` (compare-and-swap on the page's revision), lines a user draws read by the engine, a page's history,
/// and search over every page read. Over the corpus (Corpus/JobCorpus).
extension OCRService {
    /// `GET /v1/jobs/{id}/pages/{n}` in JSON: the page with its correction layer; `ETag` its revision.
    func proofreadPage(_ request: APIRequest) async throws -> HTTPResponse {
        let (job, n) = try donePage(request)
        let page = try await corpusPage(job, n)
        let etag = Self.etag(page.revision)
        if let tags = request.headers["if-none-match"], tags.split(separator: ",").contains(where: {
            let t = $0.trimmingCharacters(in: .whitespaces)
            return t == "*" || (t.hasPrefix("W/") ? String(t.dropFirst(2)) : t) == etag
        }) {
            return HTTPResponse(status: 304, headers: [("ETag", etag), ("Cache-Control", "no-cache")])
        }
        return pageAnswer(200, page, job, n)
    }

    /// `PATCH /v1/jobs/{id}/pages/{n}`: line texts, lines marked as not text (or text again), the page's state.
    func patchPage(_ request: APIRequest) async throws -> HTTPResponse {
        let (job, n) = try donePage(request)
        let revision = try ifMatch(request)
        let body = try jsonBody(request, as: PageEditBody.self)
        var edits: [LineEdit] = []
        for line in body.lines ?? [] {
            guard line.text != nil || line.deleted != nil else { throw APIError(.badBody, "line \(line.id.prefix(40)) has neither `text` nor `deleted`") }
            if let text = line.text { edits.append(.text(id: line.id, text)) }
            if let deleted = line.deleted { edits.append(.deleted(id: line.id, deleted)) }
        }
        let state = body.state
        let who = request.client, corpus = self.corpus, id = job.id, edited = edits, newState = state
        let page = try await Self.corpusCall { try corpus.update(job: id, page: n, ifRevision: revision, edits: edited, state: newState, by: who) }
        return pageAnswer(200, page, job, n)
    }

    /// `POST /v1/jobs/{id}/pages/{n}/lines`: a region drawn on the page, read now by the engine (through the queue,
    /// one page at a time as `POST /v1/ocr`, within the page time limit) and added as a line.
    func addLine(_ request: APIRequest) async throws -> HTTPResponse {
        let (job, n) = try donePage(request)
        let revision = try ifMatch(request)
        let body = try jsonBody(request, as: LineDrawnBody.self)
        let before = try await corpusPage(job, n)
        let (box, polygon) = try Self.region(body, width: before.width, height: before.height)
        let orientation = body.orientation?.rawValue
        guard before.revision == revision else { throw Self.stale(before.revision) }  // no reading for a stale page
        guard queue.reserve() else { throw APIError.queueFull(queue.capacity) }
        defer { queue.release() }
        await lane.acquire()
        defer { Task { await lane.release() } }
        if Task.isCancelled { throw APIError(.clientClosed, "the client went away") }
        let engine = self.engine, files = store.files
        let read: PageResult
        do {
            let source = try files.region(job, n, x: box.x, y: box.y, width: box.width, height: box.height, margin: 4, engine: engine)
            read = try await withPageTimeout { try await engine.read(source) }
        } catch let error as JobError {
            throw APIError(error)
        } catch {
            throw APIError(reading: error, name: "page \(n)", timeout: options.pageTimeout)
        }
        let lines = read.textLines
        let text = lines.map(\.text).joined()
        let confidence = lines.compactMap(\.confidence).isEmpty ? nil : Double(lines.compactMap(\.confidence).reduce(0, +)) / Double(lines.count)
        let line = AddedLine(box: box, polygon: polygon, orientation: orientation ?? lines.first?.orientation, modelText: text,
                             confidence: confidence)
        let who = request.client, corpus = self.corpus, id = job.id
        let (page, lineID) = try await Self.corpusCall { try corpus.addLine(line, job: id, page: n, ifRevision: revision, by: who) }
        var answer = pageAnswer(201, page, job, n, extra: ["line": lineID])
        answer.headers.append(("Location", "\(linkPrefix)/v1/jobs/\(job.id)/pages/\(n)"))
        return answer
    }

    /// `GET /v1/jobs/{id}/pages/{n}/history`: the page's changes, oldest first.
    func pageHistory(_ request: APIRequest) async throws -> HTTPResponse {
        let (job, n) = try donePage(request)
        let page = try await corpusPage(job, n)
        let corpus = self.corpus, id = job.id
        let entries = try await Self.corpusCall { try corpus.history(job: id, page: n) }
        let time = ISO8601DateFormatter()
        time.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let history: [[String: Any]] = entries.map { e in
            var entry: [String: Any] = ["time": time.string(from: e.time), "revision": e.revision, "change": e.change.rawValue, "who": e.who]
            if let line = e.line { entry["line"] = line }
            if let before = e.before { entry["before"] = before }
            if let after = e.after { entry["after"] = after }
            return entry
        }
        return .json(200, ["job": job.id, "page": n, "revision": page.revision, "history": history],
                     headers: [("ETag", Self.etag(page.revision)), ("Cache-Control", "no-cache")])
    }

    /// `GET /v1/search?q=…`: every occurrence in the current and the engine's text of every page read.
    func search(_ request: APIRequest) async throws -> HTTPResponse {
        guard let text = request.parameters["q"], !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw APIError(.badOption, "q: the text to search for is missing")
        }
        guard text.count <= 200 else { throw APIError(.badOption, "q: \(text.count) characters, more than 200") }
        func number(_ name: String, _ fallback: Int, _ range: ClosedRange<Int>) throws(APIError) -> Int {
            guard let value = request.parameters[name] else { return fallback }
            guard let n = Int(value), range.contains(n) else {
                throw APIError(.badOption, "\(name): \(value.prefix(20)) is not a whole number in \(range.lowerBound)…\(range.upperBound)")
            }
            return n
        }
        let limit = try number("limit", 20, 1...1000), offset = try number("offset", 0, 0...1_000_000)
        var jobID: String?
        if let id = request.parameters["job"] {
            guard store.job(id) != nil else { throw APIError(.notFound, "no such job") }
            jobID = id
        }
        let corpus = self.corpus, query = SearchQuery(text: text, job: jobID, limit: limit, offset: offset)
        let results = try await Self.corpusCall { try corpus.search(query) }
        let hits: [[String: Any]] = results.hits.map { hit in
            ["job": hit.job, "page": hit.page, "line": hit.line, "lines": hit.lines, "text": hit.text, "box": Self.box(hit.box),
             "snippet": hit.snippet, "highlight": ["start": hit.highlight.lowerBound, "length": hit.highlight.count],
             "source": hit.source == .current ? "current" : "model",
             "links": ["page": "\(linkPrefix)/v1/jobs/\(hit.job)/pages/\(hit.page)"]]
        }
        return .json(200, ["query": text, "limit": limit, "offset": offset, "hasMore": results.hasMore, "hits": hits])
    }

    /// The job's proofreading figures as the API gives them (`GET /v1/jobs/{id}`'s `proofreading`).
    func proofreadingFigures(_ job: String) async -> [String: Any] {
        let corpus = self.corpus
        let f = (try? await JobCorpus.run { try corpus.figures(job: job) })
            ?? ProofreadingFigures(pagesProofread: 0, linesCorrected: 0, characters: 0, modelCER: nil)
        return ["pagesProofread": f.pagesProofread, "linesCorrected": f.linesCorrected, "characters": f.characters,
                "modelCER": f.modelCER.map { $0 as Any } ?? NSNull()]
    }

    // MARK: - helpers

    /// The page of the request's path when its job has read it: (job, n).
    private func donePage(_ request: APIRequest) throws(APIError) -> (Job, Int) {
        let job = try job(request), n = request.page
        try donePage(job, n)
        return (job, n)
    }

    /// The page from the corpus; its reading is stored now when it is not there yet (a failure then is the answer).
    private func corpusPage(_ job: Job, _ n: Int) async throws -> CorpusPage {
        let corpus = self.corpus, id = job.id, files = store.files
        return try await Self.corpusCall {
            if let page = try corpus.page(job: id, page: n) { return page }
            guard let url = files.result(job, n, .json) else { throw CorpusError.pageNotFound(job: id, page: n) }
            try corpus.storeReading(try JSONDecoder().decode(PageResult.self, from: Data(contentsOf: url)), job: id, page: n)
            guard let page = try corpus.page(job: id, page: n) else { throw CorpusError.pageNotFound(job: id, page: n) }
            return page
        }
    }

    /// The revision `If-Match` names (the page's ETag, `"<revision>"`); 428 without one.
    private func ifMatch(_ request: APIRequest) throws(APIError) -> Int {
        guard let raw = request.headers["if-match"]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty, raw != "*" else {
            throw APIError(.preconditionRequired, "a change needs If-Match with the page's ETag (its revision, from GET …/pages/{n})")
        }
        let bare = raw.count >= 2 && raw.hasPrefix("\"") && raw.hasSuffix("\"") ? String(raw.dropFirst().dropLast()) : raw
        guard let revision = Int(bare), revision >= 0 else {
            throw APIError(.preconditionFailed, "If-Match \(raw.prefix(40)) is not this page's ETag")
        }
        return revision
    }

    /// The body, a JSON object decoded as `T` (types exact: a number is no boolean).
    private func jsonBody<T: Decodable>(_ request: APIRequest, as: T.Type) throws(APIError) -> T {
        guard let upload = request.http.uploads.first, upload.size > 0 else {
            throw APIError(.emptyBody, "the body must be a JSON object")
        }
        guard upload.size <= 4 << 20, let data = try? Data(contentsOf: upload.file) else {
            throw APIError(.badBody, "the body must be a JSON object of at most 4 MB")
        }
        do { return try JSONDecoder().decode(T.self, from: data) } catch {
            throw APIError(.badBody, "the body is not the JSON object this route takes: \(Self.reason(error))")
        }
    }

    private static func reason(_ error: Error) -> String {
        switch error {
        case DecodingError.typeMismatch(_, let c), DecodingError.valueNotFound(_, let c), DecodingError.keyNotFound(_, let c),
             DecodingError.dataCorrupted(let c):
            let path = c.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return (path.isEmpty ? "" : "at \(path): ") + c.debugDescription.prefix(120)
        default: return "not JSON"
        }
    }

    /// The region of a line drawn, in upright page pixels, cut to the page; with the polygon given.
    private static func region(_ body: LineDrawnBody, width: Int, height: Int) throws(APIError) -> (CorpusBox, [[Double]]) {
        var box: CorpusBox, polygon: [[Double]] = []
        if let b = body.box {
            box = CorpusBox(x: b.x, y: b.y, width: b.width, height: b.height)
        } else if let points = body.polygon {
            guard points.count >= 3, points.count <= 1000, points.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isFinite && abs($0) <= 1e9 } }) else {
                throw APIError(.badBody, "`polygon` must be 3 to 1,000 points [x, y]")
            }
            let xs = points.map { $0[0] }, ys = points.map { $0[1] }
            let x0 = Int((xs.min() ?? 0).rounded(.down)), y0 = Int((ys.min() ?? 0).rounded(.down))
            let x1 = Int((xs.max() ?? 0).rounded(.up)), y1 = Int((ys.max() ?? 0).rounded(.up))
            box = CorpusBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            polygon = points
        } else {
            throw APIError(.badBody, "the body needs `box` {\"x\", \"y\", \"width\", \"height\"} or `polygon` [[x, y], …]")
        }
        guard abs(box.x) <= 1_000_000_000, abs(box.y) <= 1_000_000_000, (0...1_000_000_000).contains(box.width),
              (0...1_000_000_000).contains(box.height) else {
            throw APIError(.invalidEdit, "the region is not on the page (\(width)×\(height) pixels)")
        }
        let x0 = max(0, box.x), y0 = max(0, box.y)
        let x1 = min(width, box.x + box.width), y1 = min(height, box.y + box.height)
        guard x1 - x0 >= 2, y1 - y0 >= 2 else {
            throw APIError(.invalidEdit, "the region is not on the page (\(width)×\(height) pixels) or is under 2 pixels across")
        }
        return (CorpusBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0), polygon)
    }

    /// A page's answer: its JSON (`ProofreadingJSON.page`) with its revision as the ETag.
    private func pageAnswer(_ status: Int, _ page: CorpusPage, _ job: Job, _ n: Int, extra: [String: Any] = [:]) -> HTTPResponse {
        var object = ProofreadingJSON.page(page, result: store.files.resultJSON(job, n))
        for (k, v) in extra { object[k] = v }
        return .json(status, object, headers: [("ETag", Self.etag(page.revision)), ("Cache-Control", "no-cache")])
    }

    static func etag(_ revision: Int) -> String { "\"\(revision)\"" }

    static func stale(_ current: Int) -> APIError {
        APIError(.preconditionFailed, "the page changed since it was read (its revision is now \(current)): nothing was written",
                 headers: [("ETag", etag(current))])
    }

    static func box(_ b: CorpusBox) -> [String: Int] { ["x": b.x, "y": b.y, "width": b.width, "height": b.height] }

    /// A corpus call off the cooperative threads, its errors as the API's.
    static func corpusCall<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        do { return try await JobCorpus.run(body) } catch let error as CorpusError {
            switch error {
            case .pageNotFound(_, let n): throw APIError(.notFound, "page \(n) has no reading stored")
            case .stale(let current): throw stale(current)
            case .invalid: throw APIError(.invalidEdit, error.description)
            case .full: throw APIError(.diskFull, error.description)
            case .emptyQuery: throw APIError(.badOption, "q: \(error.description)")
            case .damaged, .foreign, .newerSchema, .storage: throw APIError(.internal, error.description)
            }
        }
    }
}

/// `PATCH …/pages/{n}`'s body (OpenAPI `PageEdit`).
struct PageEditBody: Decodable {
    struct Line: Decodable { let id: String; let text: String?; let deleted: Bool? }
    let lines: [Line]?
    let state: KotenOCRCorpus.PageState?
}

/// `POST …/pages/{n}/lines`' body (OpenAPI `LineDrawn`).
struct LineDrawnBody: Decodable {
    struct Box: Decodable { let x: Int; let y: Int; let width: Int; let height: Int }
    enum Orientation: String, Decodable { case vertical, horizontal }
    let box: Box?
    let polygon: [[Double]]?
    let orientation: Orientation?
}

/// A page with its correction layer as the API gives it (docs/serve.md, "Proofreading"): the page's result JSON
/// (docs/json-schema.md) with its `lines` those of the corpus page in reading order (each with `id`, `text` the
/// current text, `modelText`, `corrected`, `deleted`, `added`, and the engine's fields where the line is the
/// engine's), `revision` and `state`. Lines flagged `lowConfidence` are not proofread: they are under
/// `lowConfidenceLines`.
enum ProofreadingJSON {
    static func page(_ page: CorpusPage, result: [String: Any]?) -> [String: Any] {
        var object = result ?? [:]
        let engineLines = (result?["lines"] as? [[String: Any]]) ?? []
        let read = engineLines.filter { $0["lowConfidence"] as? Bool != true }
        let low = engineLines.filter { $0["lowConfidence"] as? Bool == true }
        let latest = page.lines.filter(\.inLatestReading)
        // The corpus's lines of the latest reading are the result's text lines, in the same order.
        var engine: [String: [String: Any]] = [:]
        if read.count == latest.count { for (line, e) in zip(latest, read) { engine[line.id] = e } }
        // The engine's reading-order numbers → the positions in this list (a ruby line's `annotates` names one).
        var position: [Int: Int] = [:]
        for (i, line) in page.lines.enumerated() {
            if let order = engine[line.id]?["readingOrder"] as? Int { position[order] = i }
        }
        object["lines"] = page.lines.enumerated().map { i, line -> [String: Any] in
            var out = engine[line.id] ?? [:]
            out["readingOrder"] = i
            if var annotates = out["annotates"] as? [String: Any], let target = annotates["line"] as? Int {
                annotates["line"] = position[target] ?? target
                out["annotates"] = annotates
            }
            out["id"] = line.id
            out["text"] = line.text
            out["modelText"] = line.modelText
            out["corrected"] = line.corrected
            out["deleted"] = line.deleted
            out["added"] = line.added
            out["box"] = OCRService.box(line.box)
            out["polygon"] = line.polygon.isEmpty ? Self.corners(line.box) : line.polygon
            if let o = line.orientation { out["orientation"] = o }
            if let c = line.confidence { out["confidence"] = c }
            if let r = line.review { out["review"] = r.rawValue }
            if let on = line.correctedOn { out["correctedOn"] = on }
            if !line.inLatestReading { out["characters"] = nil; out["detectionScore"] = nil }
            return out
        }
        if !low.isEmpty { object["lowConfidenceLines"] = low }
        object["revision"] = page.revision
        object["state"] = page.state.rawValue
        if object["source"] == nil { object["source"] = ["width": page.width, "height": page.height] }
        return object
    }

    /// A box's corners clockwise from the top-left.
    static func corners(_ b: CorpusBox) -> [[Double]] {
        let x0 = Double(b.x), y0 = Double(b.y), x1 = Double(b.x + b.width), y1 = Double(b.y + b.height)
        return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
    }
}
