import Foundation
import KotenOCRKit

/// Page thumbnails for the web app's page list (docs/serve.md, "API": `GET /v1/jobs/{id}/pages/{n}/thumbnail`).
extension JobFiles {
    /// The longer side of a thumbnail, in pixels.
    static let thumbnailSide = 200

    /// Page `n`'s thumbnail.
    enum Thumbnail {
        /// A canvas's is the library's image (not kept by the server): its URL.
        case elsewhere(String)
        /// The upright page's, a JPEG of at most `thumbnailSide` pixels a side, in `thumbs/<n>.jpg` of the job's folder.
        case file(URL)
    }

    /// Page `n`'s thumbnail (a page that is done), made once and kept in the job's folder (`thumbs/0001.jpg`; gone
    /// with the job). Made by libvips' thumbnail operation (`ImageSource.encodedThumbnail`): a 12-megapixel page is
    /// shrunk while it is decoded, never held whole. Throws `.notFound` for a page not done, `.storage` when the
    /// image cannot be read or the thumbnail kept.
    func thumbnail(_ job: Job, _ n: Int, engine: KotenOCR) throws(JobError) -> Thumbnail {
        guard let object = resultJSON(job, n) else { throw .notFound("page \(n) is not done") }
        if let image = try canvasImage(job, n, object) { return .elsewhere(image) }
        let page = job.record.pages[n - 1]
        let folder = job.folder.appendingPathComponent("thumbs")
        let url = folder.appendingPathComponent(String(format: "%04d.jpg", n))
        if FileManager.default.fileExists(atPath: url.path) { return .file(url) }
        let file = job.folder.appendingPathComponent("in").appendingPathComponent(job.record.inputs[page.input].file)
        do {
            let rotation = PageRotation(degrees: object["rotation"] as? Int ?? 0) ?? .upright
            let jpeg = try engine.open(file, page: page.page).turnedUpright(from: rotation).encodedThumbnail(maxSide: Self.thumbnailSide)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try AtomicFile.write(jpeg, to: url)
        } catch {
            throw .storage("page \(n)'s thumbnail: \(ErrorText.line(error))")
        }
        return .file(url)
    }
}
