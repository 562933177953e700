import Foundation

/// The corpus: every page an engine read, the users' corrections over it with their history, and the search
/// index over both, in one SQLite database file (docs/corpus.md). Safe to share between threads: writes take
/// one connection in turn (each in one `BEGIN IMMEDIATE` transaction, committed to disk before the call
/// returns), reads another, so a search never waits for an edit. Several processes may open the same file;
/// SQLite's locks (and a busy timeout of 10 s) order their writes.
public final class CorpusStore: @unchecked Sendable {
    /// The longest text a line may be given (characters, i.e. grapheme clusters).
    public static let maxLineCharacters = 10_000

    public let url: URL
    let folding: SearchFolding
    private let writeLock = NSLock()
    private let writer: SQLiteConnection
    private let readLock = NSLock()
    private let reader: SQLiteConnection
    /// Checkpoints and index merges after commits, outside them (`CorpusMaintenance`).
    private var upkeep: CorpusMaintenance?

    /// Opens the corpus at `url`, creating the file when there is none (its folder must exist). A file that is
    /// not a SQLite database, is damaged (`PRAGMA quick_check`), belongs to another program or to a newer
    /// KotenOCR is refused with `CorpusError.damaged`, `.foreign` or `.newerSchema`: it is never reset. When the
    /// index was folded with another variant table than `variants`, it is rebuilt here.
    public init(url: URL, variants: VariantTable = .none) throws {
        self.url = url
        folding = SearchFolding(variants: variants)
        let path = url.path
        do {
            writer = try SQLiteConnection(path: path, create: true)
            try CorpusSchema.prepare(writer, path: path)
            reader = try SQLiteConnection(path: path, create: false)
            try CorpusSchema.configure(reader)
        } catch {
            throw Self.corpusError(error, path: path)
        }
        try rebuildIndexIfFoldingChanged()
        try startUpkeep()
    }

    /// Closes both connections (after the upkeep under way); the store must not be used after.
    public func close() {
        upkeep?.close()
        writeLock.withLock { writer.close() }
        readLock.withLock { reader.close() }
    }

    // MARK: - connections

