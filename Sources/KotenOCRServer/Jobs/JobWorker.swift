import Foundation
import KotenOCRIIIF
import KotenOCRKit

/// The one worker that reads jobs, one at a time in the order they came, through the batch machinery with resume
/// (the same code as `koten-ocr -o out/ --resume`): `BatchPlan.prepare` over the job's inputs, `BatchRunner.run`,
/// each page's files committed together (`PageCommit`) and recorded in the batch's manifest, so a job cut off by a
/// kill continues at start-up where its manifest says and its files are those an uninterrupted run writes. A page
/// that runs past `--page-timeout` is stopped by the watchdog (the batch's task cancelled), fails with
/// "page time limit reached", and the batch is planned again without it.
final class JobWorker: @unchecked Sendable {
    /// What became of a page, for the metrics.
    enum PageOutcome { case read(seconds: Double), failed }

    static let formats: [ResultFormat] = [.json, .txt, .alto, .pageXML, .hocr, .html, .pdf]
    static let timeLimitReason = "page time limit reached"

    let store: JobStore
    let events: JobEvents
    let engine: KotenOCR
    let queue: RequestQueue
    let pdfGuard: (any PDFGuard)?
    /// Where each page read is stored as the engine's reading, beside its corrections (Corpus/).
    let corpus: JobCorpus
    /// Longest a job's page may take, seconds (`--page-timeout`).
    let pageTimeout: Double
    let onPage: @Sendable (PageOutcome) -> Void
    private var files: JobFiles { store.files }
    private let lock = NSLock()
    private var wakeUp: AsyncStream<Void>.Continuation?

    init(store: JobStore, events: JobEvents, engine: KotenOCR, queue: RequestQueue, pdfGuard: (any PDFGuard)?, corpus: JobCorpus,
         pageTimeout: Double, onPage: @escaping @Sendable (PageOutcome) -> Void) {
        self.store = store
        self.corpus = corpus
        self.events = events
        self.engine = engine
        self.queue = queue
        self.pdfGuard = pdfGuard
        self.pageTimeout = pageTimeout
        self.onPage = onPage
    }

    /// Starts the worker: jobs one at a time, in the order they came (the unfinished ones of the work directory first).
    func start() {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        lock.withLock { wakeUp = continuation }
        continuation.yield()
        Task.detached { [self] in
            for await _ in stream {
                while let job = store.nextQueued() { await run(job) }
            }
        }
    }

    /// A job was queued.
    func wake() { _ = lock.withLock { wakeUp?.yield() } }

    /// Cancels `job` (its page stops within about one model run), then removes it and its files.
    func remove(_ job: Job) async {
        let (wasUnfinished, task) = job.change { progress -> (Bool, Task<Void, Never>?) in
            let unfinished = progress.state == .queued || progress.state == .running
            progress.state = .cancelled
            return (unfinished, progress.task)
        }
        store.remove(job)
        task?.cancel()
        if wasUnfinished { queue.release() }
        events.publish(job, end: true)
        await task?.value
        try? FileManager.default.removeItem(at: job.folder)
        // Its pages, corrections and index entries go too (one left by a failure here goes at the next start-up).
        _ = try? await JobCorpus.run { [corpus] in try corpus.removeJob(job.id) }
    }

    /// Brings the corpus in line with the loaded jobs at start-up, before any job is read: the jobs it has whose
    /// folder the work directory has not (removed while the corpus could not be written) are removed from it, and the reading
    /// of every page that was read but is not there (read before the corpus existed, or a kill between the page's
    /// files and its reading) is stored. A page that is there is left as it is: its corrections are never touched.
    func syncCorpus(_ jobs: [Job]) {
        // Only a job whose folder is gone: one whose record could not be read keeps its corrections.
        let known = Set(jobs.map(\.id))
        for gone in corpus.jobNames() where !known.contains(gone) && !FileManager.default.fileExists(atPath: files.folder(gone).path) {
            try? corpus.removeJob(gone)
        }
        for job in jobs {
            let stored = corpus.pageNumbers(job: job.id)
            let done = job.read { progress in progress.pages.indices.filter { progress.pages[$0].state == .done }.map { $0 + 1 } }
            for n in done where !stored.contains(n) { storeReading(job, n) }
        }
    }

