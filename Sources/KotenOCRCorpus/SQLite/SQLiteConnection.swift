import CSQLite
import Foundation

// The one file that names SQLite (Debian's libsqlite3, docs/corpus.md "Durability"): a connection, prepared
// statements, transactions, the online backup, and SQLite's errors with its own message. Everything else in the
// corpus wing speaks through these types.

/// An error from SQLite: its primary and extended result codes, its message, and what was being done.
struct SQLiteError: Error, CustomStringConvertible {
    let code: Int32
    let extendedCode: Int32
    let message: String
    let operation: String

    var description: String { "\(operation): \(message) (SQLite \(extendedCode))" }

    /// The disk (or the database's page limit) is full: SQLITE_FULL.
    var isFull: Bool { code == SQLITE_FULL }
    /// The file is not a database, or its pages are damaged: SQLITE_NOTADB, SQLITE_CORRUPT.
    var isDamaged: Bool { code == SQLITE_NOTADB || code == SQLITE_CORRUPT }
}

/// One connection to a database file. Not thread-safe: its owner serialises every call (the store's locks).
final class SQLiteConnection {
    private var db: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    private var commitHook: CommitHook?
    let path: String

    /// Opens `path` read-write; creates it only when `create` (a missing file is otherwise an error). The
    /// connection waits up to `busyMilliseconds` for another connection's lock before it fails with SQLITE_BUSY.
    init(path: String, create: Bool, busyMilliseconds: Int32 = 10_000) throws {
        self.path = path
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &handle, flags, nil)
        guard rc == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_close_v2(handle)
            throw SQLiteError(code: rc & 0xff, extendedCode: rc, message: message, operation: "open \(path)")
        }
        db = handle
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyMilliseconds)
    }

    deinit { close() }

    /// Finalises every cached statement and closes the connection (idempotent).
    func close() {
        for (_, s) in statements { sqlite3_finalize(s) }
        statements = [:]
        if let db {
            if commitHook != nil { sqlite3_wal_hook(db, nil, nil) }
            sqlite3_close_v2(db)
        }
        db = nil
        commitHook = nil
    }

    private func error(_ rc: Int32, _ operation: String) -> SQLiteError {
        let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
        return SQLiteError(code: rc & 0xff, extendedCode: rc, message: message, operation: operation)
    }

    /// Runs one or more statements that return no rows (schema, pragmas, transaction control).
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(db, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_free(message)
            throw SQLiteError(code: rc & 0xff, extendedCode: sqlite3_extended_errcode(db), message: text,
                              operation: String(sql.prefix(60)))
        }
    }

    /// A prepared statement for `sql`, cached for the life of the connection, reset and with its bindings cleared.
    func statement(_ sql: String) throws -> SQLiteStatement {
        if let s = statements[sql] {
            sqlite3_reset(s)
            sqlite3_clear_bindings(s)
            return SQLiteStatement(handle: s, connection: self, sql: sql)
        }
        var s: OpaquePointer?
        let rc = sqlite3_prepare_v2(db, sql, -1, &s, nil)
        guard rc == SQLITE_OK, let s else { throw error(rc, "prepare \(sql.prefix(60))") }
        statements[sql] = s
        return SQLiteStatement(handle: s, connection: self, sql: sql)
    }

    /// Runs `body` in one transaction: `BEGIN IMMEDIATE` (the write lock is taken first, so two writers never
    /// deadlock on an upgrade), `COMMIT` when it returns, `ROLLBACK` when it throws (the error is rethrown).
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            if sqlite3_get_autocommit(db) == 0 { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// A read in one transaction (a consistent snapshot under WAL while writers commit).
    func readTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        defer { if sqlite3_get_autocommit(db) == 0 { try? execute("COMMIT") } }
        return try body()
    }

    /// The first column of the first row of `sql` as text (pragmas), nil when there is no row.
    func scalarText(_ sql: String) throws -> String? {
        let s = try statement(sql)
        defer { s.reset() }
        return try s.step() ? s.text(0) : nil
    }

    /// The first column of the first row of `sql` as an integer (pragmas, counts); 0 when there is no row.
    func scalarInt(_ sql: String) throws -> Int {
        let s = try statement(sql)
        defer { s.reset() }
        return try s.step() ? s.int(0) : 0
    }

    /// The rowid of the last row inserted on this connection.
    var lastInsertRowID: Int { Int(sqlite3_last_insert_rowid(db)) }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes(db)) }

    /// Rows changed by every statement since the connection opened (FTS5's 'merge' did work when this grew by 2
    /// or more).
    var totalChanges: Int { Int(sqlite3_total_changes64(db)) }

    /// Calls `handler` with the write-ahead log's frame count after each commit of this connection, on the
    /// committing thread (SQLite's WAL hook). Setting it turns off SQLite's automatic checkpoint, which is that
    /// same hook: the owner checkpoints (`checkpoint()`) when it chooses.
    func onCommit(_ handler: @escaping @Sendable (Int) -> Void) {
        let hook = CommitHook(handler)
        commitHook = hook
        sqlite3_wal_hook(db, { context, _, _, frames in
            if let context { Unmanaged<CommitHook>.fromOpaque(context).takeUnretainedValue().handler(Int(frames)) }
            return SQLITE_OK
        }, Unmanaged.passUnretained(hook).toOpaque())
    }

    /// A passive checkpoint (SQLite's `SQLITE_CHECKPOINT_PASSIVE`): copies the log's frames into the database as
    /// far as no reader still needs them, without waiting for any lock a writer or a reader holds. Returns the
    /// log's frames and how many of them are now in the database.
    @discardableResult
    func checkpoint() throws -> (frames: Int, copied: Int) {
        var log: Int32 = 0, copied: Int32 = 0
        let rc = sqlite3_wal_checkpoint_v2(db, nil, SQLITE_CHECKPOINT_PASSIVE, &log, &copied)
        guard rc == SQLITE_OK || rc == SQLITE_BUSY else { throw error(rc, "checkpoint") }
        return (Int(log), Int(copied))
    }

    /// Copies the whole database into a new file at `destination` with SQLite's online backup API, a consistent
    /// snapshot even while other connections write (the copy restarts on their commits until it completes, or
    /// finishes at once under WAL, where it reads one snapshot). `destination` must not exist.
    func backup(to destination: String) throws {
        let target = try SQLiteConnection(path: destination, create: true)
        defer { target.close() }
        guard let backup = sqlite3_backup_init(target.db, "main", db, "main") else {
            throw target.error(sqlite3_errcode(target.db), "backup to \(destination)")
        }
        var rc: Int32
        repeat {
            rc = sqlite3_backup_step(backup, -1)
            if rc == SQLITE_BUSY || rc == SQLITE_LOCKED { sqlite3_sleep(10) }
        } while rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED
        let finish = sqlite3_backup_finish(backup)
        guard rc == SQLITE_DONE, finish == SQLITE_OK else {
            throw target.error(rc == SQLITE_DONE ? finish : rc, "backup to \(destination)")
        }
    }

    fileprivate func failure(_ rc: Int32, _ operation: String) -> SQLiteError { error(rc, operation) }
}

