import Foundation
import KotenOCRKit

/// Where a job's files are and what is made of them (docs/serve.md, "Jobs"): each job in `<work>/jobs/<id>/`
/// (`job.json`, `in/`, `out/`, `failed.json`, `job.pdf`, `done`); the batch reads a job's inputs from one stable
/// folder, `<work>/run/` (hard links), so results name the same paths whichever job they belong to.
struct JobFiles: Sendable {
    let jobs: URL
    let run: URL

    init(root: URL) {
        jobs = root.appendingPathComponent("jobs")
        run = root.appendingPathComponent("run")
    }

    /// The manifest of a IIIF job, as read when it was posted (`in/manifest.json`).
    static let manifestFile = "manifest.json"

    func folder(_ id: String) -> URL { jobs.appendingPathComponent(id) }

    /// The batch's inputs of an upload job (none for a IIIF job's): each stored upload as the batch reads it,
    /// from `run/`, named in the results as its client named it (`BatchInput.sourceName`: ALTO `fileName`, PAGE
    /// `imageFilename`, JSON `source.path`, the html title), never by a server path.
    func uploadInputs(_ job: Job) -> [BatchInput] {
        guard job.record.manifest == nil else { return [] }
        return job.record.inputs.map { input in
            var batch = BatchInput(path: run.appendingPathComponent(input.file).path, relativePath: input.file)
            batch.sourceName = input.name
            return batch
        }
    }

    /// The batch's task for page `n` of `job`; nil past its pages.
    func task(_ job: Job, _ n: Int) -> PageTask? {
        guard n >= 1, n <= job.record.pages.count else { return nil }
        let page = job.record.pages[n - 1]
        if let file = page.file {  // a canvas: one page, named as the batch's remote input names it
            return PageTask(input: BatchInput(path: job.folder.appendingPathComponent("out").appendingPathComponent(file).path,
                                              relativePath: file), page: 0, pageCount: 1)
        }
        let input = job.record.inputs[page.input]
        return PageTask(input: BatchInput(path: run.appendingPathComponent(input.file).path, relativePath: input.file),
                        page: page.page, pageCount: input.pageCount)
    }

    /// Page `n`'s file in `format`, where the batch writes it.
    func result(_ job: Job, _ n: Int, _ format: ResultFormat) -> URL? {
        guard let task = task(job, n) else { return nil }
        return job.folder.appendingPathComponent("out").appendingPathComponent(task.outputFile(format))
    }

    /// Page `n`'s result JSON as an object, nil when it is not there.
    func resultJSON(_ job: Job, _ n: Int) -> [String: Any]? {
        guard let url = result(job, n, .json), let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    }

    /// The number of lines page `n`'s result has, nil when it has none yet.
    func lineCount(_ job: Job, _ n: Int) -> Int? {
        resultJSON(job, n).map { ($0["lines"] as? [Any])?.count ?? 0 }
    }

    /// The whole job's searchable PDF (`job.pdf`).
    func pdf(_ job: Job) -> URL { job.folder.appendingPathComponent("job.pdf") }

    /// Writes `job.pdf`: the page files the batch keeps (`BatchOptions.keepsPDFPageFiles`) of the pages read, in
    /// page order, joined; atomically. None when no page was read.
    func writePDF(_ job: Job) {
        let out = job.folder.appendingPathComponent("out")
        let files = job.record.pages.compactMap { page -> URL? in
            guard let task = task(job, page.n) else { return nil }
            let url = out.appendingPathComponent(ResultFormat.pdfPageFileName(pageStem: task.outputStem))
            return FileManager.default.fileExists(atPath: url.path) ? url : nil
        }
        guard !files.isEmpty else { return }
        try? AtomicFile.write(to: pdf(job)) { handle in
            try SearchablePDF.write(pageFiles: files, to: handle)
        }
    }

    /// The zip of every page's file in `format` (named by page number, `0001.json`), made once for a job that is
    /// over (`result-<format>.zip`), so that its bytes, and a client's ranges of them, stay the same. Corrected pages
    /// (`corrections`) are made with their corrections, into `result-<format>-<version>.zip`.
    func resultZip(_ job: Job, _ format: ResultFormat, corrections: JobCorrections = JobCorrections(),
                   engine: KotenOCR? = nil) throws(JobError) -> URL {
        let zip = job.folder.appendingPathComponent("result-\(format.rawValue)\(corrections.suffix).zip")
        if FileManager.default.fileExists(atPath: zip.path) { return zip }
        let out = job.folder.appendingPathComponent("out")
        let made = job.folder.appendingPathComponent(".made-\(RandomID.make())")
        defer { try? FileManager.default.removeItem(at: made) }
        var files: [(name: String, file: URL)] = []
        var seen = Set<String>()
        let scratch = job.folder.appendingPathComponent(".result-\(RandomID.make()).zip")
        do {
            for page in job.record.pages {
                guard let task = task(job, page.n) else { continue }
                let name = String(format: "%04d.%@", page.n, format.fileExtension)
                guard seen.insert(name).inserted else { continue }
                if let fixes = corrections.pages[page.n], let engine {
                    try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
                    let file = made.appendingPathComponent(name)
                    do { try render(job, page.n, format, fixes, engine: engine).write(to: file) } catch JobError.notFound {
                        continue  // a IIIF canvas's html: not made again (the library's image is not kept)
                    }
                    files.append((name, file))
                    continue
                }
                let url = out.appendingPathComponent(task.outputFile(format))
                if FileManager.default.fileExists(atPath: url.path) { files.append((name, url)) }
            }
            try ZipArchive.write(files, to: scratch)
            if !corrections.version.isEmpty { removeDerived(job, prefix: "result-\(format.rawValue)-c", keeping: zip) }
            guard rename(scratch.path, zip.path) == 0 else { throw ZipArchive.Refusal(description: "cannot store the result zip") }
        } catch {
            try? FileManager.default.removeItem(at: scratch)
            throw .storage("\(error)")
        }
        return zip
    }

