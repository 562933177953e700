import Foundation

/// One result of a page in one format.
public struct RenderedResult: Sendable {
    public let format: ResultFormat
    public let data: Data
    /// Where it was written (nil without an output directory).
    public let file: URL?
}

/// What a running batch reports, in order, each with the progress after it.
public enum BatchEvent: Sendable {
    /// An input that cannot be read at all (reported first) or a page that failed.
    case failed(BatchFailure, BatchProgress)
    /// A page is about to be read.
    case pageStarted(PageTask, BatchProgress)
    /// A page was read (and, with an output directory, its results written and recorded).
    case pageRead(PageTask, [RenderedResult], BatchProgress)
    /// After the last page: a result of the whole run (the koten TEI of `--format tei`), written when there
    /// is an output directory.
    case runRead(RenderedResult, BatchProgress)
}

/// Reads a planned batch one page at a time with an engine; a failing page is reported and the batch goes on.
///
/// With an output directory every result is written to a temporary file and renamed (`AtomicFile`), and the
/// page is recorded in the manifest (`BatchManifest`: `started` before, `done` with SHA-256s after), so a
/// kill at any instant leaves only complete results and a resumable manifest.
public struct BatchRunner: Sendable {
    public let engine: KotenOCR
    public let options: BatchOptions

    public init(engine: KotenOCR, options: BatchOptions) {
        self.engine = engine
        self.options = options
    }

    /// Runs `plan`, calling `onEvent` for each failure and page. Returns the final progress
    /// (`failures > 0` means some input or page failed).
    public func run(_ plan: BatchPlan, now: () -> Date = Date.init,
                    onEvent: (BatchEvent) -> Void) async -> BatchProgress {
        var progress = BatchProgress(total: plan.tasks.count, alreadyDone: plan.alreadyDone, startedAt: now())
        for failure in plan.failures {
            // Inputs refused while planning: an existing file failed to open (its header was decoded), a
            // missing path never reached a stage.
            let opened = FileManager.default.fileExists(atPath: failure.path)
            engine.diagnostics?.recordFailure(path: failure.path, page: nil, stage: opened ? PipelineStage.decode.rawValue : nil,
                                              reason: failure.reason)
            progress.failures += 1
            onEvent(.failed(failure, progress))
        }
        var manifest: BatchManifest.Writer?
        var manifestError: String?
        if let url = plan.manifest {
            do { manifest = try BatchManifest.Writer(url: url) } catch { manifestError = "\(url.path): \(BatchPlan.reason(error))" }
        }
        var folders = Set<String>()
        var tei = plan.runDocument.map { _ in TEIRun() }
        for task in plan.tasks {
            onEvent(.pageStarted(task, progress))
            do {
                if let manifestError { throw ManifestUnavailable(description: "cannot write the batch manifest \(manifestError)") }
                let (page, results) = try await read(task, manifest: manifest, folders: &folders)
                try tei?.add(page, stem: task.outputStem)
                progress.read += 1
                onEvent(.pageRead(task, results, progress))
            } catch {
                progress.failedPages += 1
                progress.failures += 1
                onEvent(.failed(BatchFailure(path: task.displayName, reason: BatchPlan.reason(error), shardKey: task.key),
                                progress))
            }
        }
        if let document = plan.runDocument, let tei, !tei.pages.isEmpty {
            do {
                let data = Data(KotenTEI.document(pages: tei.pages).utf8)
                let file = options.outputDirectory?.appendingPathComponent(document)
                if let file { try PipelineStage.write.measure { try AtomicFile.write(data, to: file) } }
                onEvent(.runRead(RenderedResult(format: .tei, data: data, file: file), progress))
            } catch {
                progress.failures += 1
                onEvent(.failed(BatchFailure(path: document, reason: BatchPlan.reason(error), shardKey: document), progress))
            }
        }
        return progress
    }

    private struct ManifestUnavailable: Error, CustomStringConvertible { let description: String }

    private func read(_ task: PageTask, manifest: BatchManifest.Writer?,
                      folders: inout Set<String>) async throws -> (PageResult, [RenderedResult]) {
        let record = { (state: BatchManifest.Record.State, outputs: [BatchManifest.Record.Output]) in
            BatchManifest.Record(state: state, input: task.input.path, key: task.key, page: task.page + 1, outputs: outputs)
        }
        try manifest?.append(record(.started, options.pageFormats.map { .init(file: task.outputFile($0), sha256: nil) }))
        let source = try engine.open(task.input.url, page: task.page)
        let page = try await engine.read(source)
        return (page, try PipelineStage.write.measure { try write(page, task, manifest: manifest, folders: &folders, record: record) })
    }

    private func write(_ page: PageResult, _ task: PageTask, manifest: BatchManifest.Writer?, folders: inout Set<String>,
                       record: (BatchManifest.Record.State, [BatchManifest.Record.Output]) -> BatchManifest.Record) throws -> [RenderedResult] {
        var results: [RenderedResult] = []
        for format in options.pageFormats {
            let data = options.outputDirectory == nil ? try format.renderForStream(page, ruby: options.ruby)
                : try format.render(page, ruby: options.ruby)
            var file: URL?
            if let directory = options.outputDirectory {
                let target = directory.appendingPathComponent(task.outputFile(format))
                let folder = target.deletingLastPathComponent()
                if folders.insert(folder.path).inserted {
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                }
                try AtomicFile.write(data, to: target)
                file = target
            }
            results.append(RenderedResult(format: format, data: data, file: file))
        }
        try manifest?.append(record(.done, results.map { .init(file: task.outputFile($0.format), sha256: SHA256.hex($0.data)) }))
        return results
    }
}
