import Foundation

/// Which text of a page a search document (and a hit) is from.
public enum TextSource: Int, Sendable, Codable {
    /// The current text: corrections applied, deleted lines out, added lines in.
    case current = 0
    /// The engine's latest reading; indexed only for pages where it differs from the current text.
    case model = 1
}

/// The search documents of the pages (docs/corpus.md, "Search"): per page, its lines' folded text joined with
/// nothing between them (a word broken across two lines is found) in `search_docs`, with a map of each line's id
/// and folded length; the two contentless FTS5 tables over it: `search_trigram` (trigram tokenizer, queries of
/// three characters and more) and `search_grams` (every character and pair of neighbours a token, queries of one and two characters). Works in
/// the caller's transaction, so the index changes with the page or not at all.
struct SearchIndex {
    let db: SQLiteConnection
    let folding: SearchFolding

    /// One document: a page's lines (id, text) in reading order, folded.
    struct Document {
        var folded: [Unicode.Scalar] = []
        var lines: [(id: String, length: Int)] = []

        init(lines source: [(id: String, text: String)], folding: SearchFolding) {
            for (id, text) in source {
                let f = folding.fold(text).scalars
                folded.append(contentsOf: f)
                lines.append((id, f.count))
            }
        }

        init(folded: String, lineMap: String) {
            self.folded = Array(folded.unicodeScalars)
            lines = lineMap.split(separator: " ").compactMap { entry in
                guard let colon = entry.lastIndex(of: ":"), let n = Int(entry[entry.index(after: colon)...]) else { return nil }
                return (String(entry[..<colon]), n)
            }
        }

        var foldedText: String {
            var v = String.UnicodeScalarView()
            v.append(contentsOf: folded)
            return String(v)
        }

        var lineMap: String { lines.map { "\($0.id):\($0.length)" }.joined(separator: " ") }
    }

    /// A document's id: its job's id, its page's number and its source, in that order of significance, so that
    /// the index's rowids run in the hits' order (jobs as first stored, pages, current before model).
    static func key(jobID: Int, page: Int, source: TextSource) -> Int {
        jobID << 32 | (page & 0x7FFF_FFFF) << 1 | source.rawValue
    }

    /// The keys of one job's documents: `lo ..< hi`.
    static func keys(jobID: Int) -> (lo: Int, hi: Int) { (jobID << 32, (jobID + 1) << 32) }

    /// Makes the page's documents again from `page` (its current text; its model text too where that differs).
    /// A document that would be the same as the one indexed is left as it is (an edit changes the current text
    /// only: the model text's entries stay).
    func update(_ row: PageRow, page: CorpusPage) throws {
        let current = page.lines.filter { !$0.deleted }.map { (id: $0.id, text: $0.text) }
        let model = page.lines.filter(\.inLatestReading).map { (id: $0.id, text: $0.modelText) }
        let differs = model.map(\.id) != current.map(\.id) || model.map(\.text) != current.map(\.text)
        try replace(row, source: .current, with: Document(lines: current, folding: folding))
        try replace(row, source: .model, with: differs ? Document(lines: model, folding: folding) : nil)
    }

    /// Puts `doc` (nil: none) in the place of the page's document of `source`, unless it is the same.
    private func replace(_ row: PageRow, source: TextSource, with doc: Document?) throws {
        let id = Self.key(jobID: row.jobID, page: row.number, source: source)
        let s = try db.statement("SELECT folded, line_map FROM search_docs WHERE id = ?")
        try s.bind(.int(id))
        let old = try s.step() ? (folded: s.text(0), lineMap: s.text(1)) : nil
        s.reset()
        let new = doc.flatMap { $0.folded.isEmpty ? nil : (folded: $0.foldedText, lineMap: $0.lineMap) }
        if let old, let new, old == new { return }
        if let old { try delete(id: id, folded: old.folded) }
        if let doc, let new { try insert(row, id: id, source: source, doc, text: new.folded) }
    }

    private func insert(_ row: PageRow, id: Int, source: TextSource, _ doc: Document, text: String) throws {
        try db.statement("INSERT INTO search_docs(id, page_id, source, folded, line_map) VALUES (?, ?, ?, ?, ?)")
            .bind(.int(id), .int(row.id), .int(source.rawValue), .text(text), .text(doc.lineMap)).run()
        try db.statement("INSERT INTO search_trigram(rowid, folded) VALUES (?, ?)").bind(.int(id), .text(text)).run()
        try db.statement("INSERT INTO search_grams(rowid, grams) VALUES (?, ?)")
            .bind(.int(id), .text(SearchFolding.gramTokens(doc.folded))).run()
    }

    /// Removes the page's documents from the index.
    func remove(pageID: Int) throws {
        let s = try db.statement("SELECT id, folded FROM search_docs WHERE page_id = ?")
        try s.bind(.int(pageID))
        var docs: [(Int, String)] = []
        while try s.step() { docs.append((s.int(0), s.text(1))) }
        for (id, text) in docs { try delete(id: id, folded: text) }
    }

    /// Removes one document: its row, and its index entries (FTS5's 'delete' with the text it was indexed with).
    private func delete(id: Int, folded text: String) throws {
        try db.statement("INSERT INTO search_trigram(search_trigram, rowid, folded) VALUES ('delete', ?, ?)")
            .bind(.int(id), .text(text)).run()
        try db.statement("INSERT INTO search_grams(search_grams, rowid, grams) VALUES ('delete', ?, ?)")
            .bind(.int(id), .text(SearchFolding.gramTokens(text.unicodeScalars))).run()
        try db.statement("DELETE FROM search_docs WHERE id = ?").bind(.int(id)).run()
    }

    /// The two FTS5 tables of the index.
    private static let tables = ["search_trigram", "search_grams"]

    /// Turns off FTS5's merges inside the commits that fill a level (`automerge`, default 4 segments) in both
    /// tables: a setting stored in the database, written only where it is not 0 already.
    func turnOffAutomerge() throws {
        for table in Self.tables where try db.scalarText("SELECT v FROM \(table)_config WHERE k = 'automerge'") != "0" {
            try db.execute("INSERT INTO \(table)(\(table), rank) VALUES ('automerge', 0)")
        }
    }

    /// One step of FTS5's incremental merge on both tables (up to `pages` leaf pages written each, and only on a
    /// level with `usermerge`, 4, segments or more). True when either merged anything (FTS5's documented test:
    /// the connection's total changes grew by two or more).
    func merge(pages: Int) throws -> Bool {
        var merged = false
        for table in Self.tables {
            let before = db.totalChanges
            try db.execute("INSERT INTO \(table)(\(table), rank) VALUES ('merge', \(pages))")
            if db.totalChanges - before >= 2 { merged = true }
        }
        return merged
    }

    /// Every page's documents made again (the folding changed).
    func rebuild() throws {
        try db.execute("""
            INSERT INTO search_trigram(search_trigram) VALUES ('delete-all');
            INSERT INTO search_grams(search_grams) VALUES ('delete-all');
            DELETE FROM search_docs;
            """)
        let s = try db.statement("SELECT id FROM pages ORDER BY id")
        var ids: [Int] = []
        while try s.step() { ids.append(s.int(0)) }
        let assembly = PageAssembly(db: db)
        for id in ids {
            guard let row = try PageRow.find(db, id: id) else { continue }
            try update(row, page: try assembly.page(row))
        }
    }
}
