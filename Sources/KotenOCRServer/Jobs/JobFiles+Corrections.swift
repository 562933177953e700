import Foundation
import KotenOCRKit

/// A job's pages with a proofreader's corrections, as its exports take them (docs/serve.md, "Exports"): each
/// corrected page's `PageCorrections` (a page without any is absent, and its files are given as the batch wrote
/// them), and a version that changes with every edit of the job, which names the files made of them.
struct JobCorrections: Sendable {
    var pages: [Int: PageCorrections] = [:]
    /// Empty when no page is corrected; else `c<n>`, `n` the sum of the job's pages' revisions (each edit adds one).
    var version = ""

    /// `-c<n>`, or nothing: the end of the name of a file made of the corrected pages.
    var suffix: String { version.isEmpty ? "" : "-\(version)" }
}

extension JobFiles {
    /// Page `n` of `job` (done) with `corrections` applied (`PageResult.applying`): its result JSON read back.
    func corrected(_ job: Job, _ n: Int, _ corrections: PageCorrections) throws -> PageResult {
        guard let url = result(job, n, .json) else { throw JobError.notFound("no such page") }
        return try JSONDecoder().decode(PageResult.self, from: Data(contentsOf: url)).applying(corrections)
    }

    /// The bytes of page `n` in `format` with `corrections` applied, as the batch would have written them (the job's
    /// ruby style and reading time; html with the page image, opened again). A IIIF canvas's html cannot be made
    /// again: the library's image is not kept (`JobError.notFound`).
    func render(_ job: Job, _ n: Int, _ format: ResultFormat, _ corrections: PageCorrections, engine: KotenOCR) throws -> Data {
        let page = try corrected(job, n, corrections)
        var image: ImageSource?
        if format.needsImage {
            let record = job.record.pages[n - 1]
            guard record.file == nil else {
                throw JobError.notFound("page \(n) is a IIIF canvas: its \(format.rawValue) with corrections needs the library's image, which the server does not keep")
            }
            image = try engine.open(job.folder.appendingPathComponent("in").appendingPathComponent(job.record.inputs[record.input].file),
                                    page: record.page)
        }
        return try format.render(page, image: image, ruby: ResultFormat.RubyStyle(rawValue: job.record.ruby) ?? .drop,
                                 created: job.record.created)
    }

    /// Page `n`'s bytes in `format` for an export: made with its corrections when it has any, else the batch's file
    /// (nil when there is none: a page that failed).
    func exported(_ job: Job, _ n: Int, _ format: ResultFormat, _ corrections: JobCorrections, engine: KotenOCR) throws -> Data? {
        if let page = corrections.pages[n] { return try render(job, n, format, page, engine: engine) }
        guard let url = result(job, n, format) else { return nil }
        return try? Data(contentsOf: url)
    }

    /// The whole job's searchable PDF with its corrected pages' text layers made again from their corrections
    /// (`job-<version>.pdf`, made once per version; the batch's page files keep the images); `pdf(_:)` when no page
    /// is corrected. Nil when no page was read.
    func correctedPDF(_ job: Job, _ corrections: JobCorrections) throws(JobError) -> URL? {
        guard !corrections.pages.isEmpty else { return FileManager.default.fileExists(atPath: pdf(job).path) ? pdf(job) : nil }
        let url = job.folder.appendingPathComponent("job\(corrections.suffix).pdf")
        if FileManager.default.fileExists(atPath: url.path) { return url }
        let out = job.folder.appendingPathComponent("out")
        let scratch = job.folder.appendingPathComponent(".pdf-\(RandomID.make())")
        defer { try? FileManager.default.removeItem(at: scratch) }
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            var files: [URL] = []
            for page in job.record.pages {
                guard let task = task(job, page.n) else { continue }
                let file = out.appendingPathComponent(ResultFormat.pdfPageFileName(pageStem: task.outputStem))
                guard FileManager.default.fileExists(atPath: file.path) else { continue }
                guard let fixes = corrections.pages[page.n] else { files.append(file); continue }
                let made = scratch.appendingPathComponent("\(page.n).page")
                try SearchablePDF.pageFile(file, text: try corrected(job, page.n, fixes)).write(to: made)
                files.append(made)
            }
            guard !files.isEmpty else { return nil }
            removeDerived(job, prefix: "job-c", keeping: url)
            try AtomicFile.write(to: url) { handle in try SearchablePDF.write(pageFiles: files, to: handle) }
        } catch {
            throw .storage("cannot make the job's PDF with its corrections: \(ErrorText.line(error))")
        }
        return url
    }

    /// Removes the files made for earlier versions of the corrections (`<prefix>…`), but `keeping`.
    func removeDerived(_ job: Job, prefix: String, keeping: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: job.folder.path)) ?? []
        for name in names where name.hasPrefix(prefix) && name != keeping.lastPathComponent {
            try? FileManager.default.removeItem(at: job.folder.appendingPathComponent(name))
        }
    }
}
