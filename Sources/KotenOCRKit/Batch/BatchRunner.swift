import Foundation

/// One result of a page in one format. For `pdf` of a multi-page input written to a folder, the page's part of
/// the input's PDF (its hidden page file, `PageTask.pageFile`); the PDF itself is announced by `.documentWritten`.
public struct RenderedResult: Sendable {
    public let format: ResultFormat
    public let data: Data
    /// Where it was written (nil without an output directory).
    public let file: URL?
}

/// What a running batch reports, in order, each with the progress after it.
public enum BatchEvent: Sendable {
    /// An input that cannot be read at all (reported first) or a page that failed.
    case failed(Failure, Progress)
    /// A page is about to be read.
    case pageStarted(PageTask, Progress)
    /// The page being read: how many lines it has, how many are read (once when they are found, then after
    /// each line).
    case linesRead(PageTask, LineProgress, Progress)
    /// A page was read (and, with an output directory, its results written and recorded). A format that failed on
    /// it is not among the results: a `.failed` naming the format follows, and the page counts as failed.
    case pageRead(PageTask, [RenderedResult], Progress)
    /// Right after `pageRead` for a page in which no line was found (its text outputs are empty). Not a
    /// failure (blank pages exist), but never silent: the CLI names each such page on standard error.
    case pageWithoutLines(PageTask, Progress)
    /// After the last page: a result of the whole run (the koten TEI of `--format tei`: `RunDocument`), written
    /// when there is an output directory.
    case runRead(RenderedResult, Progress)
    /// The document of a multi-page input (`pdf`: `InputDocument`) was written to this file, its pages all read.
    case documentWritten(InputDocument, URL, Progress)
    /// The batch is over: the last event of `BatchRunner.events(_:)` (not sent when it is cancelled).
    case finished(Progress)
}

/// Reads a planned batch with an engine, page by page in order, the next page's decoding and detection under the
/// current page's recognition while memory is not tight (`PagesInFlight`); a failing page is reported and the
/// batch goes on.
///
/// With an output directory a page's results are committed together, all or none (`PageCommit`: temporary
/// files, then renames, never through a symbolic link), and the page is recorded in the manifest (`BatchManifest`: `started` before, `done` with SHA-256s after), so a
/// kill at any instant leaves only complete results and a resumable manifest. Cancelling the task stops the
/// batch between pages, or within a page between model runs: the pages read stay recorded, the pages cut
/// off (the current one and the one read ahead) have a `started` line only and are read again by a `--resume` run.
///
/// ```swift
/// for await event in BatchRunner(engine: ocr, options: options).events(plan) {
///     if case .linesRead(let task, let lines, _) = event { print(task.displayName, lines.done, "/", lines.total) }
/// }
/// ```
public struct BatchRunner: Sendable {
    public let engine: KotenOCR
    public let options: BatchOptions

    public init(engine: KotenOCR, options: BatchOptions) {
        self.engine = engine
        self.options = options
    }

