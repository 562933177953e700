import Foundation

/// What a batch run will do, decided before any page is read.
public struct BatchPlan: Sendable {
    /// Pages this run reads, in input order (this shard's only), with nothing in the way of their results.
    public private(set) var tasks: [PageTask]
    /// Pages skipped because the manifest records them as done and their results are intact (`--resume`).
    public let alreadyDone: Int
    /// This shard's inputs that cannot be read at all (missing, not an image, a `--pages` past the end, ...).
    public let failures: [BatchEvent.Failure]
    /// Temporary files of a killed run that were removed.
    public let removedTemporaries: [URL]
    /// The manifest this run appends to (nil without an output directory).
    public let manifest: URL?
    /// The run's document (`--format tei`, the per-run format asked for), relative to the output directory:
    /// `<first-stem>_tei.xml` (`PageTask.outputFile`), after the first page this run reads. Not recorded in the
    /// manifest.
    public var runDocument: String? = nil
    /// The per-input documents (`pdf` of a multi-page input) this run writes once their pages are all done
    /// (`InputDocument`): those of the inputs with a page in this shard whose document is not written and intact
    /// yet. None without an output directory (each page's `pdf` is then a PDF of that page).
    public var documents: [InputDocument] = []
    /// Every page of this shard, the ones `--resume` skips too (the run's `manifest.json` of `--format iiif` lists
    /// them all).
    package var allTasks: [PageTask] = []
    /// The output folder's lock (`OutputLock`), held while this plan exists: one writer per output folder (or
    /// per shard).
    package var lock: OutputLock? = nil

    /// This plan without the pages whose `PageTask.key` is in `keys` (`koten-ocr serve` leaves out a job's page
    /// that ran past its time limit when it reads the job on: docs/serve.md, "Jobs"). The input of such a page
    /// gets no per-input document (its pages are not all read).
    package func skipping(_ keys: Set<String>) -> BatchPlan {
        var plan = self
        plan.tasks = tasks.filter { !keys.contains($0.key) }
        return plan
    }

    /// Plans a batch over `paths` (files and directories) and `listed` (the lines of input lists, whose relative
    /// file paths keep their folders, see `InputCollector.collect`): expands directories, reads each
    /// input's page count from its header (a PDF checked first by `options.pdfGuard`, if any: a refused one is a
    /// failure), applies `--pages`, refuses two inputs writing the same result, keeps this shard's pages, creates
    /// the output directory and locks it (`OutputLock`: a second writer is refused at once), refuses symbolic
    /// links inside it where results or the manifest would go, and checks every result file already there
    /// against the manifest (resuming skips verified pages; a result the batch may not replace is an error).
    /// Removes this shard's stale temporary files. Throws `BatchSetupError` before anything is written to a result.
    public static func prepare(_ paths: [String], listed: [String] = [],
                               options: BatchOptions) throws(BatchSetupError) -> BatchPlan {
        try prepare(files: paths.map(FileSystemPath.init), listed: listed.map(FileSystemPath.init), options: options)
    }

