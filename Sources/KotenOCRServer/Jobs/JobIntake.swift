import Foundation
import KotenOCRIIIF
import KotenOCRKit

/// Takes jobs in (docs/serve.md, "Jobs", "Zip uploads"): the uploads stored in a new job's `in/` under the
/// server's names, each checked (its type by its bytes, a PDF by the PDF guard, the first page's header against
/// the pixel limit, the pages against `--max-pages`); a zip's entries checked before one byte is extracted; or a
/// IIIF manifest read at once and kept, each canvas a page. An accepted job is recorded (`job.json`), registered
/// and queued; a refused one leaves nothing behind.
final class JobIntake: @unchecked Sendable {
    /// An uploaded file and the name shown for it.
    struct Upload: Sendable {
        let file: URL
        let name: String
    }

    let store: JobStore
    let worker: JobWorker
    let engine: KotenOCR
    let queue: RequestQueue
    let pdfGuard: (any PDFGuard)?
    /// Most pages in one job (`--max-pages`), also the most entries of a zip.
    let maxPages: Int
    /// The largest upload (`--max-upload`): a zip's entry at most that uncompressed, all of them at most four times.
    let maxUpload: Int
    private var files: JobFiles { store.files }

    init(store: JobStore, worker: JobWorker, engine: KotenOCR, queue: RequestQueue, pdfGuard: (any PDFGuard)?,
         maxPages: Int, maxUpload: Int) {
        self.store = store
        self.worker = worker
        self.engine = engine
        self.queue = queue
        self.pdfGuard = pdfGuard
        self.maxPages = maxPages
        self.maxUpload = maxUpload
    }

