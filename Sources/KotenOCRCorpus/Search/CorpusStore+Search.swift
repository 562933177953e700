import Foundation

/// A search over the corpus (`CorpusStore.search`).
public struct SearchQuery: Sendable, Equatable {
    /// The text sought; folded as the index is (NFKC, lower case, 旧字体 → 新字体).
    public var text: String
    /// Only this job's pages; nil: every job.
    public var job: String?
    /// At most this many hits (1…1000).
    public var limit: Int
    /// Hits skipped first (paging).
    public var offset: Int

    public init(text: String, job: String? = nil, limit: Int = 20, offset: Int = 0) {
        self.text = text; self.job = job; self.limit = limit; self.offset = offset
    }
}

/// One occurrence of the query in a page's text.
public struct SearchHit: Sendable, Equatable {
    public var job: String
    public var page: Int
    /// The id of the line the occurrence starts in.
    public var line: String
    /// Every line the occurrence spans (two when it runs across a line break), in reading order.
    public var lines: [String]
    /// The text of the line it starts in (from `source`).
    public var text: String
    /// The union of the spanned lines' boxes, in page pixels.
    public var box: CorpusBox
    /// The occurrence with up to `SearchHit.context` characters of the page's text on either side (lines joined).
    public var snippet: String
    /// Where the occurrence is in `snippet`, in characters.
    public var highlight: Range<Int>
    /// The current text or, where it differs, the engine's.
    public var source: TextSource

    public static let context = 20
}

/// A page of hits: in the order of the jobs (first stored first), their pages, and each page's current text
/// before its model text, occurrences in reading order.
public struct SearchResults: Sendable, Equatable {
    public var hits: [SearchHit]
    /// More hits follow the last one given (ask again with a larger offset).
    public var hasMore: Bool
}

extension CorpusStore {
    /// Every occurrence of `query.text` in the current text and the engine's text of the pages
    /// (docs/corpus.md, "Search"). A query of three characters or more (after folding) goes through the trigram
    /// index; one of one or two characters through the index of characters and pairs; both find every occurrence, within a
    /// line or across a line break. Throws `CorpusError.emptyQuery` for a query with no character left.
    public func search(_ query: SearchQuery) throws -> SearchResults {
        let folded = Array(folding.fold(query.text.trimmingCharacters(in: .whitespacesAndNewlines)).scalars)
        guard !folded.isEmpty else { throw CorpusError.emptyQuery }
        let limit = min(max(query.limit, 1), 1000), offset = max(query.offset, 0)
        return try read { db in
            // The index's rowids run in the hits' order (`SearchIndex.key`): read them in turn, stop when done.
            let table = folded.count >= 3 ? "search_trigram" : "search_grams"
            var v = String.UnicodeScalarView()
            v.append(contentsOf: folded)
            let match = SearchFolding.phrase(folded.count >= 3 ? String(v) : SearchFolding.gramToken(folded))
            var range = (lo: 0, hi: Int.max)
            if let job = query.job {
                let s = try db.statement("SELECT id FROM jobs WHERE name = ?")
                try s.bind(.text(job))
                guard try s.step() else { return SearchResults(hits: [], hasMore: false) }
                range = SearchIndex.keys(jobID: s.int(0))
                s.reset()
            }
            let rows = try db.statement("""
                SELECT rowid FROM \(table) WHERE \(table) MATCH ? AND rowid >= ? AND rowid < ? ORDER BY rowid
                """)
            try rows.bind(.text(match), .int(range.lo), .int(range.hi))
            defer { rows.reset() }
            var hits: [SearchHit] = []
            var skipped = 0
            var pages: [Int: CorpusPage] = [:]
            while try rows.step() {
                let d = try db.statement("SELECT page_id, source, folded, line_map FROM search_docs WHERE id = ?")
                try d.bind(.int(rows.int(0)))
                guard try d.step() else { continue }
                let pageID = d.int(0), source = TextSource(rawValue: d.int(1)) ?? .current
                let doc = SearchIndex.Document(folded: d.text(2), lineMap: d.text(3))
                d.reset()
                let starts = Self.occurrences(of: folded, in: doc.folded)
                guard !starts.isEmpty else { continue }
                var text: PageText?
                func page() throws -> CorpusPage? {
                    if let p = pages[pageID] { return p }
                    let p = try PageRow.find(db, id: pageID).map { try PageAssembly(db: db).page($0) }
                    pages[pageID] = p
                    return p
                }
                for start in starts {
                    let span = Self.lines(of: doc, from: start, count: folded.count)
                    // A model-text hit counts only where the current text of its lines does not have the query too.
                    if source == .model, let p = try page(),
                       currentHas(folded, lines: span.map { doc.lines[$0].id }, in: p) { continue }
                    if skipped < offset { skipped += 1; continue }
                    if hits.count == limit { return SearchResults(hits: hits, hasMore: true) }
                    guard let p = try page() else { continue }
                    if text == nil { text = PageText(page: p, doc: doc, source: source, folding: folding) }
                    if let text { hits.append(text.hit(start: start, length: folded.count, span: span)) }
                }
            }
            return SearchResults(hits: hits, hasMore: false)
        }
    }