    /// `prepare(_:listed:options:)` over paths as the file system holds them (a name that is not UTF-8 is read),
    /// `inputs` made by the caller (files read as they are, e.g. with a `BatchInput.sourceName`: an upload named as
    /// its client named it), and `remote` pages: inputs of one page each whose image is fetched just before it is
    /// read (IIIF canvases, `BatchInput.remote`; already selected by `--pages`), planned as any page without opening
    /// anything.
    package static func prepare(files paths: [FileSystemPath], listed: [FileSystemPath] = [], inputs given: [BatchInput] = [],
                                remote: [BatchInput] = [], options: BatchOptions) throws(BatchSetupError) -> BatchPlan {
        let named = InputCollector.collect(files: paths, recursive: options.recursive)
        let fromLists = InputCollector.collect(files: listed, recursive: options.recursive, keepingFolders: true)
        let collected = (inputs: named.inputs + fromLists.inputs + given, failures: named.failures + fromLists.failures)
        var failures = collected.failures
        var tasks: [PageTask] = []
        var seen = Set<[UInt8]>()
        var documents: [InputDocument] = []
        let documentFormat = options.pageFormats.first(where: \.isPerInput)
        for input in collected.inputs + remote {
            let pages: [Int], pageCount: Int
            do {
                (pages, pageCount) = try selectedPages(of: input, options)
            } catch let e as PageSelection.PastEnd {
                failures.append(BatchEvent.Failure(path: input.path,
                                                   reason: e.description,
                                                   shardKey: "\(input.relativePath)#1"))
                continue
            } catch {
                failures.append(BatchEvent.Failure(path: input.path, reason: reason(error), shardKey: "\(input.relativePath)#1"))
                continue
            }
            // The same file named twice (e.g. also inside a directory given) is read once; names are compared
            // by their bytes, so the NFC and NFD spellings of a name are two files.
            guard seen.insert(input.file.standardized.bytes + [0] + Array(input.relativePath.utf8)).inserted else { continue }
            let jpeg = options.formats.contains(.viz) && ImageSource.isJPEG(at: input.file)
            tasks += pages.map { PageTask(input: input, page: $0, pageCount: pageCount, jpegSource: jpeg) }
            if let documentFormat, pageCount > 1 {
                documents.append(InputDocument(input: input, format: documentFormat, pageCount: pageCount, pages: pages))
            }
        }
        if options.outputDirectory != nil { try checkDistinctOutputs(tasks, perInput: documentFormat) }
        if let shard = options.shard {
            tasks = tasks.filter { shard.contains($0.key) }
            failures = failures.filter { shard.contains($0.shardKey) }
            let inputs = Set(tasks.map(\.input))
            documents = documents.filter { inputs.contains($0.input) }
        }
        guard let outputDirectory = options.outputDirectory else {
            return BatchPlan(tasks: tasks, alreadyDone: 0, failures: failures, removedTemporaries: [], manifest: nil,
                             runDocument: runDocument(tasks, options), allTasks: tasks)
        }
        try createDirectory(outputDirectory)
        let lock = try OutputLock.acquire(in: outputDirectory, shard: options.shard)
        let manifest = outputDirectory.appendingPathComponent(BatchManifest.fileName(shard: options.shard))
        do {
            _ = try BatchManifest.Writer(url: manifest)
        } catch {
            throw .outputDirectory(path: manifest.path, reason: "cannot write the batch manifest (\(reason(error)))")
        }
        try checkNoLinks(tasks, options, in: outputDirectory)
        let records = BatchManifest.load(from: outputDirectory)
        var toRead: [PageTask] = []
        var alreadyDone = 0
        var blocked: [(path: String, owned: Bool)] = []
        // A written document stands for its pages' files, which were removed once it was written.
        let written = documents.filter { $0.isWritten(records, in: outputDirectory) }
        let standIns = Set(written.flatMap(\.pageFiles))
        documents = documents.filter { !written.contains($0) }
        for document in documents
        where FileManager.default.fileExists(atPath: outputDirectory.appendingPathComponent(document.file).path) {
            let owned = records[BatchManifest.Key(document.key)]?.outputs.contains { $0.file == document.file } ?? false
            if options.overwrite || (owned && options.resume) { continue }
            blocked.append((outputDirectory.appendingPathComponent(document.file).path, owned))
        }
        for task in tasks {
            let files = options.pageFormats.map { task.pageFile($0) }
            let record = records[BatchManifest.Key(task.key)]
            if options.resume, let record,
               isIntact(record, files: files.filter { !standIns.contains($0) }, in: outputDirectory) {
                alreadyDone += 1
                continue
            }
            var task = task
            if options.resume, let record, record.state == .done {
                // A page some of whose formats failed (or whose files went since): only those are written again.
                let kept = options.pageFormats.filter { format in
                    let file = task.pageFile(format)
                    return standIns.contains(file) || isIntact(record, files: [file], in: outputDirectory)
                }
                if !kept.isEmpty {
                    task.missingFormats = options.pageFormats.filter { !kept.contains($0) }
                    task.keptOutputs = record.outputs.filter { output in kept.contains { task.pageFile($0) == output.file } }
                }
            }
            for file in files where FileManager.default.fileExists(atPath: outputDirectory.appendingPathComponent(file).path) {
                let owned = record?.outputs.contains { $0.file == file } ?? false
                if options.overwrite || (owned && options.resume) { continue }
                blocked.append((outputDirectory.appendingPathComponent(file).path, owned))
            }
            toRead.append(task)
        }
        if let document = runDocument(toRead, options), !options.overwrite,
           FileManager.default.fileExists(atPath: outputDirectory.appendingPathComponent(document).path) {
            blocked.append((outputDirectory.appendingPathComponent(document).path, false))
        }
        if let first = blocked.first {
            throw first.owned
                ? .outputExists(path: first.path, reason: "already exists, written by an earlier batch in this folder",
                                hint: "use --resume to continue that batch, or --overwrite to read its pages again", more: blocked.count - 1)
                : .outputExists(path: first.path, reason: "already exists and is not recorded in this folder's batch manifest",
                                hint: "use --overwrite to replace it", more: blocked.count - 1)
        }
        let removed = AtomicFile.removeStaleTemporaries(
            for: tasks.flatMap { task in options.pageFormats.map { outputDirectory.appendingPathComponent(task.pageFile($0)) } }
                + documents.map { outputDirectory.appendingPathComponent($0.file) })
        return BatchPlan(tasks: toRead, alreadyDone: alreadyDone, failures: failures, removedTemporaries: removed, manifest: manifest,
                         runDocument: runDocument(toRead, options), documents: documents, allTasks: tasks, lock: lock)
    }