    /// Runs `body` in one write transaction: all of it is on disk when this returns, or none of it.
    func write<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try locked(writeLock) { try writer.transaction { try body(writer) } }
    }

    /// Runs `body` in one read transaction (one consistent snapshot).
    func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try locked(readLock) { try reader.readTransaction { try body(reader) } }
    }

    /// `body` under `lock`, SQLite's errors as the corpus's.
    private func locked<T>(_ lock: NSLock, _ body: () throws -> T) throws -> T {
        try lock.withLock {
            do { return try body() } catch { throw Self.corpusError(error, path: url.path) }
        }
    }

    /// SQLite's errors as the corpus's: a full disk, a damaged file, anything else with SQLite's message.
    static func corpusError(_ error: Error, path: String) -> Error {
        guard let e = error as? SQLiteError else { return error }
        if e.isFull { return CorpusError.full(reason: e.description) }
        if e.isDamaged { return CorpusError.damaged(path: path, reason: e.description) }
        return CorpusError.storage(reason: e.description)
    }

    // MARK: - engine readings

    /// What storing a reading did: the page's new revision, its lines' ids in reading order, and the corrected
    /// lines the reading marked for review (`ReviewMark`).
    public struct ReadingOutcome: Sendable, Equatable {
        public var revision: Int
        public var lineIDs: [String]
        public var markedForReview: [String]
    }

    /// Stores an engine's reading of page `page` (1-based) of `job`: the first one creates the page (state
    /// `unread`); a later one (a re-read) becomes the page's latest reading beside the earlier ones, its lines
    /// keeping their ids by geometry (`LineMatching`). No correction is ever changed by a reading: a corrected
    /// line whose new model text differs from the one it was corrected on, or that the reading no longer has,
    /// is marked for review and the change is in the page's history. The search index follows in the same
    /// transaction.
    @discardableResult
    public func storeReading(_ reading: EngineReading, job: String, page: Int, time: Date = Date()) throws -> ReadingOutcome {
        try write { db in try PageWriter(db: db, folding: folding).store(reading, job: job, page: page, time: time) }
    }

    /// Stores several readings in one transaction (a benchmark's or an import's bulk load).
    public func storeReadings(_ readings: [(job: String, page: Int, reading: EngineReading)], time: Date = Date()) throws {
        try write { db in
            let w = PageWriter(db: db, folding: folding)
            for r in readings { _ = try w.store(r.reading, job: r.job, page: r.page, time: time) }
        }
    }

    /// Removes a job: its pages, readings, corrections, history and index entries. False when there was none.
    @discardableResult
    public func removeJob(_ job: String) throws -> Bool {
        try write { db in
            let pages = try db.statement("SELECT p.id FROM pages p JOIN jobs j ON j.id = p.job_id WHERE j.name = ?")
            try pages.bind(.text(job))
            var ids: [Int] = []
            while try pages.step() { ids.append(pages.int(0)) }
            let index = SearchIndex(db: db, folding: folding)
            for id in ids { try index.remove(pageID: id) }
            try db.statement("DELETE FROM jobs WHERE name = ?").bind(.text(job)).run()
            return db.changes > 0
        }
    }

    /// Removes one page of a job, as `removeJob` does a job. False when there was none.
    @discardableResult
    public func removePage(job: String, page: Int) throws -> Bool {
        try write { db in
            guard let row = try PageRow.find(db, job: job, page: page) else { return false }
            try SearchIndex(db: db, folding: folding).remove(pageID: row.id)
            try db.statement("DELETE FROM pages WHERE id = ?").bind(.int(row.id)).run()
            return true
        }
    }

    // MARK: - reading pages

    /// The page with its correction layer (`CorpusPage`); `CorpusError.pageNotFound` when the job has none.
    public func page(job: String, page: Int) throws -> CorpusPage {
        try read { db in
            guard let row = try PageRow.find(db, job: job, page: page) else {
                throw CorpusError.pageNotFound(job: job, page: page)
            }
            return try PageAssembly(db: db).page(row)
        }
    }

    /// The page numbers of `job` that have a reading, ascending (empty for an unknown job).
    public func pageNumbers(job: String) throws -> [Int] {
        try read { db in try Self.pageNumbers(db, job: job) }
    }

    static func pageNumbers(_ db: SQLiteConnection, job: String) throws -> [Int] {
        let s = try db.statement("""
            SELECT p.number FROM pages p JOIN jobs j ON j.id = p.job_id WHERE j.name = ? ORDER BY p.number
            """)
        try s.bind(.text(job))
        var out: [Int] = []
        while try s.step() { out.append(s.int(0)) }
        return out
    }

    /// The jobs in the corpus, in the order they were first stored.
    public func jobs() throws -> [String] {
        try read { db in
            let s = try db.statement("SELECT name FROM jobs ORDER BY id")
            var out: [String] = []
            while try s.step() { out.append(s.text(0)) }
            return out
        }
    }

    /// The page's history, oldest first (`CorpusError.pageNotFound` when there is no such page).
    public func history(job: String, page: Int) throws -> [HistoryEntry] {
        try read { db in
            guard let row = try PageRow.find(db, job: job, page: page) else {
                throw CorpusError.pageNotFound(job: job, page: page)
            }
            let s = try db.statement("""
                SELECT time, revision, line_id, change, before, after, who FROM history WHERE page_id = ? ORDER BY id
                """)
            try s.bind(.int(row.id))
            var out: [HistoryEntry] = []
            while try s.step() {
                out.append(HistoryEntry(time: Date(timeIntervalSince1970: s.double(0)), revision: s.int(1),
                                        line: s.optionalText(2), change: HistoryEntry.Change(rawValue: s.text(3)) ?? .text,
                                        before: s.optionalText(4), after: s.optionalText(5), who: s.text(6)))
            }
            return out
        }
    }

    // MARK: - backup

    /// Writes a consistent copy of the whole corpus to `destination` (which must not exist) while the store stays
    /// in use: SQLite's online backup API over a connection of its own, reading one snapshot (WAL), so edits
    /// committed during the copy are either all in it or not at all. The copy is a corpus database that
    /// `CorpusStore(url:)` opens. A failure leaves no file at `destination`.
    public func backup(to destination: URL) throws {
        guard !FileManager.default.fileExists(atPath: destination.path) else {
            throw CorpusError.storage(reason: "\(destination.path): backup target exists")
        }
        do {
            let source = try SQLiteConnection(path: url.path, create: false)
            defer { source.close() }
            try source.backup(to: destination.path)
        } catch {
            for suffix in ["", "-wal", "-shm", "-journal"] {
                try? FileManager.default.removeItem(atPath: destination.path + suffix)
            }
            throw Self.corpusError(error, path: destination.path)
        }
    }

    // MARK: - test and benchmark hooks

    /// Caps the database at `pages` pages of its page size (`PRAGMA max_page_count`): a write that needs more
    /// fails as on a full disk. For the tests of a full disk; nil removes the cap (SQLite's default).
    package func limitPages(_ pages: Int?) throws {
        try locked(writeLock) { _ = try writer.scalarInt("PRAGMA max_page_count = \(pages ?? 1_073_741_823)") }
    }

    /// Pages the database file holds now (`PRAGMA page_count`) and their size in bytes.
    package func pageCount() throws -> (pages: Int, pageSize: Int) {
        try read { db in (try db.scalarInt("PRAGMA page_count"), try db.scalarInt("PRAGMA page_size")) }
    }

    // MARK: - index upkeep

    /// Turns FTS5's merges inside commits off (they are asked for after commits instead) and hooks the upkeep to
    /// the writer's commits, which turns SQLite's automatic checkpoint off (`CorpusMaintenance`).
    private func startUpkeep() throws {
        // A database that cannot take the setting now (a full disk) keeps FTS5's merges inside commits: slower, not wrong.
        try? write { db in try SearchIndex(db: db, folding: folding).turnOffAutomerge() }
        let upkeep = CorpusMaintenance(
            path: url.path,
            merge: { [weak self] in try self?.mergeStep() ?? false },
            forcedCheckpoint: { [weak self] in try self?.checkpointUnderWriteLock() })
        self.upkeep = upkeep
        try locked(writeLock) { writer.onCommit { [weak upkeep] frames in upkeep?.committed(frames: frames) } }
    }

    /// One merge step of the search index in its own transaction, committed without a sync of its own (the next
    /// synced commit carries it; a lost merge loses no text). True when it merged anything.
    private func mergeStep() throws -> Bool {
        try locked(writeLock) {
            try writer.execute("PRAGMA synchronous = NORMAL")
            let merged = Result { try writer.transaction { try SearchIndex(db: writer, folding: folding).merge(pages: CorpusMaintenance.mergePages) } }
            try writer.execute("PRAGMA synchronous = FULL")
            return try merged.get()
        }
    }

    /// A checkpoint while no edit can commit, so that the whole log is copied and the next commit starts it again.
    private func checkpointUnderWriteLock() throws {
        try locked(writeLock) { _ = try writer.checkpoint() }
    }

    /// Waits until the checkpoints and merges asked for so far have run (tests and benchmarks).
    package func waitForUpkeep() { upkeep?.drain() }

    private func rebuildIndexIfFoldingChanged() throws {
        let identity = folding.variants.identity
        let stored = try read { db in try db.scalarText("SELECT value FROM meta WHERE key = 'variants'") }
        guard stored != identity else { return }
        try write { db in
            try SearchIndex(db: db, folding: folding).rebuild()
            try db.statement("INSERT OR REPLACE INTO meta(key, value) VALUES ('variants', ?)").bind(.text(identity)).run()
        }
    }
}
