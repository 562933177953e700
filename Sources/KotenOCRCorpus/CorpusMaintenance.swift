import Foundation

/// The upkeep an edit's commit no longer does itself (docs/corpus.md, "Upkeep outside the edits"): the write-ahead
/// log's checkpoints and the search index's segment merges, on a background queue after commits.
///
/// - **Checkpoints.** The writer's commit hook (`SQLiteConnection.onCommit`) replaces SQLite's automatic
///   checkpoint, which copied the log into the database inside the commit that passed 1,000 frames. Past
///   `checkpointFrames` a passive checkpoint runs on a connection of its own, which waits for no writer; past
///   `forcedCheckpointFrames` (commits so close together that the log never empties between them) the
///   checkpoint takes the write lock, so the log is copied whole and the next commit starts it again.
/// - **Merges.** FTS5 merges segments inside the commit that makes a level full (`automerge`, 4 segments), and
///   every edit makes one segment a table: here `automerge` is 0 and the queue asks for the merges instead, a
///   few pages at a time under the write lock, each step its own transaction committed without a sync of its own
///   (`synchronous=NORMAL`: a merge lost to a power cut loses no text; the next edit's synced commit carries it).
///   FTS5's `crisismerge` (16 segments on a level) still merges inside a commit if this falls behind.
///
/// Durability is unchanged: every edit is still committed with `synchronous=FULL` before it is answered.
final class CorpusMaintenance: @unchecked Sendable {
    /// Frames in the log past which a passive checkpoint runs (SQLite's own automatic threshold).
    static let checkpointFrames = 1_000
    /// Frames past which the checkpoint takes the write lock (the log about 8 MB with 4 KB pages).
    static let forcedCheckpointFrames = 2_000
    /// Leaf pages one merge step may write (FTS5's 'merge' command's N), per table.
    static let mergePages = 16

    private let queue = DispatchQueue(label: "koten.corpus.upkeep", qos: .utility)
    private let state = NSLock()
    private var frames = 0
    private var scheduled = false
    private var closed = false
    private let path: String
    private var checkpointer: SQLiteConnection?

    /// `merge()` runs one merge step under the store's write lock (true when it did work); `forcedCheckpoint()`
    /// checkpoints under that lock.
    private let merge: () throws -> Bool
    private let forcedCheckpoint: () throws -> Void

    init(path: String, merge: @escaping () throws -> Bool, forcedCheckpoint: @escaping () throws -> Void) {
        self.path = path
        self.merge = merge
        self.forcedCheckpoint = forcedCheckpoint
    }

    /// From the writer's commit hook: the log now holds `frames` frames. Schedules the upkeep; cheap.
    func committed(frames: Int) {
        let schedule: Bool = state.withLock {
            self.frames = frames
            guard !scheduled, !closed else { return false }
            scheduled = true
            return true
        }
        if schedule { queue.async { self.run() } }
    }

    /// Waits for the upkeep under way, then stops it (the store closes after).
    func close() {
        state.withLock { closed = true }
        queue.sync {
            checkpointer?.close()
            checkpointer = nil
        }
    }

    /// Waits until the upkeep scheduled so far has run (tests and benchmarks).
    func drain() { queue.sync {} }

    private func run() {
        let isClosed: Bool = state.withLock {
            scheduled = false
            return closed
        }
        guard !isClosed else { return }
        // Merges first, while the segments are small; a step that did no work ends them (FTS5 merges only a level
        // with `usermerge`, 4, segments or more).
        for _ in 0..<64 {
            guard state.withLock({ !closed }), (try? merge()) == true else { break }
        }
        // The frame count the latest commit reported (each run follows a commit, which sets it).
        let (logFrames, closedSince) = state.withLock { (frames, closed) }
        guard !closedSince, logFrames >= Self.checkpointFrames else { return }
        do {
            if logFrames >= Self.forcedCheckpointFrames {
                try forcedCheckpoint()
            } else {
                if checkpointer == nil { checkpointer = try SQLiteConnection(path: path, create: false) }
                try checkpointer?.checkpoint()
            }
        } catch {
            // A checkpoint that fails (a full disk) leaves the log as it is; the next commit schedules another.
        }
    }
}