    /// Stores page `n`'s reading (its result JSON) in the corpus; a failure is one of the job's `failures` (the page
    /// stays read: its files are written).
    private func storeReading(_ job: Job, _ n: Int) {
        do {
            guard let url = files.result(job, n, .json) else { return }
            let result = try JSONDecoder().decode(PageResult.self, from: Data(contentsOf: url))
            try corpus.storeReading(result, job: job.id, page: n)
        } catch {
            let reason = "page \(n) could not be stored for proofreading: \(ErrorText.line(error))"
            job.change { if !$0.failures.contains(reason) { $0.failures.append(reason) } }
        }
    }

    private func run(_ job: Job) async {
        job.change { $0.state = .running }
        let work = Task { await read(job) }
        job.change { $0.task = work }
        await work.value
        let cancelled = job.change { progress -> Bool in
            guard progress.state != .cancelled else { return true }  // a cancelled job's place was given back by `remove`
            progress.state = .done
            for i in progress.pages.indices where progress.pages[i].state != .done { progress.pages[i].state = .failed }
            return false
        }
        if !cancelled {
            try? AtomicFile.write(Data(), to: job.folder.appendingPathComponent("done"))
            queue.release()
        }
        events.publish(job, end: true)
    }

    private func read(_ job: Job) async {
        let fm = FileManager.default
        try? fm.removeItem(at: files.run)
        var remote: [BatchInput] = []
        if let manifest = job.record.manifest {
            let file = job.folder.appendingPathComponent("in").appendingPathComponent(JobFiles.manifestFile)
            guard let data = try? Data(contentsOf: file), let book = try? IIIFBook.parse(data, source: manifest) else {
                fail(job, "the job's manifest cannot be read again")
                return
            }
            remote = JobIntake.canvasInputs(book, out: job.folder.appendingPathComponent("out"), scratch: files.run)
        }
        do {
            try fm.createDirectory(at: files.run, withIntermediateDirectories: true)
            for input in job.record.inputs where job.record.manifest == nil {
                let source = job.folder.appendingPathComponent("in").appendingPathComponent(input.file)
                let link = files.run.appendingPathComponent(input.file)
                if (try? fm.linkItem(at: source, to: link)) == nil { try fm.copyItem(at: source, to: link) }
            }
        } catch {
            fail(job, "the job's inputs cannot be staged: \(ErrorText.line(error))")
            return
        }
        var options = BatchOptions(outputDirectory: job.folder.appendingPathComponent("out"), formats: Self.formats, resume: true)
        options.keepsPDFPageFiles = true
        options.ruby = ResultFormat.RubyStyle(rawValue: job.record.ruby) ?? .drop
        options.pdfGuard = pdfGuard
        // PAGE XML's `Created`: the job's time, the same for every page and after a restart.
        if let created = job.record.created { options.readingTime = .fixed(created) }
        let numbers = Dictionary(job.record.pages.compactMap { page in files.task(job, page.n).map { ($0.key, page.n) } },
                                 uniquingKeysWith: { first, _ in first })
        // Pages that ran past the time limit (in this run or one before a restart) are not read again.
        var skipped = Set(job.read { progress in
            progress.pages.indices.filter { progress.pages[$0].error?.hasPrefix(Self.timeLimitReason) == true }
        }.compactMap { files.task(job, $0 + 1)?.key })
        while !Task.isCancelled {
            let plan: BatchPlan
            do {
                plan = try BatchPlan.prepare(files: [], inputs: files.uploadInputs(job), remote: remote, options: options).skipping(skipped)
            } catch {
                fail(job, ErrorText.line(error))
                return
            }
            let clock = StartClock()
            let runner = BatchRunner(engine: engine, options: options)
            let batch = Task { [self, numbers] in
                _ = try? await BatchRunner.$failingFormat.withValue(TestHooks.failingFormat) {
                    try await runner.run(plan) { [self] event in
                        handle(event, job: job, numbers: numbers, clock: clock)
                    }
                }
            }
            let limit = pageTimeout
            let watchdog = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(nanoseconds: 250_000_000)
                    if let key = clock.current, clock.seconds > limit {
                        clock.timedOut = key
                        batch.cancel()
                        return
                    }
                }
            }
            await withTaskCancellationHandler { await batch.value } onCancel: { batch.cancel() }
            watchdog.cancel()
            guard let key = clock.timedOut, !Task.isCancelled else { break }
            // The page ran past its time limit: it fails as such, and the job goes on with the next page.
            skipped.insert(key)
            if let n = numbers[key] {
                recordFailure(job, n: n, reason: "\(Self.timeLimitReason) (\(Int(limit)) s, --page-timeout): the page was stopped")
            }
        }
        if Task.isCancelled { return }
        files.writePDF(job)
    }

    /// One event of the job's batch: the page's state, line count and error, published to its watchers.
    private func handle(_ event: BatchEvent, job: Job, numbers: [String: Int], clock: StartClock) {
        switch event {
        case .pageStarted(let task, _):
            clock.start(task.key)
            if let n = numbers[task.key] { job.change { $0.pages[n - 1].state = .running } }
            events.publish(job)
        case .pageRead(let task, _, _):
            onPage(.read(seconds: clock.seconds))
            clock.stop()
            if let n = numbers[task.key] {
                storeReading(job, n)  // before the page is done, so a client that sees it done finds it in the corpus
                let lines = files.lineCount(job, n)
                job.change {
                    $0.pages[n - 1].state = .done
                    $0.pages[n - 1].lines = lines
                }
            }
            events.publish(job)
            if let hold = TestHooks.holdAfterPages, TestHooks.countPage() >= hold { TestHooks.holdForever() }
        case .failed(let failure, _):
            clock.stop()
            onPage(.failed)
            let hit = numbers[failure.shardKey].map { [$0] }
                ?? job.read { progress in job.record.pages.filter { progress.pages[$0.n - 1].state != .done }.map(\.n) }
            for n in hit { recordFailure(job, n: n, reason: failure.reason) }
        default:
            break
        }
    }

    /// Page `n` failed: its state and reason, kept in `failed.json`, published. A failure after the page was read
    /// (one of its formats, its input's PDF) leaves the page done and is one of the job's `failures`.
    private func recordFailure(_ job: Job, n: Int, reason: String) {
        job.change { progress in
            if progress.pages[n - 1].state != .done {
                progress.pages[n - 1].state = .failed
                progress.pages[n - 1].error = reason
            } else if !progress.failures.contains(reason) {
                progress.failures.append(reason)
            }
        }
        job.writeFailures()
        events.publish(job)
    }

    private func fail(_ job: Job, _ reason: String) {
        job.change { progress in
            for i in progress.pages.indices where progress.pages[i].state != .done {
                progress.pages[i].state = .failed
                progress.pages[i].error = reason
            }
        }
    }
}

/// The page a job's batch is reading (its `PageTask.key`) and when it started; the page the watchdog stopped.
final class StartClock: @unchecked Sendable {
    private let lock = NSLock()
    private var started = Date()
    private var key: String?
    private var stopped: String?
    func start(_ key: String) { lock.withLock { started = Date(); self.key = key } }
    func stop() { lock.withLock { key = nil } }
    var current: String? { lock.withLock { key } }
    var seconds: Double { lock.withLock { Date().timeIntervalSince(started) } }
    var timedOut: String? {
        get { lock.withLock { stopped } }
        set { lock.withLock { stopped = newValue } }
    }
}