    /// The pages of `input` this run reads (`--pages`) and its page count, from its header. A remote page (a IIIF
    /// canvas, `BatchInput.remote`) is one page and opens nothing while planning.
    private static func selectedPages(of input: BatchInput, _ options: BatchOptions) throws -> (pages: [Int], count: Int) {
        guard input.remote == nil else { return ([0], 1) }
        // A PDF whose page tree never ends is refused here, by the guard, before this process opens it.
        if let pdfGuard = options.pdfGuard, ImageSource.isPDF(at: input.file) { try pdfGuard.check(input.file) }
        let pageCount = try ImageSource.pageCount(of: input.file, acceptsDamagedData: options.acceptDamagedImages)
        if let selection = options.pages { return (try selection.pages(of: pageCount), pageCount) }
        return (Array(0..<pageCount), pageCount)
    }

    /// Throws `.outputDirectory` naming the first symbolic link where a result's folder or file would be (results
    /// are never written through one; `PageCommit` checks again as it writes).
    static func checkNoLinks(_ tasks: [PageTask], _ options: BatchOptions, in directory: URL) throws(BatchSetupError) {
        var names = Set(tasks.flatMap { task in options.pageFormats.map { task.pageFile($0) } })
        if let document = runDocument(tasks, options) { names.insert(document) }
        for task in tasks { for format in options.pageFormats where task.waitsForInput(format) { names.insert(task.outputFile(format)) } }
        do {
            for name in names.sorted() { try OutputFolder.checkNoLinks(name, in: directory) }
        } catch {
            throw .outputDirectory(path: error.path, reason: error.reason)
        }
    }

    /// The file of the run's document (`<first-stem>_tei.xml`) when a per-run format (`tei`) is asked for and
    /// there is a page to read.
    static func runDocument(_ tasks: [PageTask], _ options: BatchOptions) -> String? {
        guard let format = options.runFormat, let first = tasks.first else { return nil }
        return first.outputFile(format)
    }

    /// A `done` record listing every one of `files`, each present with the recorded SHA-256.
    static func isIntact(_ record: BatchManifest.Record, files: [String], in directory: URL) -> Bool {
        guard record.state == .done else { return false }
        for file in files {
            guard let expected = record.outputs.first(where: { $0.file == file })?.sha256,
                  let actual = try? SHA256.hex(fileAt: directory.appendingPathComponent(file)),
                  actual == expected else { return false }
        }
        return true
    }

    /// Throws `.sameOutput` naming the first two inputs whose pages would write the same result, or the same
    /// document of the per-input format `perInput` (`a.tif` and `a.png` both write `a.pdf`).
    static func checkDistinctOutputs(_ tasks: [PageTask], perInput: ResultFormat? = nil) throws(BatchSetupError) {
        var owners: [[UInt8]: PageTask] = [:]
        for task in tasks {
            let stem = Array(task.outputStem.utf8)
            if let other = owners[stem], other.input != task.input {
                throw .sameOutput(first: other.input.path, second: task.input.path, output: task.outputStem + ".*")
            }
            owners[stem] = task
        }
        guard let perInput else { return }
        var documents: [String: BatchInput] = [:]
        for task in tasks {
            let file = task.outputFile(perInput)
            if let other = documents[file], other != task.input {
                throw .sameOutput(first: other.path, second: task.input.path, output: file)
            }
            documents[file] = task.input
        }
    }

    private static func createDirectory(_ url: URL) throws(BatchSetupError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw .outputDirectory(path: url.path, reason: "exists and is not a directory") }
            return
        }
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw .outputDirectory(path: url.path, reason: "cannot create output directory (\(reason(error)))")
        }
    }

    /// The reason part of an error, without the path an `ImageError` starts with.
    static func reason(_ error: Error) -> String {
        if let e = error as? ImageError {
            let text = e.description
            let prefix = e.path + ": "
            return text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
        }
        return ErrorText.line(error)
    }
}
