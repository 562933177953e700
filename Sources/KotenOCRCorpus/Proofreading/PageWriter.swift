import Foundation

/// The writes of the correction layer, each inside the caller's transaction (`CorpusStore.write`): readings
/// stored, lines corrected, deleted and added, the page's state, every change a row of `history`, and the
/// page's search documents made again.
struct PageWriter {
    let db: SQLiteConnection
    let folding: SearchFolding

    // MARK: readings

    func store(_ reading: EngineReading, job: String, page: Int, time: Date) throws -> CorpusStore.ReadingOutcome {
        var row = try pageRow(job: job, page: page, reading: reading)
        let assembly = PageAssembly(db: db)
        let before = try assembly.page(row)
        let corrections = try assembly.corrections(pageID: row.id)

        // Ids by geometry: the latest reading's lines and the corrected lines an earlier re-read lost.
        let known = before.lines.filter { !$0.added && ($0.inLatestReading || corrections[$0.id] != nil) }
        let matched = LineMatching.match(reading.lines.map(\.box), to: known.map { .init(id: $0.id, box: $0.box) })
        var ids: [String] = []
        for m in matched {
            if let m { ids.append(m) } else { ids.append("l\(row.nextLine)"); row.nextLine += 1 }
        }

        try db.statement("INSERT INTO readings(page_id, time) VALUES (?, ?)")
            .bind(.int(row.id), .double(time.timeIntervalSince1970)).run()
        let readingID = db.lastInsertRowID
        let insert = """
            INSERT INTO model_lines(reading_id, position, line_id, text, x, y, width, height, polygon, orientation, confidence)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        for (i, line) in reading.lines.enumerated() {
            try db.statement(insert).bind(.int(readingID), .int(i), .text(ids[i]), .text(line.text),
                                          .int(line.box.x), .int(line.box.y), .int(line.box.width), .int(line.box.height),
                                          .text(PolygonText.encode(line.polygon)), .optional(line.orientation),
                                          .optional(line.confidence)).run()
        }

        // Corrections stay; a changed or lost reading under one marks it.
        row.revision += 1
        var marked: [String] = []
        let newText = Dictionary(zip(ids, reading.lines.map(\.text)), uniquingKeysWith: { a, _ in a })
        let previousModel = Dictionary(before.lines.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for (id, c) in corrections.sorted(by: { $0.key < $1.key }) where !id.hasPrefix("a") {
            var next = c
            let wasModel = previousModel[id].flatMap { $0.inLatestReading ? $0.modelText : nil }
            if let text = newText[id] {
                next.review = text == c.basedOn ? nil : .modelChanged
                if text != wasModel, next.review != nil {
                    try history(row, time: time, line: id, change: .reread, before: wasModel, after: text, who: "engine")
                }
            } else {
                next.review = .lineGone
                if wasModel != nil {
                    try history(row, time: time, line: id, change: .reread, before: wasModel, after: nil, who: "engine")
                }
            }
            if next.review != nil { marked.append(id) }
            if next != c { try save(next, line: id, pageID: row.id) }
        }
        row.readingID = readingID
        row.width = reading.width
        row.height = reading.height
        try db.statement("""
            UPDATE pages SET reading_id = ?, width = ?, height = ?, revision = ?, next_line = ? WHERE id = ?
            """).bind(.int(readingID), .int(row.width), .int(row.height), .int(row.revision), .int(row.nextLine),
                      .int(row.id)).run()
        try SearchIndex(db: db, folding: folding).update(row, page: try assembly.page(row))
        return .init(revision: row.revision, lineIDs: ids, markedForReview: marked)
    }

    /// The page's row, made (with its job's) when this is its first reading.
    private func pageRow(job: String, page: Int, reading: EngineReading) throws -> PageRow {
        if let row = try PageRow.find(db, job: job, page: page) { return row }
        try db.statement("INSERT OR IGNORE INTO jobs(name, created) VALUES (?, ?)")
            .bind(.text(job), .double(Date().timeIntervalSince1970)).run()
        try db.statement("""
            INSERT INTO pages(job_id, number, width, height) SELECT id, ?, ?, ? FROM jobs WHERE name = ?
            """).bind(.int(page), .int(reading.width), .int(reading.height), .text(job)).run()
        guard let row = try PageRow.find(db, job: job, page: page) else {
            throw CorpusError.storage(reason: "page \(page) of job \(job) was not stored")
        }
        return row
    }

    // MARK: corrections

    /// Applies `edits` and `state` to the page if its revision is still `revision` (compare-and-swap): stale →
    /// `CorpusError.stale`, a bad edit → `.invalid`, nothing written in either case.
    func update(job: String, page: Int, ifRevision revision: Int, edits: [LineEdit], state: PageState?,
                who: String, time: Date) throws -> CorpusPage {
        guard var row = try PageRow.find(db, job: job, page: page) else {
            throw CorpusError.pageNotFound(job: job, page: page)
        }
        guard row.revision == revision else { throw CorpusError.stale(current: row.revision) }
        let assembly = PageAssembly(db: db)
        let view = try assembly.page(row)
        var lines = Dictionary(view.lines.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var problems = edits.compactMap { lines[$0.lineID] == nil ? LineProblem(line: $0.lineID, reason: .unknownLine) : nil }
        problems += edits.flatMap(TextRules.problems)
        guard problems.isEmpty else { throw CorpusError.invalid(problems) }

        let next = row.revision + 1
        var changed = false
        for edit in edits {
            guard let line = lines[edit.lineID] else { continue }
            let (after, change) = Self.apply(edit, to: line)
            guard let change else { continue }
            try save(CorrectionState(text: after.corrected ? after.text : nil, deleted: after.deleted,
                                     basedOn: line.modelText, review: after.review),
                     line: line.id, pageID: row.id)
            try history(row, revision: next, time: time, line: line.id, change: change.kind, before: change.before,
                        after: change.after, who: who)
            lines[line.id] = after
            changed = true
        }
        var newState = state ?? row.state
        if state == nil, changed, row.state == .unread { newState = .inProgress }
        if newState != row.state {
            try history(row, revision: next, time: time, line: nil, change: .state, before: row.state.rawValue,
                        after: newState.rawValue, who: who)
            changed = true
        }
        guard changed else { return view }
        row.revision = next
        row.state = newState
        try db.statement("UPDATE pages SET revision = ?, state = ? WHERE id = ?")
            .bind(.int(row.revision), .text(row.state.rawValue), .int(row.id)).run()
        let updated = try assembly.page(row)
        try SearchIndex(db: db, folding: folding).update(row, page: updated)
        return updated
    }

    /// One edit on `line`: the line after it, and the history entry (nil when nothing changes).
    private static func apply(_ edit: LineEdit, to line: CorpusLine)
        -> (CorpusLine, (kind: HistoryEntry.Change, before: String?, after: String?)?) {
        var after = line
        switch edit {
        case .text(_, let text):
            guard text != line.text else {
                guard line.review != nil else { return (line, nil) }
                after.review = nil
                after.correctedOn = line.modelText
                return (after, (.reviewed, line.text, text))
            }
            after.text = text
            after.corrected = text != line.modelText
            after.review = nil
            return (after, (.text, line.text, text))
        case .deleted(_, let deleted):
            guard deleted != line.deleted else { return (line, nil) }
            after.deleted = deleted
            after.review = nil
            return (after, deleted ? (.deleted, line.text, nil) : (.restored, nil, line.text))
        }
    }

    /// Adds a user's line to the page if its revision is still `revision`; the new line's id is `a<n>`.
    func add(_ line: AddedLine, job: String, page: Int, ifRevision revision: Int, who: String,
             time: Date) throws -> (page: CorpusPage, id: String) {
        guard var row = try PageRow.find(db, job: job, page: page) else {
            throw CorpusError.pageNotFound(job: job, page: page)
        }
        guard row.revision == revision else { throw CorpusError.stale(current: row.revision) }
        let id = "a\(row.nextAdded)"
        row.nextAdded += 1
        row.revision += 1
        try db.statement("""
            INSERT INTO added_lines(page_id, line_id, text, x, y, width, height, polygon, orientation, confidence)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).bind(.int(row.id), .text(id), .text(line.modelText), .int(line.box.x), .int(line.box.y),
                      .int(line.box.width), .int(line.box.height), .text(PolygonText.encode(line.polygon)),
                      .optional(line.orientation), .optional(line.confidence)).run()
        try history(row, time: time, line: id, change: .added, before: nil, after: line.modelText, who: who)
        if row.state == .unread {
            try history(row, time: time, line: nil, change: .state, before: row.state.rawValue,
                        after: PageState.inProgress.rawValue, who: who)
            row.state = .inProgress
        }
        try db.statement("UPDATE pages SET revision = ?, state = ?, next_added = ? WHERE id = ?")
            .bind(.int(row.revision), .text(row.state.rawValue), .int(row.nextAdded), .int(row.id)).run()
        let updated = try PageAssembly(db: db).page(row)
        try SearchIndex(db: db, folding: folding).update(row, page: updated)
        return (updated, id)
    }

    // MARK: rows

    private func save(_ c: CorrectionState, line: String, pageID: Int) throws {
        if c.isEmpty {
            try db.statement("DELETE FROM corrections WHERE page_id = ? AND line_id = ?")
                .bind(.int(pageID), .text(line)).run()
        } else {
            try db.statement("""
                INSERT OR REPLACE INTO corrections(page_id, line_id, text, deleted, based_on, review)
                VALUES (?, ?, ?, ?, ?, ?)
                """).bind(.int(pageID), .text(line), .optional(c.text), .int(c.deleted ? 1 : 0), .text(c.basedOn),
                          .optional(c.review?.rawValue)).run()
        }
    }

    private func history(_ row: PageRow, revision: Int? = nil, time: Date, line: String?, change: HistoryEntry.Change,
                         before: String?, after: String?, who: String) throws {
        try db.statement("""
            INSERT INTO history(page_id, revision, time, line_id, change, before, after, who)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """).bind(.int(row.id), .int(revision ?? row.revision), .double(time.timeIntervalSince1970),
                      .optional(line), .text(change.rawValue), .optional(before), .optional(after), .text(who)).run()
    }
}

/// What a line's text may be (issue 36: HTTP 422 otherwise).
enum TextRules {
    static func problems(_ edit: LineEdit) -> [LineProblem] {
        guard case .text(let id, let text) = edit else { return [] }
        var out: [LineProblem] = []
        let count = text.count
        if count > CorpusStore.maxLineCharacters { out.append(LineProblem(line: id, reason: .tooLong(count))) }
        if let c = text.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            out.append(LineProblem(line: id, reason: .controlCharacter(c.value)))
        }
        return out
    }
}
