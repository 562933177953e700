import Foundation
import KotenOCRIIIF
import KotenOCRKit

/// Jobs (docs/serve.md, "Jobs"): each in `<work>/jobs/<32 hex>/` — `job.json` (its inputs and pages, written
/// atomically), `in/` (the uploads under the server's own names), `out/` (the batch's results and manifest,
/// written by `BatchRunner` through `PageCommit`), `failed.json`, `done`. One worker reads one job at a time through
/// the batch machinery with `resume`, so a job cut off by a kill continues at start-up where its manifest says,
/// and its files are those an uninterrupted run writes. The batch reads a job's inputs from one stable folder
/// (`<work>/run/`, hard links), so results name the same paths whichever job they belong to. A job of a IIIF
/// manifest (`manifest=URL`) keeps the manifest as read in `in/manifest.json`; its pages are the canvases, each
/// image fetched just before it is read (`IIIFBook.batchInputs`), its results below `out/<book>/`.
final class JobStore: @unchecked Sendable {
    struct Input: Codable { let file: String; let name: String; let pageCount: Int }
    /// `file`: a canvas's results' path in `out/` (`<book>/<index>_<label>.jpg`, as `IIIFBook.batchInputs` names it).
    struct Page: Codable { let n: Int; let input: Int; let page: Int; let name: String; var file: String? = nil }
    /// `manifest`: the IIIF manifest's URL, for a job of one.
    struct Record: Codable { let id: String; let ruby: String; let inputs: [Input]; let pages: [Page]; var manifest: String? = nil }

    enum State: String { case queued, running, done, cancelled }

    final class Job: @unchecked Sendable {
        let record: Record
        let folder: URL
        var state: State
        var pageStates: [String]
        var errors: [Int: String] = [:]
        /// Failures of pages already read: a format of a page, the input's PDF (`failures` in the status).
        var failures: [String] = []
        var lines: [Int: Int] = [:]
        /// The event streams of the clients watching, by watcher (one leaves when its client goes).
        var watchers: [UUID: AsyncStream<Data>.Continuation] = [:]
        var task: Task<Void, Never>?

        init(record: Record, folder: URL, state: State) {
            self.record = record
            self.folder = folder
            self.state = state
            pageStates = Array(repeating: "queued", count: record.pages.count)
        }
    }

    static let formats: [ResultFormat] = [.json, .txt, .alto, .pageXML, .hocr, .html, .pdf]
    let root: URL
    let jobsFolder: URL
    let runFolder: URL
    let engine: KotenOCR
    let admission: Admission
    let pdfGuard: (any PDFGuard)?
    let metrics: ServerMetrics
    /// Longest a job's page may take, seconds (`--page-timeout`).
    let pageTimeout: Double
    private let lock = NSLock()
    private var jobs: [String: Job] = [:]
    private var order: [String] = []
    private var wake: AsyncStream<Void>.Continuation?

    init(root: URL, engine: KotenOCR, admission: Admission, pdfGuard: (any PDFGuard)?, metrics: ServerMetrics, pageTimeout: Double) throws {
        self.pageTimeout = pageTimeout
        self.root = root
        jobsFolder = root.appendingPathComponent("jobs")
        runFolder = root.appendingPathComponent("run")
        self.engine = engine
        self.admission = admission
        self.pdfGuard = pdfGuard
        self.metrics = metrics
        try FileManager.default.createDirectory(at: jobsFolder, withIntermediateDirectories: true)
        try load()
    }

