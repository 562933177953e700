import Foundation

/// The database's schema and its migrations (docs/corpus.md, "The data model"). The file is marked as ours by
/// `PRAGMA application_id`; `PRAGMA user_version` is the schema version, raised one migration at a time in the
/// transaction that makes it.
enum CorpusSchema {
    /// "KOTE" in ASCII: a database of another program has another id (0 for most).
    static let applicationID = 0x4B4F_5445
    /// Migrations in order: `migrations[i]` takes version i to i + 1.
    static let migrations: [String] = [version1]
    static var version: Int { migrations.count }

    /// Version 1. Readings and their lines are only ever inserted (the engine's readings are immutable); the
    /// correction layer (corrections, added lines, page state and revision) sits beside them; every change is a
    /// row of `history`. `search_docs` holds each page's folded text (current, and model where it differs), the
    /// two FTS5 tables index it (contentless: their rows are removed with the 'delete' command and the same text).
    /// A document's id is its place in the hits' order (`SearchIndex.key`), so a search reads the index's rowids
    /// in order and stops at the last hit it needs.
    static let version1 = """
    CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
    CREATE TABLE jobs(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE, created REAL NOT NULL);
    CREATE TABLE pages(
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        width INTEGER NOT NULL, height INTEGER NOT NULL,
        state TEXT NOT NULL DEFAULT 'unread' CHECK (state IN ('unread', 'inProgress', 'proofread')),
        revision INTEGER NOT NULL DEFAULT 0,
        reading_id INTEGER,
        next_line INTEGER NOT NULL DEFAULT 1,
        next_added INTEGER NOT NULL DEFAULT 1,
        UNIQUE(job_id, number));
    CREATE TABLE readings(
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        page_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
        time REAL NOT NULL);
    CREATE INDEX readings_page ON readings(page_id, id);
    CREATE TABLE model_lines(
        reading_id INTEGER NOT NULL REFERENCES readings(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        line_id TEXT NOT NULL,
        text TEXT NOT NULL,
        x INTEGER NOT NULL, y INTEGER NOT NULL, width INTEGER NOT NULL, height INTEGER NOT NULL,
        polygon TEXT NOT NULL, orientation TEXT, confidence REAL,
        PRIMARY KEY(reading_id, position)) WITHOUT ROWID;
    CREATE INDEX model_lines_id ON model_lines(reading_id, line_id);
    CREATE TABLE added_lines(
        page_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
        line_id TEXT NOT NULL,
        text TEXT NOT NULL,
        x INTEGER NOT NULL, y INTEGER NOT NULL, width INTEGER NOT NULL, height INTEGER NOT NULL,
        polygon TEXT NOT NULL, orientation TEXT, confidence REAL,
        PRIMARY KEY(page_id, line_id)) WITHOUT ROWID;
    CREATE TABLE corrections(
        page_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
        line_id TEXT NOT NULL,
        text TEXT,
        deleted INTEGER NOT NULL DEFAULT 0,
        based_on TEXT NOT NULL,
        review TEXT CHECK (review IN ('modelChanged', 'lineGone')),
        PRIMARY KEY(page_id, line_id)) WITHOUT ROWID;
    CREATE TABLE history(
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        page_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
        revision INTEGER NOT NULL,
        time REAL NOT NULL,
        line_id TEXT,
        change TEXT NOT NULL,
        before TEXT, after TEXT,
        who TEXT NOT NULL);
    CREATE INDEX history_page ON history(page_id, id);
    CREATE TABLE search_docs(
        id INTEGER PRIMARY KEY,
        page_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
        source INTEGER NOT NULL,
        folded TEXT NOT NULL,
        line_map TEXT NOT NULL,
        UNIQUE(page_id, source));
    CREATE VIRTUAL TABLE search_trigram USING fts5(folded, content='', tokenize='trigram');
    CREATE VIRTUAL TABLE search_grams USING fts5(grams, content='', detail=none, columnsize=0,
        tokenize="unicode61 remove_diacritics 0 categories 'L* N* Co M*'");
    """

    /// Makes the database on `db`'s file ready: checks, before anything is written, that it is ours (or empty:
    /// a file with no schema at all, as a first open cut short leaves it) and whole (`quick_check`), sets the
    /// durability pragmas, and migrates it to `version`. Never resets a file it cannot read.
    static func prepare(_ db: SQLiteConnection, path: String) throws {
        let id = try db.scalarInt("PRAGMA application_id")
        let found = try db.scalarInt("PRAGMA user_version")
        let objects = try db.scalarInt("SELECT count(*) FROM sqlite_schema")
        let empty = id == 0 && found == 0 && objects == 0
        if !empty {
            guard id == applicationID else {
                throw CorpusError.foreign(path: path, reason: "SQLite application id \(id), \(objects) schema objects")
            }
            guard found <= version else { throw CorpusError.newerSchema(path: path, found: found, supported: version) }
            let check = try db.scalarText("PRAGMA quick_check") ?? "no answer"
            guard check == "ok" else { throw CorpusError.damaged(path: path, reason: "quick_check: \(check)") }
        }
        try configure(db)
        guard found < version else { return }
        try db.transaction {
            if empty { try db.execute("PRAGMA application_id = \(applicationID)") }
            for v in found..<version {
                try db.execute(migrations[v])
                try db.execute("PRAGMA user_version = \(v + 1)")
            }
        }
    }

    /// Per-connection settings: WAL (a reader never blocks the writer), `synchronous=FULL` (a commit is on disk
    /// before it returns: with WAL, the log is synced at every commit), foreign keys.
    static func configure(_ db: SQLiteConnection) throws {
        let mode = try db.scalarText("PRAGMA journal_mode = WAL")
        guard mode?.lowercased() == "wal" else {
            throw SQLiteError(code: 0, extendedCode: 0, message: "journal mode \(mode ?? "?") instead of WAL",
                              operation: "PRAGMA journal_mode")
        }
        try db.execute("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA trusted_schema = OFF")
    }
}