    /// Starts of the non-overlapping occurrences of `needle` in `haystack`.
    static func occurrences(of needle: [Unicode.Scalar], in haystack: [Unicode.Scalar]) -> [Int] {
        guard !needle.isEmpty, haystack.count >= needle.count else { return [] }
        var out: [Int] = []
        var i = 0
        let last = haystack.count - needle.count
        while i <= last {
            if haystack[i] == needle[0], haystack[i..<(i + needle.count)].elementsEqual(needle) {
                out.append(i)
                i += needle.count
            } else {
                i += 1
            }
        }
        return out
    }

    /// The indices of the document's lines that folded offsets `start ..< start + count` fall in.
    static func lines(of doc: SearchIndex.Document, from start: Int, count: Int) -> [Int] {
        var out: [Int] = []
        var offset = 0
        for (i, line) in doc.lines.enumerated() {
            let end = offset + line.length
            if end > start, offset < start + count, line.length > 0 { out.append(i) }
            if end >= start + count { break }
            offset = end
        }
        return out
    }

    /// Whether the current text of the lines `ids` (joined, deleted lines out) holds `folded`.
    private func currentHas(_ folded: [Unicode.Scalar], lines ids: [String], in page: CorpusPage) -> Bool {
        let text = ids.compactMap { id in page.lines.first { $0.id == id && !$0.deleted }?.text }.joined()
        return !Self.occurrences(of: folded, in: folding.fold(text).scalars).isEmpty
    }
}

/// A page's text of one source as characters, with each folded scalar's character: a hit's place in it.
private struct PageText {
    let page: CorpusPage
    let doc: SearchIndex.Document
    let source: TextSource
    let lines: [String: CorpusLine]
    var characters: [Character] = []
    var origin: [Int] = []

    init(page: CorpusPage, doc: SearchIndex.Document, source: TextSource, folding: SearchFolding) {
        self.page = page; self.doc = doc; self.source = source
        lines = Dictionary(page.lines.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for entry in doc.lines {
            guard let line = lines[entry.id] else { continue }
            let text = source == .current ? line.text : line.modelText
            origin.append(contentsOf: folding.fold(text).origin.map { $0 + characters.count })
            characters.append(contentsOf: text)
        }
    }

    func hit(start: Int, length: Int, span: [Int]) -> SearchHit {
        let ids = span.map { doc.lines[$0].id }
        let first = ids.first.flatMap { lines[$0] }
        let boxes = ids.compactMap { lines[$0]?.box }
        let box = boxes.dropFirst().reduce(boxes.first ?? CorpusBox(x: 0, y: 0, width: 0, height: 0)) { $0.union($1) }
        let text = first.map { source == .current ? $0.text : $0.modelText } ?? ""
        var snippet = "", highlight = 0..<0
        if let from = origin[safe: start], let to = origin[safe: start + length - 1] {
            let lo = max(0, from - SearchHit.context), hi = min(characters.count, to + 1 + SearchHit.context)
            snippet = String(characters[lo..<hi])
            highlight = (from - lo)..<(to + 1 - lo)
        }
        return SearchHit(job: page.job, page: page.page, line: ids.first ?? "", lines: ids, text: text, box: box,
                         snippet: snippet, highlight: highlight, source: source)
    }
}

extension Array {
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
