import Foundation
import KotenOCRCorpus
import KotenOCRKit

/// Every export takes the current text (issue 36; docs/serve.md, "Exports"): the corpus page's correction layer
/// made into the library's `PageCorrections`, which the jobs wing applies to the page's result before its writers
/// write it. `?text=model` gives the engine's reading (the batch's files as they are).
extension OCRService {
    /// Whether the request asks for the engine's reading (`text=model`); `text=current` (the default) the
    /// corrected. Throws `bad_option` for another value.
    func wantsModelText(_ request: APIRequest) throws(APIError) -> Bool {
        switch request.parameters["text"]?.lowercased() {
        case nil, "current": return false
        case "model": return true
        case let other?: throw APIError(.badOption, "text must be current or model, not \(other.prefix(40))")
        }
    }

    /// The `text` parameter of the export routes, as the OpenAPI document gives it.
    static var textParameter: OperationDoc.Parameter {
        OperationDoc.Parameter(name: "text", description: "current (the default): the proofreaders' corrections applied; model: the engine's reading",
                               schema: ["type": "string", "enum": ["current", "model"]])
    }

    /// The corrections of the job's pages (none when the request asks for the engine's text).
    func jobCorrections(_ job: Job, _ request: APIRequest) async throws -> JobCorrections {
        if try wantsModelText(request) { return JobCorrections() }
        let corpus = self.corpus, files = store.files, id = job.id, numbers = job.record.pages.map(\.n)
        return try await Self.corpusCall {
            var made = JobCorrections()
            var revisions = 0
            for n in numbers {
                guard let page = try corpus.page(job: id, page: n) else { continue }
                revisions += page.revision
                guard let json = files.result(job, n, .json) else { continue }
                if let fixes = try Self.corrections(page, lineCount: Self.textLineCount(json)) { made.pages[n] = fixes }
            }
            if !made.pages.isEmpty { made.version = "c\(revisions)" }
            return made
        }
    }

    /// Page `n`'s corrections (nil: none, or the request asks for the engine's text).
    func pageCorrections(_ job: Job, _ n: Int, _ request: APIRequest) async throws -> (PageCorrections, revision: Int)? {
        if try wantsModelText(request) { return nil }
        let corpus = self.corpus, files = store.files, id = job.id
        return try await Self.corpusCall {
            guard let page = try corpus.page(job: id, page: n), let json = files.result(job, n, .json) else { return nil }
            return try Self.corrections(page, lineCount: Self.textLineCount(json)).map { ($0, page.revision) }
        }
    }

    /// How many text lines (not flagged `lowConfidence`) the result JSON at `url` has: the lines the corpus stores.
    static func textLineCount(_ url: URL) throws -> Int {
        try JSONDecoder().decode(PageResult.self, from: Data(contentsOf: url)).textLines.count
    }

    /// A corpus page's correction layer over the reading of `lineCount` text lines it holds as its latest (the
    /// page's result: the corpus stores each result's text lines in reading order, so its k-th line of the latest
    /// reading is the result's k-th text line); nil when nothing on the page is corrected, marked as not text or
    /// added. A corrected line a re-read lost is kept as an added line (its last outline, its text). Throws when the
    /// corpus's reading is not the result's (another number of lines).
    static func corrections(_ page: CorpusPage, lineCount: Int) throws -> PageCorrections? {
        let read = page.lines.filter(\.inLatestReading)
        guard read.count == lineCount else {
            throw APIError(.internal, "page \(page.page): the corpus holds a reading of \(read.count) lines, the result has \(lineCount)")
        }
        guard page.lines.contains(where: { $0.corrected || $0.deleted || $0.added || !$0.inLatestReading }) else { return nil }
        var lines: [PageCorrections.Line] = []
        var index = 0
        for line in page.lines {
            if line.inLatestReading {
                defer { index += 1 }
                if !line.deleted { lines.append(.read(index: index, text: line.corrected ? line.text : nil)) }
            } else if !line.deleted {
                let b = line.box
                lines.append(.added(PageCorrections.AddedLine(
                    box: PageResult.Box(x: b.x, y: b.y, width: b.width, height: b.height), polygon: line.polygon,
                    orientation: line.orientation, text: line.text, modelText: line.added ? line.modelText : (line.correctedOn ?? ""),
                    confidence: line.confidence.map(Float.init))))
            }
        }
        return PageCorrections(lines: lines)
    }
}
