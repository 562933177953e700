import Foundation
import KotenOCRKit

/// A job as it is kept on disk, `<work>/jobs/<id>/job.json` (written atomically when it is accepted): its inputs
/// and its pages.
struct JobRecord: Codable, Sendable {
    /// An upload stored in `in/` under the server's name (`file`), with the name the client gave it.
    struct Input: Codable, Sendable { let file: String; let name: String; let pageCount: Int }
    /// Page `n` (from 1): page `page` of input `input`. `file`: a canvas's results' path in `out/`
    /// (`<book>/<index>_<label>.jpg`, as `IIIFBook.batchInputs` names it).
    /// `label`, `labels`: a canvas's label (in one language, and in every language it has: a IIIF language map).
    struct Page: Codable, Sendable {
        let n: Int; let input: Int; let page: Int; let name: String; var file: String? = nil
        var label: String? = nil
        var labels: [String: [String]]? = nil
    }
    let id: String
    let ruby: String
    let inputs: [Input]
    let pages: [Page]
    /// The IIIF manifest's URL, for a job of one.
    var manifest: String? = nil
    /// The IIIF manifest's label, in one language (`ja`, else the first) and in every language it has (a IIIF
    /// language map, `{"ja": ["…"], "en": ["…"]}`), for a job of one whose manifest has a label.
    var label: String? = nil
    var labels: [String: [String]]? = nil
    /// When the job was accepted (whole seconds): the time of its reading, PAGE XML's `Created` on every page
    /// (`ReadingTime.fixed`), the same after a restart. Nil in a job recorded before it was kept: the stored
    /// upload's modification time (the epoch).
    var created: Date? = nil
}

/// Where a job is.
enum JobState: String, Sendable { case queued, running, done, cancelled }

/// Where a page of a job is: waiting, being read, read (its files written), or failed (with its reason).
enum PageState: String, Sendable { case queued, running, done, failed }

/// A job while the server runs: its record and folder, and what changes as it is read (held under its own lock).
final class Job: @unchecked Sendable {
    /// A page's progress: its state, its reason when it failed, its line count when it was read.
    struct PageProgress: Sendable {
        var state = PageState.queued
        var error: String?
        var lines: Int?
    }

    /// What changes: the job's state, each page's progress, the failures after a page was read (one of its formats,
    /// its input's PDF: the page stays done), the event streams of the clients watching (by watcher), the worker's task.
    struct Progress {
        var state: JobState
        var pages: [PageProgress]
        var failures: [String] = []
        var watchers: [UUID: AsyncStream<Data>.Continuation] = [:]
        var task: Task<Void, Never>?

        var isOver: Bool { state == .done || state == .cancelled }
        func count(_ state: PageState) -> Int { pages.filter { $0.state == state }.count }
    }

    let record: JobRecord
    let folder: URL
    private let lock = NSLock()
    private var progress: Progress

    init(record: JobRecord, folder: URL, state: JobState) {
        self.record = record
        self.folder = folder
        progress = Progress(state: state, pages: Array(repeating: PageProgress(), count: record.pages.count))
    }

    var id: String { record.id }

    /// A look at the progress, under the job's lock.
    func read<T>(_ body: (Progress) -> T) -> T { lock.withLock { body(progress) } }

    /// A change of the progress, under the job's lock.
    @discardableResult
    func change<T>(_ body: (inout Progress) -> T) -> T { lock.withLock { body(&progress) } }
}

/// `failed.json` (written atomically at each failure): the reason of each failed page by its number, and the
/// failures after a page was read under `failure-<k>` keys.
extension Job {
    private static let failureKey = "failure-"

    func writeFailures() {
        let kept = read { progress -> [String: String] in
            var kept: [String: String] = [:]
            for (i, page) in progress.pages.enumerated() { if let error = page.error { kept[String(i + 1)] = error } }
            for (k, failure) in progress.failures.enumerated() { kept["\(Self.failureKey)\(String(format: "%04d", k))"] = failure }
            return kept
        }
        if let data = try? JSONEncoder().encode(kept) { try? AtomicFile.write(data, to: folder.appendingPathComponent("failed.json")) }
    }

    /// The failures a job kept, read back at start-up: the pages' reasons (their state is set by the caller) and the
    /// job's failures.
    func readFailures() -> [Int: String] {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("failed.json")),
              let kept = try? JSONDecoder().decode([String: String].self, from: data) else { return [:] }
        change { $0.failures = kept.filter { $0.key.hasPrefix(Self.failureKey) }.sorted { $0.key < $1.key }.map(\.value) }
        return Dictionary(kept.compactMap { key, value in Int(key).map { ($0, value) } }, uniquingKeysWith: { first, _ in first })
    }
}
