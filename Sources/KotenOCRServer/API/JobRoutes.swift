import Foundation
import KotenOCRKit

/// The job routes: `POST /v1/jobs` and `GET`/`DELETE /v1/jobs/{id}…`, over the jobs wing (Jobs/).
extension OCRService {
    func submit(_ request: APIRequest) async throws -> HTTPResponse {
        try admit(request)
        let options = try requestOptions(request.parameters, allowFormat: false)
        let job: Job
        do {
            if let manifest = request.parameters["manifest"] {
                guard request.http.uploads.isEmpty else {
                    throw APIError(.badOption, "a job is either files or a manifest: this request has both")
                }
                job = try await intake.submit(manifest: manifest, ruby: options.ruby)
            } else {
                let uploads = try uploads(request).enumerated().map { i, upload in
                    JobIntake.Upload(file: upload.file, name: upload.fileName.map { String($0.prefix(200)) } ?? "upload-\(i + 1)")
                }
                job = try intake.submit(uploads, ruby: options.ruby)
            }
        } catch let error as JobError {
            throw APIError(error)
        }
        var body = JobJSON.status(job, linkPrefix: linkPrefix)
        body.removeValue(forKey: "pages")
        return .json(202, body, headers: [("Location", "\(linkPrefix)/v1/jobs/\(job.id)")])
    }

    /// The job of the request's path; `not_found` when there is none.
    func job(_ request: APIRequest) throws(APIError) -> Job {
        guard let job = store.job(request.id) else { throw APIError(.notFound, "no such job") }
        return job
    }

    /// Page `n` of `job` when it is done; else `page_failed` with its reason, or `not_found` (no such page, or
    /// not done yet).
    func donePage(_ job: Job, _ n: Int) throws(APIError) {
        guard n >= 1, n <= job.record.pages.count else { throw APIError(.notFound, "no such page: the job has \(job.record.pages.count)") }
        let page = job.read { $0.pages[n - 1] }
        switch page.state {
        case .done: return
        case .failed: throw APIError(.pageFailed, "page \(n) failed: \(page.error ?? "no reason recorded")")
        default: throw APIError(.notFound, "page \(n) is not done yet (\(page.state.rawValue))")
        }
    }

    func jobStatus(_ request: APIRequest) async throws -> HTTPResponse {
        let job = try job(request)
        var status = JobJSON.status(job, linkPrefix: linkPrefix)
        status["proofreading"] = await proofreadingFigures(job.id)
        return .json(200, status)
    }

    func delete(_ request: APIRequest) async throws -> HTTPResponse {
        await worker.remove(try job(request))
        return HTTPResponse(status: 204)
    }