    /// Runs `plan` in a new task and delivers its events as they happen, ending with `.finished`. Cancelling
    /// the task that iterates (or dropping the sequence) cancels the batch, as `run` describes. Events are
    /// buffered until they are read; `.pageRead` carries the page's rendered results.
    public func events(_ plan: BatchPlan) -> AsyncStream<BatchEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: BatchEvent.self)
        let runner = self
        let task = Task {
            if let progress = try? await runner.run(plan, onEvent: { continuation.yield($0) }) {
                continuation.yield(.finished(progress))
            }
            continuation.finish()
        }
        continuation.onTermination = { termination in
            if case .cancelled = termination { task.cancel() }
        }
        return stream
    }

    /// Runs `plan`, calling `onEvent` for each failure, page and line (line events come from the tasks reading
    /// the lines, one at a time). Returns the final progress (`failures > 0` means some input or page failed).
    /// Throws `CancellationError` when the task is cancelled: no page starts after that, and a page being
    /// read stops within about one model run and is not counted.
    public func run(_ plan: BatchPlan, now: () -> Date = Date.init,
                    onEvent: @escaping @Sendable (BatchEvent) -> Void) async throws -> BatchEvent.Progress {
        var progress = BatchEvent.Progress(total: plan.tasks.count, alreadyDone: plan.alreadyDone, startedAt: now())
        for failure in plan.failures {
            // Inputs refused while planning: an existing file failed to open (its header was decoded), a
            // missing path never reached a stage.
            let opened = FileManager.default.fileExists(atPath: failure.path)
            engine.diagnostics?.recordFailure(path: failure.path, page: nil, stage: opened ? PipelineStage.decode.rawValue : nil,
                                              reason: failure.reason)
            progress.failures += 1
            onEvent(.failed(failure, progress))
        }
        let (manifest, manifestError) = Self.openManifest(plan.manifest)
        let runFormat = plan.runDocument == nil ? nil : options.runFormat
        var document: (any RunDocument)?
        let lastTaskOfDocument = InputDocuments.lastTasks(plan)
        // Pages in flight (`PagesInFlight`): the current one and, while memory is not tight, the next, started
        // when the current one's lines are found. Cancelling the batch cancels both; neither outlives `run`.
        let inFlight = PagesInFlight<(PageResult, Written)>()
        let runner = self
        func start(_ index: Int) -> PagesInFlight<(PageResult, Written)>.Page {
            let task = plan.tasks[index]
            return inFlight.start(index) { observer in
                try await LineProgress.observing(observer) { try await runner.read(task, manifest: manifest) }
            }
        }
        // The engine's budget holds two pages: not an explicit budget below the machine's memory (nor, page by
        // page, the window after its store's pressure release: `ModelStore.pressureMark`).
        let readsAhead = Self.readsAhead && !engine.store.hasTightBudget
        do {
            try await withTaskCancellationHandler {
                for (index, task) in plan.tasks.enumerated() {
                    try Task.checkCancellation()
                    if index == plan.tasks.count - 1 { await engine.store.markLastPage() }
                    onEvent(.pageStarted(task, progress))
                    do {
                        if let manifestError { throw ManifestUnavailable(description: "cannot write the batch manifest \(manifestError)") }
                        let before = progress
                        let current = inFlight.page(index) ?? start(index)
                        defer { inFlight.done(index) }
                        current.makeCurrent { onEvent(.linesRead(task, $0, before)) }
                        if index + 1 < plan.tasks.count, readsAhead, !engine.store.pressureMark.isRecent {
                            await current.waitUntilFound()
                            if !Task.isCancelled { _ = start(index + 1) }
                        }
                        let (page, written) = try await current.value
                        try record(page, written, of: task, runFormat: runFormat, document: &document, progress: &progress, onEvent: onEvent)
                    } catch {
                        // A cancelled page is neither read nor failed: its manifest line says `started`, so it is redone.
                        if error is CancellationError || Task.isCancelled { throw CancellationError() }
                        progress.failedPages += 1
                        progress.failures += 1
                        onEvent(.failed(BatchEvent.Failure(path: task.displayName, reason: BatchPlan.reason(error), shardKey: task.key),
                                        progress))
                    }
                    // The input's last page in this run: its document, if every page of it is done (in any run or shard).
                    if let last = lastTaskOfDocument[task.input], last.task == index {
                        InputDocuments.write(plan.documents[last.document], options: options, manifest: manifest,
                                             progress: &progress, onEvent: onEvent)
                    }
                }
            } onCancel: {
                inFlight.cancelNow()
            }
        } catch {
            await inFlight.cancelAll()
            throw error
        }
        // Documents none of whose pages this run read (a --resume after a kill between a last page and its document).
        for (index, document) in plan.documents.enumerated() where !lastTaskOfDocument.values.contains(where: { $0.document == index }) {
            InputDocuments.write(document, options: options, manifest: manifest, progress: &progress, onEvent: onEvent)
        }
        if let name = plan.runDocument, let runFormat, let document, !document.isEmpty {
            do {
                let data = document.render()
                let file = options.outputDirectory?.appendingPathComponent(name)
                if let directory = options.outputDirectory {
                    try PipelineStage.write.measure { try PageCommit.commit([.init(name: name, data: data)], in: directory) }
                }
                onEvent(.runRead(RenderedResult(format: runFormat, data: data, file: file), progress))
            } catch {
                progress.failures += 1
                onEvent(.failed(BatchEvent.Failure(path: name, reason: BatchPlan.reason(error), shardKey: name), progress))
            }
        }
        return progress
    }

    /// Adds `page` to the run's document in `format`, made on the first page by the page's mode (the registry's
    /// descriptor: `ModeDescriptor.runDocument(for:)`). Throws `ResultFormatError.unsupported` when the mode
    /// writes no such document, or what `RunDocument.add` throws.
    private static func add(_ page: PageResult, in format: ResultFormat, to document: inout (any RunDocument)?) throws {
        if document == nil {
            guard let made = page.mode.descriptor.runDocument(for: format) else {
                throw ResultFormatError.unsupported(format: format, mode: page.mode)
            }
            document = made
        }
        try document?.add(page)
    }

    private struct ManifestUnavailable: Error, CustomStringConvertible { let description: String }

    /// Whether the next page is read while the current one is recognised (`PagesInFlight`); the benchmark's
    /// `KOTEN_OCR_READ_AHEAD=0` reads one page at a time, as before issue 28 (docs/diagnostics.md).
    static let readsAhead = ProcessInfo.processInfo.environment["KOTEN_OCR_READ_AHEAD"] != "0"

    /// The batch manifest opened for appending, or why it cannot be (every page then fails with it).
    private static func openManifest(_ url: URL?) -> (BatchManifest.Writer?, String?) {
        guard let url else { return (nil, nil) }
        do { return (try BatchManifest.Writer(url: url), nil) } catch { return (nil, "\(url.path): \(BatchPlan.reason(error))") }
    }

    /// Counts and reports a page read: its results, the formats that failed on it, whether it had no line; adds
    /// it to the run's document. Throws what `add` throws (the page then fails).
    private func record(_ page: PageResult, _ written: Written, of task: PageTask, runFormat: ResultFormat?,
                        document: inout (any RunDocument)?, progress: inout BatchEvent.Progress,
                        onEvent: @Sendable (BatchEvent) -> Void) throws {
        if let runFormat { try Self.add(page, in: runFormat, to: &document) }
        // A format that failed is that format's failure (issue 25): the others are written and reported.
        if written.failed.isEmpty { progress.read += 1 } else { progress.failedPages += 1 }
        if page.textLines.isEmpty { progress.pagesWithoutLines += 1 }
        onEvent(.pageRead(task, written.results, progress))
        for (format, error) in written.failed {
            progress.failures += 1
            onEvent(.failed(BatchEvent.Failure(path: task.displayName, reason: "format \(format.rawValue): \(BatchPlan.reason(error))",
                                               shardKey: task.key), progress))
        }
        if page.textLines.isEmpty { onEvent(.pageWithoutLines(task, progress)) }
    }

    /// What the write stage made of a page: the results written, and the formats that failed with their errors
    /// (made in the page's task, handed to the batch's once: `PagesInFlight`).
    private struct Written: @unchecked Sendable {
        var results: [RenderedResult]
        var failed: [(ResultFormat, Error)]
    }

    private func read(_ task: PageTask, manifest: BatchManifest.Writer?) async throws -> (PageResult, Written) {
        let record = { (state: BatchManifest.Record.State, outputs: [BatchManifest.Record.Output]) in
            BatchManifest.Record(state: state, input: task.input.path, key: task.key, page: task.page + 1, outputs: outputs)
        }
        try manifest?.append(record(.started, options.pageFormats.map { .init(file: task.pageFile($0), sha256: nil) }))
        // A remote page (a IIIF canvas) is fetched to its file now, then opened like any page (pixel limit, budget),
        // named by the address of its image, not by that file.
        var name = task.input.sourceName
        if let remote = task.input.remote { name = try await remote.fetcher.fetch(to: task.input.url) ?? name }
        let source = try engine.open(file: task.input.file, name: name, page: task.page)
        var page = try await engine.read(source)
        page.source.iiif = canvas(of: task, page: page)
        let created = options.readingTime.created(now: Date())
        let results = try PipelineStage.write.measure {
            try write(page, source, task, created: created, manifest: manifest, record: record)
        }
        // The fetched image is not a result: gone once the page's results are written (a --resume reads nothing again).
        task.input.remote?.fetcher.discard(task.input.url)
        return (page, results)
    }

    /// The IIIF canvas a page is: its remote page's, or with `--format iiif` one made for a local image
    /// (`IIIFCanvasSource.generated`, under `BatchOptions.iiifBase`); the annotations' id set when `iiif` is written.
    private func canvas(of task: PageTask, page: PageResult) -> IIIFCanvasSource? {
        let writesIIIF = options.formats.contains(.iiif)
        guard var canvas = task.input.remote?.canvas ?? (writesIIIF ? generatedCanvas(task, page) : nil) else { return nil }
        if canvas.canvasWidth <= 0 || canvas.canvasHeight <= 0 {  // a canvas without a size: the image read's
            let given = (page.rotation ?? .upright).uprightSize(width: page.source.width, height: page.source.height)
            (canvas.canvasWidth, canvas.canvasHeight) = (given.width, given.height)
        }
        if writesIIIF, canvas.annotations == nil, let base = options.iiifBase {
            canvas.annotations = IIIFCanvasSource.resolve(task.outputFile(.iiif), base)
        }
        return canvas
    }

    private func generatedCanvas(_ task: PageTask, _ page: PageResult) -> IIIFCanvasSource? {
        guard let base = options.iiifBase else { return nil }
        let given = (page.rotation ?? .upright).uprightSize(width: page.source.width, height: page.source.height)
        return IIIFCanvasSource.generated(base: base, stem: task.outputStem, index: 0, width: given.width, height: given.height)
    }

    /// Renders the page in each format still to write (`PageTask.missingFormats`: all but on a `--resume` of a page
    /// some of whose formats failed) and, with an output directory, commits the files of those that rendered
    /// together (`PageCommit`: all or none), then records them `done` with the files kept from before. A format
    /// that fails to render is that format's failure alone (issue 25): it is returned, the others are written,
    /// and the `done` line does not list its file, so `--resume` writes only it (docs/formats.md, "When a format
    /// fails"). A multi-page input's `pdf` page goes to its hidden page file (`PageTask.pageFile`) until
    /// `InputDocuments.write` joins them.
    private func write(_ page: PageResult, _ source: ImageSource, _ task: PageTask, created: Date?, manifest: BatchManifest.Writer?,
                       record: (BatchManifest.Record.State, [BatchManifest.Record.Output]) -> BatchManifest.Record) throws -> Written {
        var rendered: [(ResultFormat, Data)] = []
        var failed: [(ResultFormat, Error)] = []
        for format in task.missingFormats ?? options.pageFormats {
            do {
                if let failing = Self.failingFormat, failing == format { throw InjectedFormatFailure(format: format) }
                if options.outputDirectory != nil && task.waitsForInput(format) {
                    rendered.append((format, try SearchablePDF.pageFile(SearchablePDF.page(page, image: source))))
                } else {
                    rendered.append((format, options.outputDirectory == nil
                                        ? try format.renderForStream(page, image: source, ruby: options.ruby, created: created)
                                        : try format.render(page, image: source, ruby: options.ruby, created: created)))
                }
            } catch {
                if error is CancellationError || Task.isCancelled { throw CancellationError() }
                failed.append((format, error))
            }
        }
        guard let directory = options.outputDirectory else {
            return Written(results: rendered.map { RenderedResult(format: $0.0, data: $0.1, file: nil) }, failed: failed)
        }
        var files = rendered.map { PageCommit.File(name: task.pageFile($0.0), data: $0.1) }
        if options.keepsPDFPageFiles, options.pageFormats.contains(.pdf), !task.waitsForInput(.pdf) {
            files.append(.init(name: ResultFormat.pdfPageFileName(pageStem: task.outputStem),
                               data: try SearchablePDF.pageFile(SearchablePDF.page(page, image: source))))
        }
        try PageCommit.commit(files, in: directory)
        let results = rendered.map { RenderedResult(format: $0.0, data: $0.1, file: directory.appendingPathComponent(task.pageFile($0.0))) }
        try manifest?.append(record(.done, task.keptOutputs + results.map { .init(file: task.pageFile($0.format), sha256: SHA256.hex($0.data)) }))
        return Written(results: results, failed: failed)
    }

    /// Test seam: a format whose rendering fails on every page, as a damaged image would fail `html` (issue 25).
    /// Bound per task (`$failingFormat.withValue`); the CLI's `KOTEN_OCR_TEST_FAIL_FORMAT` sets it
    /// (docs/diagnostics.md, "Test hooks").
    @TaskLocal package static var failingFormat: ResultFormat?

    private struct InjectedFormatFailure: Error, CustomStringConvertible {
        let format: ResultFormat
        var description: String { "failure injected by the test seam for format \(format.rawValue)" }
    }
}