    /// The whole job's text (`result-text.txt`, made once for a job that is over; with corrections
    /// `result-text-<version>.txt`): each page's `txt` in page order, each followed by a form feed (U+000C), as
    /// pdftotext writes a document's pages, so that the n-th page is the text before the n-th form feed; a page that
    /// failed is empty (its form feed kept, the numbering with it).
    func wholeText(_ job: Job, corrections: JobCorrections = JobCorrections(), engine: KotenOCR? = nil) throws(JobError) -> URL {
        let url = job.folder.appendingPathComponent("result-text\(corrections.suffix).txt")
        if FileManager.default.fileExists(atPath: url.path) { return url }
        do {
            if !corrections.version.isEmpty { removeDerived(job, prefix: "result-text-c", keeping: url) }
            try AtomicFile.write(to: url) { handle in
                for page in job.record.pages {
                    let text: Data?
                    if let fixes = corrections.pages[page.n], let engine {
                        text = try render(job, page.n, .txt, fixes, engine: engine)
                    } else {
                        text = result(job, page.n, .txt).flatMap { try? Data(contentsOf: $0) }
                    }
                    if let text { try handle.write(contentsOf: text) }
                    try handle.write(contentsOf: Data([0x0C]))
                }
            }
        } catch {
            throw .storage("cannot store the job's text: \(ErrorText.line(error))")
        }
        return url
    }

    /// Page `n`'s image as the API gives it.
    enum PageImage {
        /// A canvas's image is the library's: its URL.
        case elsewhere(String)
        /// The upright page the coordinates are in, as JPEG.
        case jpeg(Data)
    }

    /// The library's image of page `n` when it is a IIIF canvas (nil for an uploaded page): the server keeps no
    /// canvas's image, so its image and thumbnail routes send the client there. Throws `.notFound` when the page's
    /// JSON (`object`) names no http(s) image.
    func canvasImage(_ job: Job, _ n: Int, _ object: [String: Any]) throws(JobError) -> String? {
        guard job.record.pages[n - 1].file != nil else { return nil }
        guard let iiif = (object["source"] as? [String: Any])?["iiif"] as? [String: Any], let image = iiif["image"] as? String,
              image.lowercased().hasPrefix("http") else { throw .notFound("page \(n): the canvas names no image") }
        return image
    }

    /// Page `n`'s image (a page that is done): the upright page, or for a canvas the library's image.
    func image(_ job: Job, _ n: Int, engine: KotenOCR) throws(JobError) -> PageImage {
        guard let object = resultJSON(job, n) else { throw .notFound("page \(n) is not done") }
        if let image = try canvasImage(job, n, object) { return .elsewhere(image) }
        let page = job.record.pages[n - 1]
        let file = job.folder.appendingPathComponent("in").appendingPathComponent(job.record.inputs[page.input].file)
        do {
            let source = try engine.open(file, page: page.page)
            let rotation = PageRotation(degrees: object["rotation"] as? Int ?? 0) ?? .upright
            return .jpeg(try source.turnedUpright(from: rotation).encodedDisplay(.jpeg(quality: 90)))
        } catch {
            throw .storage("page \(n): \(ErrorText.line(error))")
        }
    }

    /// The region `x, y, width, height` (upright page pixels) of page `n` with `margin` pixels around it (within
    /// the page), as an image the engine reads (a page that is done; a canvas's image is the library's: refused).
    func region(_ job: Job, _ n: Int, x: Int, y: Int, width: Int, height: Int, margin: Int,
                engine: KotenOCR) throws(JobError) -> ImageSource {
        guard let object = resultJSON(job, n) else { throw .notFound("page \(n) is not done") }
        let page = job.record.pages[n - 1]
        guard page.file == nil else {
            throw .badOption("page \(n) is a IIIF canvas: its image is the library's, and a region of it cannot be read here")
        }
        let file = job.folder.appendingPathComponent("in").appendingPathComponent(job.record.inputs[page.input].file)
        do {
            let rotation = PageRotation(degrees: object["rotation"] as? Int ?? 0) ?? .upright
            let upright = try engine.open(file, page: page.page).turnedUpright(from: rotation).decode()
            let crop = upright.cropped(x: x - margin, y: y - margin, width: width + 2 * margin, height: height + 2 * margin)
            return try crop.pixels.withUnsafeBytes { bytes in
                try ImageSource(pixels: bytes, width: crop.width, height: crop.height, bytesPerRow: crop.width * 3, format: .rgb8,
                                name: "page \(n) region")
            }
        } catch {
            throw .storage("page \(n): \(ErrorText.line(error))")
        }
    }
}