    func events(_ request: APIRequest) throws -> HTTPResponse {
        let job = try job(request)
        let headers = [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store")]
        // HEAD: the headers only; no watcher is added.
        guard !request.isHead else { return HTTPResponse(status: 200, headers: headers) }
        return HTTPResponse(status: 200, headers: headers, body: .stream(events.watch(job)))
    }

    /// A page's result in a format (not pdf).
    func page(_ request: APIRequest) async throws -> HTTPResponse {
        let job = try job(request), n = request.page
        let text = request.parameters["format"] ?? "json"
        if text.lowercased() == ResultFormat.pdf.rawValue {
            // One page of the searchable PDF is part of its input's document: the whole job's PDF is `result`.
            throw APIError(.badOption, "a page's PDF is part of the job's: GET /v1/jobs/{id}/result?format=pdf")
        }
        let format: ResultFormat
        do { format = try OptionVocabulary.format(among: Self.formats.filter { $0 != .pdf }).parse(text) } catch {
            throw APIError(.badOption, error.description)
        }
        try donePage(job, n)
        guard let url = store.files.result(job, n, format) else { throw APIError(.notFound, "no such page") }
        guard let (fixes, revision) = try await pageCorrections(job, n, request) else {
            return try Representation.file(url, contentType: Self.contentType(format), for: request)
        }
        // Corrected: made from the result and its corrections; its validator the page's revision.
        let data: Data
        do { data = try store.files.render(job, n, format, fixes, engine: engine) } catch let error as JobError { throw APIError(error) }
        let (made, _) = try Representation.of(file: url, contentType: Self.contentType(format))
        let representation = Representation(etag: "\"\(made.etag.dropFirst().dropLast())-r\(revision)\"", lastModified: Date(),
                                            contentType: Self.contentType(format))
        return try representation.answer(request, size: { Int64(data.count) }) { offset, length in
            .data(data.subdata(in: Int(offset)..<Int(offset + length)))
        }
    }

    /// A page's image: the upright page as JPEG (its validators from the input's and the result's files, so a 304
    /// needs no encoding), or for a canvas the library's (303).
    func image(_ request: APIRequest) throws -> HTTPResponse {
        let job = try job(request), n = request.page
        try donePage(job, n)
        let page = job.record.pages[n - 1]
        if page.file == nil, let json = store.files.result(job, n, .json) {
            let input = job.folder.appendingPathComponent("in").appendingPathComponent(job.record.inputs[page.input].file)
            let (source, _) = try Representation.of(file: input, contentType: "image/jpeg")
            let (result, _) = try Representation.of(file: json, contentType: "image/jpeg")
            let tag = "\"\(source.etag.dropFirst().dropLast())-\(result.etag.dropFirst().dropLast())-p\(page.page)\""
            let representation = Representation(etag: tag, lastModified: result.lastModified, contentType: "image/jpeg")
            var jpeg: Data?
            func encoded() throws -> Data {
                if let jpeg { return jpeg }
                let made: JobFiles.PageImage
                do { made = try store.files.image(job, n, engine: engine) } catch { throw APIError(error) }
                guard case .jpeg(let data) = made else { throw APIError(.internal, "page \(n) has no image of its own") }
                jpeg = data
                return data
            }
            // Encoded only when the answer is not a 304.
            return try representation.answer(request, size: { Int64(try encoded().count) }) { offset, length in
                let data = try encoded()
                return .data(data.subdata(in: Int(offset)..<Int(offset + length)))
            }
        }
        do {
            switch try store.files.image(job, n, engine: engine) {
            case .elsewhere(let url): return HTTPResponse(status: 303, headers: [("Location", url)])
            case .jpeg(let data): return HTTPResponse(status: 200, headers: [("Content-Type", "image/jpeg")], body: .data(data))
            }
        } catch {
            throw APIError(error)
        }
    }

    /// A page's thumbnail: a JPEG of at most 200 pixels a side, made once and kept in the job's folder (its
    /// validators the kept file's), or for a canvas the library's image (303).
    func thumbnail(_ request: APIRequest) throws -> HTTPResponse {
        let job = try job(request), n = request.page
        try donePage(job, n)
        let made: JobFiles.Thumbnail
        do { made = try store.files.thumbnail(job, n, engine: engine) } catch { throw APIError(error) }
        switch made {
        case .elsewhere(let url): return HTTPResponse(status: 303, headers: [("Location", url)])
        case .file(let url): return try Representation.file(url, contentType: "image/jpeg", for: request)
        }
    }

    /// What `GET /v1/jobs/{id}/result?format=…` gives: the job's PDF, its whole text, or a zip of a format's page
    /// files (docs/serve.md, "API").
    enum ResultDownload: Equatable {
        case pdf, text, iiif, zip(ResultFormat)

        /// The formats whose page files are zipped.
        static let zipped: [ResultFormat] = [.json, .txt, .alto, .pageXML, .hocr, .html]

        /// Every value `format` takes: `pdf`, `txt` (the whole text), `<format>-zip` for each zipped format, and
        /// the zipped formats' bare names but `txt` (a zip, as before `txt` became the whole text).
        static let names: [String] = ["pdf", "txt", "iiif"] + zipped.map { "\($0.rawValue)-zip" } + zipped.filter { $0 != .txt }.map(\.rawValue)

        init(_ text: String) throws(APIError) {
            let name = text.lowercased()
            switch name {
            case "pdf": self = .pdf
            case "txt": self = .text
            case "iiif": self = .iiif
            default:
                let bare = name.hasSuffix("-zip") ? String(name.dropLast(4)) : name
                guard let format = ResultFormat(rawValue: bare), Self.zipped.contains(format) else {
                    throw APIError(.badOption, "format must be one of \(Self.names.joined(separator: ", "))")
                }
                self = .zip(format)
            }
        }
    }

    /// The job's result: its PDF, its whole text, or a zip of a format's page files.
    func result(_ request: APIRequest) async throws -> HTTPResponse {
        let job = try job(request)
        let download = try ResultDownload(request.parameters["format"] ?? "pdf")
        guard job.read({ $0.state == .done }) else { throw APIError(.notDone, "the job is not done") }
        let stem = DownloadName.stem(inputName: job.record.inputs.first?.name, manifest: job.record.manifest)
        func named(_ suffix: String) -> [(String, String)] {
            [("Content-Disposition", DownloadName.contentDisposition("\(stem)\(suffix)", fallback: "\(job.id)\(suffix)"))]
        }
        let corrections = try await jobCorrections(job, request)
        switch download {
        case .pdf:
            let made: URL?
            do { made = try store.files.correctedPDF(job, corrections) } catch { throw APIError(error) }
            guard let url = made else { throw APIError(.notFound, "the job has no PDF (no page was read)") }
            return try Representation.file(url, contentType: "application/pdf", headers: named(".pdf"), for: request)
        case .text:
            let url: URL
            do { url = try store.files.wholeText(job, corrections: corrections, engine: engine) } catch { throw APIError(error) }
            return try Representation.file(url, contentType: Self.contentType(.txt), headers: named(".txt"), for: request)
        case .iiif:
            let data = try iiifManifest(job, origin: origin(request), corrections: corrections)
            let representation = Representation(
                etag: "\"iiif-\(String(SHA256.hex(data).prefix(16)))\"", lastModified: Date(),
                contentType: "application/ld+json;profile=\"http://iiif.io/api/presentation/3/context.json\"", extraHeaders: named("-manifest.json"))
            return try representation.answer(request, size: { Int64(data.count) }) { offset, length in
                .data(data.subdata(in: Int(offset)..<Int(offset + length)))
            }
        case .zip(let format):
            let zip: URL
            do { zip = try store.files.resultZip(job, format, corrections: corrections, engine: engine) } catch { throw APIError(error) }
            return try Representation.file(zip, contentType: "application/zip", headers: named("-\(format.rawValue).zip"), for: request)
        }
    }
}

/// A job's status as the API gives it (`GET /v1/jobs/{id}`, each event; docs/serve.md, "API").
enum JobJSON {
    static func status(_ job: Job, linkPrefix: String) -> [String: Any] {
        job.read { progress in
            let pages: [[String: Any]] = job.record.pages.map { page in
                let state = progress.pages[page.n - 1]
                var entry: [String: Any] = ["n": page.n, "name": page.name, "state": state.state.rawValue]
                if let error = state.error, state.state == .failed { entry["error"] = error }
                if let lines = state.lines { entry["lines"] = lines }
                if let label = page.label { entry["label"] = label }
                if let labels = page.labels { entry["labels"] = labels }
                return entry
            }
            var status: [String: Any] = [
                "id": job.id, "state": progress.state.rawValue,
                "progress": ["done": progress.count(.done), "failed": progress.count(.failed), "total": job.record.pages.count],
                "links": ["self": "\(linkPrefix)/v1/jobs/\(job.id)", "events": "\(linkPrefix)/v1/jobs/\(job.id)/events"],
                "pages": pages,
            ]
            if !progress.failures.isEmpty { status["failures"] = progress.failures }
            if let label = job.record.label { status["label"] = label }
            if let labels = job.record.labels { status["labels"] = labels }
            return status
        }
    }
}