    /// A job of `uploads` (images, PDFs, multi-page TIFFs, zips of images), its pages in the order given.
    func submit(_ uploads: [Upload], ruby: ResultFormat.RubyStyle) throws(JobError) -> Job {
        let id = RandomID.make()
        let folder = files.folder(id)
        let incoming = folder.appendingPathComponent("in")
        do {
            try FileManager.default.createDirectory(at: incoming, withIntermediateDirectories: true)
        } catch {
            throw .storage("cannot create the job's folder")
        }
        var inputs: [JobRecord.Input] = [], pages: [JobRecord.Page] = []
        func add(_ file: URL, name: String, kind: FileSignature) throws(JobError) {
            let stored = String(format: "%04d.%@", inputs.count + 1, kind.fileExtension)
            let target = incoming.appendingPathComponent(stored)
            do {
                try FileManager.default.moveItem(at: file, to: target)
                // An upload carries no date: the stored input's is the epoch, so the same upload gives the same
                // results (PAGE XML's `Created` is the image's modification time).
                try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 0)], ofItemAtPath: target.path)
            } catch {
                throw .storage("cannot store \(name)")
            }
            if kind == .pdf, let pdfGuard {
                do { try pdfGuard.check(FileSystemPath(target.path)) } catch { throw .unreadable(name: name, PDFRefused(reason: "\(error)")) }
            }
            let count: Int
            do {
                count = try ImageSource.pageCount(of: target)
                _ = try engine.open(target)  // the first page's header: the pixel limit, before the job is accepted
            } catch {
                throw .unreadable(name: name, error)
            }
            guard pages.count + count <= maxPages else { throw .tooManyPages("the job has more than \(maxPages) pages (--max-pages)") }
            for p in 0..<count {
                pages.append(JobRecord.Page(n: pages.count + 1, input: inputs.count, page: p, name: count > 1 ? "\(name) p\(p + 1)" : name))
            }
            inputs.append(JobRecord.Input(file: stored, name: name, pageCount: count))
        }
        do {
            for upload in uploads {
                guard let kind = FileSignature.of(fileAt: upload.file) else {
                    throw JobError.unsupportedType("\(upload.name) is not an image, PDF, TIFF or zip")
                }
                guard kind == .zip else {
                    try add(upload.file, name: upload.name, kind: kind)
                    continue
                }
                let limits = ZipArchive.Limits(entries: maxPages, entryBytes: maxUpload, totalBytes: 4 * maxUpload)
                let entries: [(index: UInt64, name: String, size: Int)]
                do { entries = try ZipArchive.checkedEntries(upload.file, limits: limits) } catch {
                    throw JobError.badZip("\(upload.name): \(error)")
                }
                for entry in entries.sorted(by: { $0.name < $1.name }) {
                    let scratch = incoming.appendingPathComponent("entry")
                    do { try ZipArchive.extract(upload.file, index: entry.index, size: entry.size, to: scratch) } catch {
                        throw JobError.badZip("\(upload.name): \(error)")
                    }
                    guard let entryKind = FileSignature.of(fileAt: scratch), entryKind != .zip else {
                        throw JobError.unsupportedType("\(upload.name): \(entry.name) is not an image or PDF")
                    }
                    try add(scratch, name: "\(upload.name)/\(entry.name)", kind: entryKind)
                }
            }
            guard !pages.isEmpty else { throw JobError.noPages("the upload holds no page") }
            return try accept(JobRecord(id: id, ruby: ruby.rawValue, inputs: inputs, pages: pages), folder: folder)
        } catch let error as JobError {
            try? FileManager.default.removeItem(at: folder)
            throw error
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw .storage(ErrorText.line(error))
        }
    }

    /// A job of the IIIF manifest at `manifest` (an http(s) URL): the manifest read now (refused when it cannot
    /// be, or past `--max-pages` canvases) and kept in the job's `in/manifest.json`; each canvas a page.
    func submit(manifest: String, ruby: ResultFormat.RubyStyle) async throws(JobError) -> Job {
        let lower = manifest.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            throw .badOption("manifest must be the http(s) URL of a IIIF manifest")
        }
        let book: IIIFBook
        do { book = try await IIIFBook.load(manifest) } catch { throw .badManifest(ErrorText.line(error)) }
        guard !book.canvases.isEmpty else {
            guard let first = book.skipped.first else { throw .noPages("\(manifest.prefix(400)): the manifest has no canvas") }
            let kinds = Set(book.skipped.map(\.painting)).sorted().joined(separator: ", ")
            throw .noPages("\(manifest.prefix(400)): no canvas of the manifest is an image: its \(book.skipped.count) canvases paint \(kinds)"
                           + " (canvas \(first.index) \(first.painting)), which are not read")
        }
        guard book.canvases.count <= maxPages else {
            throw .tooManyPages("the manifest has \(book.canvases.count) canvases, more than \(maxPages) (--max-pages)")
        }
        let id = RandomID.make()
        let folder = files.folder(id)
        do {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("in"), withIntermediateDirectories: true)
            try AtomicFile.write(book.data, to: folder.appendingPathComponent("in").appendingPathComponent(JobFiles.manifestFile))
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw .storage("cannot store the job's manifest")
        }
        let names = Self.canvasInputs(book, out: folder.appendingPathComponent("out"), scratch: files.run).map(\.relativePath)
        let pages = zip(book.canvases, names).enumerated().map { i, entry in
            JobRecord.Page(n: i + 1, input: 0, page: i, name: "canvas \(entry.0.index)" + (entry.0.label.map { " (\($0))" } ?? ""),
                           file: entry.1, label: entry.0.label, labels: entry.0.labels)
        }
        let input = JobRecord.Input(file: JobFiles.manifestFile, name: String(manifest.prefix(400)), pageCount: pages.count)
        do {
            return try accept(JobRecord(id: id, ruby: ruby.rawValue, inputs: [input], pages: pages, manifest: manifest,
                                         label: book.label, labels: book.labels), folder: folder)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// A IIIF book's canvases as the batch's remote pages, at the default image size, their images fetched into
    /// `out/<book>/` just before each is read.
    static func canvasInputs(_ book: IIIFBook, out: URL, scratch: URL) -> [BatchInput] {
        (try? book.batchInputs(pages: nil, size: .longSide(IIIFImageSize.defaultLongSide), outputDirectory: out, scratch: scratch)) ?? []
    }

    /// Queues the job of `record` (its files in `folder`): refused when the queue is full.
    private func accept(_ record: JobRecord, folder: URL) throws(JobError) -> Job {
        guard queue.reserve() else { throw .queueFull(queue.capacity) }
        var record = record
        record.created = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        do {
            try AtomicFile.write(try JSONEncoder().encode(record), to: folder.appendingPathComponent("job.json"))
        } catch {
            queue.release()
            throw .storage("cannot record the job")
        }
        let job = Job(record: record, folder: folder, state: .queued)
        store.add(job)
        worker.wake()
        return job
    }
}

/// A PDF the PDF guard refused (its reason), read as a page that does not decode.
struct PDFRefused: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}