    /// The jobs found in the work directory: done ones as they are, the others queued again (in their order).
    private func load() throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: jobsFolder.path)) ?? []
        var found: [(Date, Job)] = []
        for id in names where RandomID.isValid(id) {
            let folder = jobsFolder.appendingPathComponent(id)
            guard let data = try? Data(contentsOf: folder.appendingPathComponent("job.json")),
                  let record = try? JSONDecoder().decode(Record.self, from: data), record.id == id else { continue }
            let done = FileManager.default.fileExists(atPath: folder.appendingPathComponent("done").path)
            let job = Job(record: record, folder: folder, state: done ? .done : .queued)
            if let failed = try? Data(contentsOf: folder.appendingPathComponent("failed.json")),
               let errors = try? JSONDecoder().decode([String: String].self, from: failed) {
                for (key, value) in errors { if let n = Int(key) { job.errors[n] = value } }
                job.failures = errors.filter { $0.key.hasPrefix(Self.failureKey) }.sorted { $0.key < $1.key }.map(\.value)
            }
            for page in record.pages {
                if let error = job.errors[page.n], done {
                    job.pageStates[page.n - 1] = "failed"
                    _ = error
                } else if let lines = lineCount(job, page.n) {
                    job.pageStates[page.n - 1] = "done"
                    job.lines[page.n] = lines
                }
            }
            let created = (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("job.json").path)[.creationDate] as? Date)
                ?? (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("job.json").path)[.modificationDate] as? Date) ?? Date()
            found.append((created, job))
            if !done { _ = admission.reserve(force: true) }
        }
        for (_, job) in found.sorted(by: { $0.0 < $1.0 }) {
            jobs[job.record.id] = job
            order.append(job.record.id)
        }
    }

    /// Starts the worker: jobs one at a time, in the order they came.
    func start() {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        wake = continuation
        continuation.yield()
        Task.detached { [self] in
            for await _ in stream {
                while let job = nextQueued() { await run(job) }
            }
        }
    }

    private func nextQueued() -> Job? {
        lock.withLock { order.compactMap { jobs[$0] }.first { $0.state == .queued } }
    }

    func counts() -> (queued: Int, running: Int, done: Int) {
        lock.withLock {
            let states = jobs.values.map(\.state)
            return (states.filter { $0 == .queued }.count, states.filter { $0 == .running }.count, states.filter { $0 == .done }.count)
        }
    }

    // MARK: files of a job

    private func task(_ job: Job, _ n: Int) -> PageTask? {
        guard n >= 1, n <= job.record.pages.count else { return nil }
        let page = job.record.pages[n - 1]
        if let file = page.file {  // a canvas: one page, named as the batch's remote input names it
            return PageTask(input: BatchInput(path: job.folder.appendingPathComponent("out").appendingPathComponent(file).path,
                                              relativePath: file), page: 0, pageCount: 1)
        }
        let input = job.record.inputs[page.input]
        let path = runFolder.appendingPathComponent(input.file).path
        return PageTask(input: BatchInput(path: path, relativePath: input.file), page: page.page, pageCount: input.pageCount)
    }

    private func resultFile(_ job: Job, _ n: Int, _ format: ResultFormat) -> URL? {
        guard let task = task(job, n) else { return nil }
        return job.folder.appendingPathComponent("out").appendingPathComponent(task.outputFile(format))
    }

    private func lineCount(_ job: Job, _ n: Int) -> Int? {
        guard let url = resultFile(job, n, .json), let data = try? Data(contentsOf: url),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return (object["lines"] as? [Any])?.count ?? 0
    }

    // MARK: JSON

    func snapshot(_ job: Job) -> [String: Any] {
        lock.withLock {
            let done = job.pageStates.filter { $0 == "done" }.count, failed = job.pageStates.filter { $0 == "failed" }.count
            let pages: [[String: Any]] = job.record.pages.map { page in
                var entry: [String: Any] = ["n": page.n, "name": page.name, "state": job.pageStates[page.n - 1]]
                if let error = job.errors[page.n], job.pageStates[page.n - 1] == "failed" { entry["error"] = error }
                if let lines = job.lines[page.n] { entry["lines"] = lines }
                return entry
            }
            var status: [String: Any] = ["id": job.record.id, "state": job.state.rawValue,
                    "progress": ["done": done, "failed": failed, "total": job.record.pages.count],
                    "links": ["self": "/v1/jobs/\(job.record.id)", "events": "/v1/jobs/\(job.record.id)/events"],
                    "pages": pages]
            if !job.failures.isEmpty { status["failures"] = job.failures }
            return status
        }
    }

    private func event(_ name: String, _ job: Job) -> Data {
        let json = (try? JSONSerialization.data(withJSONObject: snapshot(job), options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return Data("event: \(name)\ndata: ".utf8) + json + Data("\n\n".utf8)
    }

    private func publish(_ job: Job, end: Bool = false) {
        let data = event(end ? "end" : "progress", job)
        let watchers = lock.withLock { job.watchers }
        for w in watchers.values {
            w.yield(data)
            if end { w.finish() }
        }
        if end { lock.withLock { job.watchers = [:] } }
    }

    // MARK: POST /v1/jobs

    func submit(_ request: HTTPRequest, service: OCRService) async -> HTTPResponse {
        guard admission.admit(client: request.client) else {
            metrics.refused("client_rate")
            return .error(429, "too_many_requests", "more than \(admission.clientRate) OCR requests a minute from this client", headers: [("Retry-After", "60")])
        }
        let options: OCRService.RequestOptions, uploads: [HTTPUpload]
        do {
            options = try service.requestOptions(request.parameters, allowFormat: false)
            if let manifest = request.parameters["manifest"] {
                guard request.uploads.isEmpty else {
                    return .error(400, "bad_option", "a job is either files or a manifest: this request has both")
                }
                return await submit(manifest: manifest, options: options, service: service)
            }
            uploads = try service.uploads(request)
        } catch {
            return error.response
        }
        let id = RandomID.make()
        let folder = jobsFolder.appendingPathComponent(id)
        let incoming = folder.appendingPathComponent("in")
        do {
            try FileManager.default.createDirectory(at: incoming, withIntermediateDirectories: true)
        } catch {
            return .error(500, "internal", "cannot create the job's folder")
        }
        var inputs: [Input] = [], pages: [Page] = []
        let maxPages = service.options.maxPages
        func refuse(_ response: HTTPResponse) -> HTTPResponse {
            try? FileManager.default.removeItem(at: folder)
            return response
        }
        func add(_ file: URL, name: String, kind: UploadKind) throws(ResponseError) {
            let stored = String(format: "%04d.%@", inputs.count + 1, kind.fileExtension)
            let target = incoming.appendingPathComponent(stored)
            do {
                try FileManager.default.moveItem(at: file, to: target)
                // An upload carries no date: the stored input's is the epoch, so the same upload gives the same
                // results (PAGE XML's `Created` is the image's modification time).
                try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 0)], ofItemAtPath: target.path)
            } catch {
                throw ResponseError(.error(500, "internal", "cannot store \(name)"))
            }
            if kind == .pdf, let pdfGuard {
                do { try pdfGuard.check(FileSystemPath(target.path)) } catch { throw ResponseError(.error(422, "undecodable", "\(name): \(error)")) }
            }
            let count: Int
            do {
                count = try ImageSource.pageCount(of: target)
                _ = try engine.open(target)  // the first page's header: the pixel limit, before the job is accepted
            } catch {
                throw ResponseError(OCRService.failure(error, name: name, timeout: 0))
            }
            guard pages.count + count <= maxPages else {
                throw ResponseError(.error(413, "too_many_pages", "the job has more than \(maxPages) pages (--max-pages)"))
            }
            for p in 0..<count {
                pages.append(Page(n: pages.count + 1, input: inputs.count, page: p, name: count > 1 ? "\(name) p\(p + 1)" : name))
            }
            inputs.append(Input(file: stored, name: name, pageCount: count))
        }
        do {
            for (i, upload) in uploads.enumerated() {
                let name = upload.fileName.map { String($0.prefix(200)) } ?? "upload-\(i + 1)"
                guard let kind = UploadKind.sniff(upload.file) else {
                    metrics.refused("type")
                    return refuse(.error(415, "unsupported_type", "\(name) is not an image, PDF, TIFF or zip"))
                }
                if kind == .zip {
                    let limits = ZipArchive.Limits(entries: maxPages, entryBytes: service.options.maxUpload,
                                                   totalBytes: 4 * service.options.maxUpload)
                    let entries: [(index: UInt64, name: String, size: Int)]
                    do { entries = try ZipArchive.checkedEntries(upload.file, limits: limits) } catch {
                        metrics.refused("zip")
                        return refuse(.error(422, "bad_zip", "\(name): \(error)"))
                    }
                    for entry in entries.sorted(by: { $0.name < $1.name }) {
                        let scratch = incoming.appendingPathComponent("entry")
                        do { try ZipArchive.extract(upload.file, index: entry.index, size: entry.size, to: scratch) } catch {
                            return refuse(.error(422, "bad_zip", "\(name): \(error)"))
                        }
                        guard let entryKind = UploadKind.sniff(scratch), entryKind != .zip else {
                            return refuse(.error(415, "unsupported_type", "\(name): \(entry.name) is not an image or PDF"))
                        }
                        try add(scratch, name: "\(name)/\(entry.name)", kind: entryKind)
                    }
                } else {
                    try add(upload.file, name: name, kind: kind)
                }
            }
        } catch {
            return refuse(error.response)
        }
        guard !pages.isEmpty else { return refuse(.error(422, "no_pages", "the upload holds no page")) }
        return accept(Record(id: id, ruby: options.ruby.rawValue, inputs: inputs, pages: pages), folder: folder)
    }

    /// A job of the IIIF manifest at `manifest` (an http(s) URL): the manifest read now (422 when it cannot be,
    /// 413 past `--max-pages` canvases) and kept in the job's `in/manifest.json`; each canvas a page.
    private func submit(manifest: String, options: OCRService.RequestOptions, service: OCRService) async -> HTTPResponse {
        let lower = manifest.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            return .error(400, "bad_option", "manifest must be the http(s) URL of a IIIF manifest")
        }
        let book: IIIFBook
        do { book = try await IIIFBook.load(manifest) } catch {
            metrics.refused("manifest")
            return .error(422, "bad_manifest", ErrorText.line(error))
        }
        guard !book.canvases.isEmpty else { return .error(422, "no_pages", "\(manifest): the manifest has no canvas") }
        guard book.canvases.count <= service.options.maxPages else {
            return .error(413, "too_many_pages", "the manifest has \(book.canvases.count) canvases, more than \(service.options.maxPages) (--max-pages)")
        }
        let id = RandomID.make()
        let folder = jobsFolder.appendingPathComponent(id)
        do {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("in"), withIntermediateDirectories: true)
            try AtomicFile.write(book.data, to: folder.appendingPathComponent("in").appendingPathComponent(Self.manifestFile))
        } catch {
            try? FileManager.default.removeItem(at: folder)
            return .error(500, "internal", "cannot store the job's manifest")
        }
        let names = Self.canvasInputs(book, out: folder.appendingPathComponent("out"), scratch: runFolder).map(\.relativePath)
        let pages = zip(book.canvases, names).enumerated().map { i, entry in
            Page(n: i + 1, input: 0, page: i, name: "canvas \(entry.0.index)" + (entry.0.label.map { " (\($0))" } ?? ""), file: entry.1)
        }
        let input = Input(file: Self.manifestFile, name: String(manifest.prefix(400)), pageCount: pages.count)
        return accept(Record(id: id, ruby: options.ruby.rawValue, inputs: [input], pages: pages, manifest: manifest), folder: folder)
    }

    /// The manifest of a IIIF job, as read when it was posted (`in/manifest.json`).
    private static let manifestFile = "manifest.json"

    /// A IIIF book's canvases as the batch's remote pages, at the default image size, their images fetched into
    /// `out/<book>/` just before each is read.
    private static func canvasInputs(_ book: IIIFBook, out: URL, scratch: URL) -> [BatchInput] {
        (try? book.batchInputs(pages: nil, size: .longSide(IIIFImageSize.defaultLongSide), outputDirectory: out, scratch: scratch)) ?? []
    }

    /// Queues the job of `record` (its files in `folder`): 503 when the queue is full, else 202 with its status.
    private func accept(_ record: Record, folder: URL) -> HTTPResponse {
        let id = record.id
        func refuse(_ response: HTTPResponse) -> HTTPResponse {
            try? FileManager.default.removeItem(at: folder)
            return response
        }
        guard admission.reserve() else {
            metrics.refused("queue")
            return refuse(.error(503, "queue_full", "the queue is full (\(admission.capacity) waiting)", headers: [("Retry-After", "5")]))
        }
        do {
            let data = try JSONEncoder().encode(record)
            try AtomicFile.write(data, to: folder.appendingPathComponent("job.json"))
        } catch {
            admission.release()
            return refuse(.error(500, "internal", "cannot record the job"))
        }
        let job = Job(record: record, folder: folder, state: .queued)
        lock.withLock {
            jobs[id] = job
            order.append(id)
        }
        wake?.yield()
        var body = snapshot(job)
        body.removeValue(forKey: "pages")
        return .json(202, body, headers: [("Location", "/v1/jobs/\(id)")])
    }

    // MARK: the worker

    private func run(_ job: Job) async {
        lock.withLock { job.state = .running }
        let work = Task { await read(job) }
        lock.withLock { job.task = work }
        await work.value
        let cancelled = lock.withLock { job.state == .cancelled }
        if !cancelled {  // a cancelled job's place was given back by `delete`
            lock.withLock {
                job.state = .done
                for i in job.pageStates.indices where job.pageStates[i] != "done" { job.pageStates[i] = "failed" }
            }
            try? AtomicFile.write(Data(), to: job.folder.appendingPathComponent("done"))
            admission.release()
        }
        publish(job, end: true)
    }

    private func read(_ job: Job) async {
        let fm = FileManager.default
        try? fm.removeItem(at: runFolder)
        var remote: [BatchInput] = []
        if let manifest = job.record.manifest {
            let file = job.folder.appendingPathComponent("in").appendingPathComponent(Self.manifestFile)
            guard let data = try? Data(contentsOf: file), let book = try? IIIFBook.parse(data, source: manifest) else {
                fail(job, "the job's manifest cannot be read again")
                return
            }
            remote = Self.canvasInputs(book, out: job.folder.appendingPathComponent("out"), scratch: runFolder)
        }
        do {
            try fm.createDirectory(at: runFolder, withIntermediateDirectories: true)
            for input in job.record.inputs where job.record.manifest == nil {
                let source = job.folder.appendingPathComponent("in").appendingPathComponent(input.file)
                let link = runFolder.appendingPathComponent(input.file)
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
        let numbers = Dictionary(job.record.pages.compactMap { page in task(job, page.n).map { ($0.key, page.n) } },
                                 uniquingKeysWith: { first, _ in first })
        // Pages that ran past the time limit (in this run or one before a restart) are not read again.
        var skipped = Set(lock.withLock { job.errors.filter { $0.value.hasPrefix(Self.timeLimitReason) }.keys }
            .compactMap { task(job, $0)?.key })
        while !Task.isCancelled {
            let plan: BatchPlan
            do {
                let files = job.record.manifest != nil ? [] : job.record.inputs.map { FileSystemPath(runFolder.appendingPathComponent($0.file).path) }
                plan = try BatchPlan.prepare(files: files, remote: remote, options: options).skipping(skipped)
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
        writeJobPDF(job)
    }

    static let timeLimitReason = "page time limit reached"
    private static let failureKey = "failure-"

    /// One event of the job's batch: the page's state, line count and error, published to its watchers.
    private func handle(_ event: BatchEvent, job: Job, numbers: [String: Int], clock: StartClock) {
        switch event {
        case .pageStarted(let task, _):
            clock.start(task.key)
            if let n = numbers[task.key] { lock.withLock { job.pageStates[n - 1] = "running" } }
            publish(job)
        case .pageRead(let task, _, _):
            metrics.pageRead(seconds: clock.seconds)
            clock.stop()
            if let n = numbers[task.key] {
                let lines = lineCount(job, n)
                lock.withLock {
                    job.pageStates[n - 1] = "done"
                    job.lines[n] = lines
                }
            }
            publish(job)
            if let hold = TestHooks.holdAfterPages, TestHooks.countPage() >= hold { TestHooks.holdForever() }
        case .failed(let failure, _):
            clock.stop()
            metrics.pageFailed()
            let hit = numbers[failure.shardKey].map { [$0] } ?? job.record.pages.filter { job.pageStates[$0.n - 1] != "done" }.map(\.n)
            for n in hit { recordFailure(job, n: n, reason: failure.reason) }
        default:
            break
        }
    }

    /// Page `n` failed: its state and reason, kept in `failed.json` (written atomically), published. A failure
    /// after the page was read (one of its formats, its input's PDF) leaves the page done and is one of the job's
    /// `failures` (kept under `failure-<k>` keys).
    private func recordFailure(_ job: Job, n: Int, reason: String) {
        let errors = lock.withLock { () -> [String: String] in
            if job.pageStates[n - 1] != "done" {
                job.pageStates[n - 1] = "failed"
                job.errors[n] = reason
            } else if !job.failures.contains(reason) {
                job.failures.append(reason)
            }
            var kept = Dictionary(uniqueKeysWithValues: job.errors.map { (String($0.key), $0.value) })
            for (k, failure) in job.failures.enumerated() { kept["\(Self.failureKey)\(String(format: "%04d", k))"] = failure }
            return kept
        }
        if let data = try? JSONEncoder().encode(errors) { try? AtomicFile.write(data, to: job.folder.appendingPathComponent("failed.json")) }
        publish(job)
    }

    /// The whole job's searchable PDF (`job.pdf`): the page files the batch keeps (`BatchOptions.keepsPDFPageFiles`)
    /// of the pages read, in page order, joined; written atomically. None when no page was read.
    private func writeJobPDF(_ job: Job) {
        let out = job.folder.appendingPathComponent("out")
        let files = job.record.pages.compactMap { page -> URL? in
            guard let task = task(job, page.n) else { return nil }
            let url = out.appendingPathComponent(ResultFormat.pdfPageFileName(pageStem: task.outputStem))
            return FileManager.default.fileExists(atPath: url.path) ? url : nil
        }
        guard !files.isEmpty else { return }
        try? AtomicFile.write(to: job.folder.appendingPathComponent("job.pdf")) { handle in
            try SearchablePDF.write(pageFiles: files, to: handle)
        }
    }

    private func fail(_ job: Job, _ reason: String) {
        lock.withLock {
            for i in job.pageStates.indices where job.pageStates[i] != "done" {
                job.pageStates[i] = "failed"
                job.errors[i + 1] = reason
            }
        }
    }

    // MARK: GET / DELETE /v1/jobs/{id}/…

    func route(_ request: HTTPRequest, id: String, rest: [String]) async -> HTTPResponse {
        guard RandomID.isValid(id), let job = lock.withLock({ jobs[id] }) else {
            return .error(404, "not_found", "no such job")
        }
        let method = request.method
        switch rest {
        case []:
            if method == "DELETE" { return await delete(job) }
            guard method == "GET" else { return OCRService.notAllowed("GET, DELETE") }
            return .json(200, snapshot(job))
        case ["events"]:
            guard method == "GET" else { return OCRService.notAllowed("GET") }
            return events(job)
        case ["result"]:
            guard method == "GET" else { return OCRService.notAllowed("GET") }
            return result(job, format: request.parameters["format"] ?? "pdf")
        default:
            guard rest.count >= 2, rest[0] == "pages", let n = Int(rest[1]), n >= 1, n <= job.record.pages.count else {
                return .error(404, "not_found", "no such page or route")
            }
            guard method == "GET" else { return OCRService.notAllowed("GET") }
            if rest.count == 2 { return page(job, n, format: request.parameters["format"] ?? "json") }
            if rest == ["pages", rest[1], "image"] { return image(job, n) }
            return .error(404, "not_found", "no such route")
        }
    }

    private func events(_ job: Job) -> HTTPResponse {
        // Every event is a snapshot of the whole job: a client that reads slowly needs only the newest, and one that
        // stops reading holds one (`StreamedBody` takes the next chunk only once the last has been sent).
        let (stream, continuation) = AsyncStream.makeStream(of: Data.self, bufferingPolicy: .bufferingNewest(1))
        let finished = lock.withLock { () -> Bool in
            if job.state == .done || job.state == .cancelled { return true }
            let watcher = UUID()
            job.watchers[watcher] = continuation
            // Later, not here: the stream may end while `lock` is held (its last holder released under it).
            continuation.onTermination = { [lock, weak job] _ in
                DispatchQueue.global().async { [job] in lock.withLock { _ = job?.watchers.removeValue(forKey: watcher) } }
            }
            return false
        }
        continuation.yield(event(finished ? "end" : "progress", job))
        if finished { continuation.finish() }
        return HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store")], body: .stream(stream))
    }

    private func format(_ text: String) -> ResultFormat? {
        ResultFormat(rawValue: text.lowercased()).flatMap { OCRService.formats.contains($0) ? $0 : nil }
    }

    private func page(_ job: Job, _ n: Int, format text: String) -> HTTPResponse {
        guard let format = format(text) else { return .error(400, "bad_option", "format must be one of \(OCRService.formats.map(\.rawValue).joined(separator: ", "))") }
        if let refusal = notDone(job, n) { return refusal }
        if format == .pdf {
            // One page of the searchable PDF is part of its input's document: the whole job's PDF is `result`.
            return .error(400, "bad_option", "a page's PDF is part of the job's: GET /v1/jobs/{id}/result?format=pdf")
        }
        guard let url = resultFile(job, n, format) else { return .error(404, "not_found", "no such page") }
        return HTTPResponse(status: 200, headers: [("Content-Type", OCRService.contentType(format))], body: .file(url))
    }

    private func image(_ job: Job, _ n: Int) -> HTTPResponse {
        if let refusal = notDone(job, n) { return refusal }
        guard let task = task(job, n),
              let data = try? Data(contentsOf: job.folder.appendingPathComponent("out").appendingPathComponent(task.outputFile(.json))),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return .error(404, "not_found", "page \(n) is not done")
        }
        let page = job.record.pages[n - 1]
        if page.file != nil {  // a canvas's image is the library's: see it there
            guard let iiif = (object["source"] as? [String: Any])?["iiif"] as? [String: Any], let image = iiif["image"] as? String,
                  image.lowercased().hasPrefix("http") else { return .error(404, "not_found", "page \(n): the canvas names no image") }
            return HTTPResponse(status: 303, headers: [("Location", image)], body: .data(Data()))
        }
        let file = job.folder.appendingPathComponent("in").appendingPathComponent(job.record.inputs[page.input].file)
        do {
            let source = try engine.open(file, page: page.page)
            let rotation = PageRotation(degrees: object["rotation"] as? Int ?? 0) ?? .upright
            let jpeg = try source.turnedUpright(from: rotation).encodedDisplay(.jpeg(quality: 90))
            return HTTPResponse(status: 200, headers: [("Content-Type", "image/jpeg")], body: .data(jpeg))
        } catch {
            return .error(500, "internal", "page \(n): \(ErrorText.line(error))")
        }
    }

    /// 404 for page `n` when it is not done: "failed" with its reason, or "not done yet"; nil when it is done.
    private func notDone(_ job: Job, _ n: Int) -> HTTPResponse? {
        let (state, error) = lock.withLock { (job.pageStates[n - 1], job.errors[n]) }
        if state == "done" { return nil }
        if state == "failed" { return .error(404, "page_failed", "page \(n) failed: \(error ?? "no reason recorded")") }
        return .error(404, "not_found", "page \(n) is not done yet (\(state))")
    }

    private func result(_ job: Job, format text: String) -> HTTPResponse {
        guard let format = format(text) else { return .error(400, "bad_option", "format must be one of \(OCRService.formats.map(\.rawValue).joined(separator: ", "))") }
        guard lock.withLock({ job.state == .done }) else { return .error(409, "not_done", "the job is not done") }
        let out = job.folder.appendingPathComponent("out")
        if format == .pdf {
            let url = job.folder.appendingPathComponent("job.pdf")
            guard FileManager.default.fileExists(atPath: url.path) else { return .error(404, "not_found", "the job has no PDF (no page was read)") }
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/pdf"),
                                                       ("Content-Disposition", DownloadName.contentDisposition(
                                                           "\(downloadStem(job)).pdf", fallback: "\(job.record.id).pdf"))], body: .file(url))
        }
        // A zip of per-page files, named by page number.
        var files: [(name: String, file: URL)] = []
        var seen = Set<String>()
        for page in job.record.pages {
            guard let task = task(job, page.n) else { continue }
            let url = out.appendingPathComponent(task.outputFile(format))
            let name = String(format: "%04d.%@", page.n, format.fileExtension)
            if seen.insert(name).inserted, FileManager.default.fileExists(atPath: url.path) { files.append((name, url)) }
        }
        let zip = job.folder.appendingPathComponent("result-\(format.rawValue).zip")
        let scratch = job.folder.appendingPathComponent(".result-\(RandomID.make()).zip")
        do {
            try ZipArchive.write(files, to: scratch)
            guard rename(scratch.path, zip.path) == 0 else { throw ZipArchive.Refusal(description: "cannot store the result zip") }
        } catch {
            try? FileManager.default.removeItem(at: scratch)
            return .error(500, "internal", "\(error)")
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/zip"),
                                                   ("Content-Disposition", DownloadName.contentDisposition(
                                                       "\(downloadStem(job))-\(format.rawValue).zip", fallback: "\(job.record.id)-\(format.rawValue).zip"))],
                            body: .file(zip))
    }

    /// What the job's downloads are named after: its first input, or its manifest (`DownloadName`).
    private func downloadStem(_ job: Job) -> String {
        DownloadName.stem(inputName: job.record.inputs.first?.name, manifest: job.record.manifest)
    }

    /// Cancels the job (its page stops within about one model run), then removes it and its files.
    private func delete(_ job: Job) async -> HTTPResponse {
        let (wasUnfinished, task) = lock.withLock { () -> (Bool, Task<Void, Never>?) in
            let unfinished = job.state == .queued || job.state == .running
            job.state = .cancelled
            jobs[job.record.id] = nil
            order.removeAll { $0 == job.record.id }
            return (unfinished, job.task)
        }
        task?.cancel()
        if wasUnfinished { admission.release() }
        publish(job, end: true)
        await task?.value
        try? FileManager.default.removeItem(at: job.folder)
        return HTTPResponse(status: 204)
    }
}
