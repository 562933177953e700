import Foundation

/// A row of `pages` with its job's name.
struct PageRow {
    let id: Int
    let job: String
    let jobID: Int
    let number: Int
    var width: Int
    var height: Int
    var state: PageState
    var revision: Int
    var readingID: Int?
    var nextLine: Int
    var nextAdded: Int

    static func find(_ db: SQLiteConnection, job: String, page: Int) throws -> PageRow? {
        let s = try db.statement("""
            SELECT p.id, p.job_id, p.width, p.height, p.state, p.revision, p.reading_id, p.next_line, p.next_added
            FROM pages p JOIN jobs j ON j.id = p.job_id WHERE j.name = ? AND p.number = ?
            """)
        try s.bind(.text(job), .int(page))
        guard try s.step() else { return nil }
        let row = PageRow(id: s.int(0), job: job, jobID: s.int(1), number: page, width: s.int(2), height: s.int(3),
                          state: PageState(rawValue: s.text(4)) ?? .unread, revision: s.int(5),
                          readingID: s.isNull(6) ? nil : s.int(6), nextLine: s.int(7), nextAdded: s.int(8))
        s.reset()
        return row
    }

    static func find(_ db: SQLiteConnection, id: Int) throws -> PageRow? {
        let s = try db.statement("SELECT j.name, p.number FROM pages p JOIN jobs j ON j.id = p.job_id WHERE p.id = ?")
        try s.bind(.int(id))
        guard try s.step() else { return nil }
        let job = s.text(0), number = s.int(1)
        s.reset()
        return try find(db, job: job, page: number)
    }
}

/// A line's correction as stored in `corrections`.
struct CorrectionState: Equatable {
    /// The corrected text; nil when the engine's text stands.
    var text: String?
    var deleted: Bool
    /// The model text the correction was made on.
    var basedOn: String
    var review: ReviewMark?

    /// Nothing to keep: no text, not deleted.
    var isEmpty: Bool { text == nil && !deleted }
}

/// Builds a page's view (`CorpusPage`) from its latest reading, its added lines and its corrections.
struct PageAssembly {
    let db: SQLiteConnection

    func page(_ row: PageRow) throws -> CorpusPage {
        let corrections = try self.corrections(pageID: row.id)
        var base: [CorpusLine] = []
        var seen = Set<String>()
        if let reading = row.readingID {
            let s = try db.statement("""
                SELECT line_id, text, x, y, width, height, polygon, orientation, confidence
                FROM model_lines WHERE reading_id = ? ORDER BY position
                """)
            try s.bind(.int(reading))
            while try s.step() {
                let line = Self.line(s, added: false, inReading: true, correction: corrections[s.text(0)])
                seen.insert(line.id)
                base.append(line)
            }
        }
        var extras: [CorpusLine] = []
        let added = try db.statement("""
            SELECT line_id, text, x, y, width, height, polygon, orientation, confidence
            FROM added_lines WHERE page_id = ?
            """)
        try added.bind(.int(row.id))
        while try added.step() {
            let line = Self.line(added, added: true, inReading: false, correction: corrections[added.text(0)])
            seen.insert(line.id)
            extras.append(line)
        }
        // Corrected lines the latest reading lost: shown with their last outline, the engine's text now empty.
        for (id, c) in corrections.sorted(by: { $0.key < $1.key }) where !seen.contains(id) {
            let s = try db.statement("""
                SELECT m.line_id, '', m.x, m.y, m.width, m.height, m.polygon, m.orientation, m.confidence
                FROM readings r JOIN model_lines m ON m.reading_id = r.id AND m.line_id = ?
                WHERE r.page_id = ? ORDER BY r.id DESC LIMIT 1
                """)
            try s.bind(.text(id), .int(row.id))
            if try s.step() { extras.append(Self.line(s, added: false, inReading: false, correction: c)) }
            s.reset()
        }
        return CorpusPage(job: row.job, page: row.number, width: row.width, height: row.height, state: row.state,
                          revision: row.revision, lines: ExtraLinePlacement.place(extras, among: base))
    }

    func corrections(pageID: Int) throws -> [String: CorrectionState] {
        let s = try db.statement("SELECT line_id, text, deleted, based_on, review FROM corrections WHERE page_id = ?")
        try s.bind(.int(pageID))
        var out: [String: CorrectionState] = [:]
        while try s.step() {
            out[s.text(0)] = CorrectionState(text: s.optionalText(1), deleted: s.int(2) != 0, basedOn: s.text(3),
                                             review: s.optionalText(4).flatMap(ReviewMark.init(rawValue:)))
        }
        return out
    }

    /// A line from columns (id, model text, x, y, width, height, polygon, orientation, confidence).
    private static func line(_ s: SQLiteStatement, added: Bool, inReading: Bool, correction: CorrectionState?) -> CorpusLine {
        let model = s.text(1)
        return CorpusLine(id: s.text(0), text: correction?.text ?? model, modelText: model,
                          corrected: correction?.text != nil, deleted: correction?.deleted ?? false, added: added,
                          inLatestReading: inReading, review: correction?.review, correctedOn: correction?.basedOn,
                          box: CorpusBox(x: s.int(2), y: s.int(3), width: s.int(4), height: s.int(5)),
                          polygon: PolygonText.decode(s.text(6)), orientation: s.optionalText(7),
                          confidence: s.optionalDouble(8))
    }
}

/// A polygon stored as text: `x,y x,y …`.
enum PolygonText {
    static func encode(_ points: [[Double]]) -> String {
        points.map { p in p.map { String($0) }.joined(separator: ",") }.joined(separator: " ")
    }

    static func decode(_ text: String) -> [[Double]] {
        text.split(separator: " ").map { $0.split(separator: ",").compactMap { Double($0) } }
    }
}