/// The closure `onCommit` keeps, reached from SQLite's C callback through its context pointer.
private final class CommitHook {
    let handler: @Sendable (Int) -> Void
    init(_ handler: @escaping @Sendable (Int) -> Void) { self.handler = handler }
}

/// A prepared statement of a connection: bind by position (1-based), step, read columns (0-based).
struct SQLiteStatement {
    fileprivate let handle: OpaquePointer
    fileprivate let connection: SQLiteConnection
    let sql: String

    /// SQLite's "copy the bytes now" destructor (SQLITE_TRANSIENT, a macro Swift cannot import).
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    @discardableResult
    func bind(_ values: SQLiteValue...) throws -> SQLiteStatement { try bind(values) }

    @discardableResult
    func bind(_ values: [SQLiteValue]) throws -> SQLiteStatement {
        for (i, v) in values.enumerated() {
            let index = Int32(i + 1)
            let rc: Int32
            switch v {
            case .null: rc = sqlite3_bind_null(handle, index)
            case .int(let x): rc = sqlite3_bind_int64(handle, index, Int64(x))
            case .double(let x): rc = sqlite3_bind_double(handle, index, x)
            case .text(let x): rc = sqlite3_bind_text(handle, index, x, -1, Self.transient)
            case .blob(let x):
                rc = x.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), Self.transient) }
            }
            if rc != SQLITE_OK { throw connection.failure(rc, "bind \(index) of \(sql.prefix(60))") }
        }
        return self
    }

    /// Steps once: true when a row is ready, false when done.
    func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let e = connection.failure(rc, String(sql.prefix(60)))
            sqlite3_reset(handle)
            throw e
        }
    }

    /// Steps to the end (a statement that returns no rows).
    func run() throws { while try step() {} }

    /// Ends a read before its last row (releases the statement's read snapshot).
    func reset() { sqlite3_reset(handle) }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    func text(_ column: Int32) -> String {
        guard let p = sqlite3_column_text(handle, column) else { return "" }
        return String(cString: p)
    }
    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
    func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }
    func blob(_ column: Int32) -> Data {
        let n = Int(sqlite3_column_bytes(handle, column))
        guard n > 0, let p = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: p, count: n)
    }
}

/// A value bound to a statement.
enum SQLiteValue {
    case null
    case int(Int)
    case double(Double)
    case text(String)
    case blob(Data)

    static func optional(_ s: String?) -> SQLiteValue { s.map { .text($0) } ?? .null }
    static func optional(_ d: Double?) -> SQLiteValue { d.map { .double($0) } ?? .null }
}
