import Foundation

/// The document of a per-input format (`pdf`) for a multi-page input: one file holding the input's pages in order.
///
/// Each page is read and written like any other: its part of the document goes to a hidden page file
/// (`PageTask.pageFile`, `.book_p0002.pdf-page`), recorded in the manifest with its SHA-256. When every page of
/// the document has a `done` record and its page file — whichever run or shard wrote it — the document is
/// written once (`AtomicFile`), recorded under its own key (`relativePath#pdf`, page 0) and the page files are
/// removed. A `--resume` run skips the pages of an intact document; it writes a document whose pages are all done
/// but that a kill left unwritten. docs/formats.md, "Searchable PDF: one per input".
public struct InputDocument: Sendable, Equatable {
    package let input: BatchInput
    public let format: ResultFormat
    /// Pages in the input.
    public let pageCount: Int
    /// The 0-based pages the document holds, ascending (the input's `--pages` selection, all shards together).
    public let pages: [Int]

    package init(input: BatchInput, format: ResultFormat, pageCount: Int, pages: [Int]) {
        self.input = input
        self.format = format
        self.pageCount = pageCount
        self.pages = pages
    }

    /// The document file, relative to the output directory (`PageTask.outputFile`: `vol1/book.pdf`).
    public var file: String { task(pages.first ?? 0).outputFile(format) }
    /// Each page's file, relative to the output directory, in page order.
    public var pageFiles: [String] { pages.map { task($0).pageFile(format) } }
    /// The page's manifest key (`PageTask.key`) of each page, in page order.
    public var pageKeys: [String] { pages.map { task($0).key } }
    /// The document's manifest key: `relativePath#pdf`.
    public var key: String { "\(input.relativePath)#\(format.rawValue)" }

    private func task(_ page: Int) -> PageTask { PageTask(input: input, page: page, pageCount: pageCount) }

    /// Whether `records` (`BatchManifest.load`) hold a `done` record of the document whose file is intact in
    /// `directory` (its SHA-256 as recorded).
    package func isWritten(_ records: [BatchManifest.Key: BatchManifest.Record], in directory: URL) -> Bool {
        guard let record = records[BatchManifest.Key(key)] else { return false }
        return BatchPlan.isIntact(record, files: [file], in: directory)
    }

    /// Whether every page has a `done` record listing its page file, and the file is there.
    func pagesAreDone(_ records: [BatchManifest.Key: BatchManifest.Record], in directory: URL) -> Bool {
        zip(pageKeys, pageFiles).allSatisfy { key, file in
            guard let record = records[BatchManifest.Key(key)], record.state == .done, record.outputs.contains(where: { $0.file == file }) else {
                return false
            }
            return FileManager.default.fileExists(atPath: directory.appendingPathComponent(file).path)
        }
    }
}

/// How the batch writes the documents of multi-page inputs (`BatchRunner`): after the last page of an input that
/// this run reads, and at the end for a document none of whose pages it read.
enum InputDocuments {
    /// For each input with a document in `plan`: the index of its last task and of its document.
    static func lastTasks(_ plan: BatchPlan) -> [BatchInput: (task: Int, document: Int)] {
        var last: [BatchInput: (task: Int, document: Int)] = [:]
        let documents = Dictionary(plan.documents.enumerated().map { ($0.element.input, $0.offset) }, uniquingKeysWith: { a, _ in a })
        for (index, task) in plan.tasks.enumerated() {
            if let document = documents[task.input] { last[task.input] = (index, document) }
        }
        return last
    }

    /// Writes `document` when every page of it is done and it is not written yet (another shard may have written
    /// it): joins its page files into the document (`AtomicFile`), records it in the manifest, removes the page
    /// files. A document that cannot be written is a failure; one whose pages are not all done is left for the
    /// run that reads the rest, except in an unsharded run, where it is a failure naming the missing pages.
    static func write(_ document: InputDocument, options: BatchOptions, manifest: BatchManifest.Writer?,
                      progress: inout BatchEvent.Progress, onEvent: @Sendable (BatchEvent) -> Void) {
        guard let directory = options.outputDirectory, let manifest else { return }
        let records = BatchManifest.load(from: directory)
        if document.isWritten(records, in: directory) { return }
        func fail(_ reason: String) {
            progress.failures += 1
            onEvent(.failed(BatchEvent.Failure(path: document.input.path, reason: "\(document.file) not written: \(reason)",
                                               shardKey: document.pageKeys.first ?? document.key), progress))
        }
        guard document.pagesAreDone(records, in: directory) else {
            if options.shard == nil {
                let missing = zip(document.pages, document.pageKeys).filter { records[BatchManifest.Key($0.1)]?.state != .done }.map { String($0.0 + 1) }
                fail("page\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")) not read")
            }
            return
        }
        let target = directory.appendingPathComponent(document.file)
        do {
            try PipelineStage.write.measure {
                try AtomicFile.write(to: target) { handle in
                    try SearchablePDF.write(pageFiles: document.pageFiles.map { directory.appendingPathComponent($0) }, to: handle)
                }
            }
            let sha = try SHA256.hex(fileAt: target)
            try manifest.append(BatchManifest.Record(state: .done, input: document.input.path, key: document.key, page: 0,
                                                     outputs: [.init(file: document.file, sha256: sha)]))
            if !options.keepsPDFPageFiles {
                for file in document.pageFiles { try? FileManager.default.removeItem(at: directory.appendingPathComponent(file)) }
            }
            onEvent(.documentWritten(document, target, progress))
        } catch {
            // Another shard may have written it, and removed the page files, meanwhile.
            if document.isWritten(BatchManifest.load(from: directory), in: directory) { return }
            fail(BatchPlan.reason(error))
        }
    }
}
