import Foundation
import KotenOCRKit

/// The registry of jobs: every job of the work directory by id, in the order they came. Loaded from the work
/// directory at start-up (done jobs as they are, the others queued again in their order, so they resume); jobs
/// are added when accepted and removed when deleted. Nothing else: taking jobs in is `JobIntake`'s, reading them
/// `JobWorker`'s, their events `JobEvents`'.
final class JobStore: @unchecked Sendable {
    let files: JobFiles
    private let lock = NSLock()
    private var jobs: [String: Job] = [:]
    private var order: [String] = []

    init(files: JobFiles) throws {
        self.files = files
        try FileManager.default.createDirectory(at: files.jobs, withIntermediateDirectories: true)
    }

    /// Loads the jobs of the work directory; returns how many are unfinished (each will need a place in the queue).
    func load() -> Int {
        let fm = FileManager.default
        var found: [(Date, Job)] = []
        for id in (try? fm.contentsOfDirectory(atPath: files.jobs.path)) ?? [] where RandomID.isValid(id) {
            let folder = files.folder(id)
            let recordFile = folder.appendingPathComponent("job.json")
            guard let data = try? Data(contentsOf: recordFile), let record = try? JSONDecoder().decode(JobRecord.self, from: data),
                  record.id == id else { continue }
            let done = fm.fileExists(atPath: folder.appendingPathComponent("done").path)
            let job = Job(record: record, folder: folder, state: done ? .done : .queued)
            let errors = job.readFailures()
            for page in record.pages {
                if let error = errors[page.n], done {
                    job.change { $0.pages[page.n - 1] = Job.PageProgress(state: .failed, error: error) }
                } else if let lines = files.lineCount(job, page.n) {
                    job.change { $0.pages[page.n - 1] = Job.PageProgress(state: .done, lines: lines) }
                } else if let error = errors[page.n] {
                    job.change { $0.pages[page.n - 1].error = error }  // failed before a restart: kept for the worker
                }
            }
            let attributes = try? fm.attributesOfItem(atPath: recordFile.path)
            let created = (attributes?[.creationDate] as? Date) ?? (attributes?[.modificationDate] as? Date) ?? Date()
            found.append((created, job))
        }
        lock.withLock {
            for (_, job) in found.sorted(by: { $0.0 < $1.0 }) {
                jobs[job.id] = job
                order.append(job.id)
            }
        }
        return found.filter { !$0.1.read(\.isOver) }.count
    }

    func add(_ job: Job) {
        lock.withLock {
            jobs[job.id] = job
            order.append(job.id)
        }
    }

    /// The job of `id`; nil when there is none (or `id` has not the shape of one).
    func job(_ id: String) -> Job? {
        guard RandomID.isValid(id) else { return nil }
        return lock.withLock { jobs[id] }
    }

    /// Every job, in the order they came.
    func all() -> [Job] { lock.withLock { order.compactMap { jobs[$0] } } }

    func remove(_ job: Job) {
        lock.withLock {
            jobs[job.id] = nil
            order.removeAll { $0 == job.id }
        }
    }

    /// The first queued job, in the order they came.
    func nextQueued() -> Job? {
        lock.withLock { order.compactMap { jobs[$0] }.first { $0.read(\.state) == .queued } }
    }

    func counts() -> (queued: Int, running: Int, done: Int) {
        let states = lock.withLock { jobs.values.map { $0.read(\.state) } }
        return (states.filter { $0 == .queued }.count, states.filter { $0 == .running }.count, states.filter { $0 == .done }.count)
    }
}
