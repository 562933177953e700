import Foundation
import KotenOCRKit

/// A page's lines for the ground-truth zip (docs/serve.md, "Ground truth"): the lines to export, each with its
/// current text and outline, and the page's corrections for its PAGE XML.
struct GroundTruthPage: Sendable {
    struct Line: Sendable {
        /// The line's stable id (`l3`, `a1`): the entries' names.
        var id: String
        /// The current text, one line.
        var text: String
        var outline: LineOutline
    }

    /// 1-based page number in the job.
    var n: Int
    var lines: [Line]
    /// The page's correction layer for its PAGE XML (nil: none; the batch's reading).
    var corrections: PageCorrections?
}

extension JobFiles {
    /// The ground-truth zip of `pages` (`groundtruth-<name>.zip` in the job's folder, made once per `name`, which
    /// the caller makes of the scope and the job's corrections' version; the earlier ones of `prefix` removed):
    ///
    /// - `lines/<page>_<line>.png`: each line cut as the engine's recogniser is given it (`KotenOCR.lineImages`:
    ///   upright, text left to right), `lines/<page>_<line>.gt.txt` its text (one line of UTF-8, a final newline);
    /// - `rec_gt.txt`: `lines/<page>_<line>.png<TAB><text>`, one line each (PaddleOCR's recognition label file);
    /// - `pages/<page>.png` the upright page the coordinates are in, `pages/page/<page>.xml` its PAGE XML with the
    ///   corrections, its `imageFilename` that image (Transkribus's document layout: the images, their PAGE XML in
    ///   `page/`).
    ///
    /// `<page>` is the page number in four digits (`0001`), `<line>` the line's id. A IIIF canvas's page has only its
    /// PAGE XML (its `imageFilename` the library's image URL): the server does not keep the library's image, so its
    /// lines are not cut. Throws `JobError.storage`.
    func groundTruthZip(_ job: Job, _ pages: [GroundTruthPage], name: String, prefix: String, engine: KotenOCR) async throws -> URL {
        let target = job.folder.appendingPathComponent("\(name).zip")
        if FileManager.default.fileExists(atPath: target.path) { return target }
        let made = job.folder.appendingPathComponent(".groundtruth-\(RandomID.make())")
        let scratch = job.folder.appendingPathComponent(".groundtruth-\(RandomID.make()).zip")
        defer { try? FileManager.default.removeItem(at: made) }
        do {
            try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
            var files: [(name: String, file: URL)] = []
            var labels = ""
            func add(_ name: String, _ data: Data) throws {
                let file = made.appendingPathComponent(name.replacingOccurrences(of: "/", with: "--"))
                try data.write(to: file)
                files.append((name, file))
            }
            for page in pages {
                let stem = String(format: "%04d", page.n)
                let record = job.record.pages[page.n - 1]
                guard let url = result(job, page.n, .json) else { continue }
                var read = try JSONDecoder().decode(PageResult.self, from: Data(contentsOf: url))
                if let fixes = page.corrections { read = try read.applying(fixes) }
                if record.file == nil {
                    let file = job.folder.appendingPathComponent("in").appendingPathComponent(job.record.inputs[record.input].file)
                    let source = try engine.open(file, page: record.page)
                    let rotation = read.rotation ?? .upright
                    let images = try await engine.lineImages(page.lines.map(\.outline), of: source, rotation: rotation)
                    for (line, image) in zip(page.lines, images) where image.width > 0 && image.height > 0 {
                        let png = try image.pixels.withUnsafeBytes { bytes in
                            try ImageSource(pixels: bytes, width: image.width, height: image.height, bytesPerRow: image.width * 3,
                                            format: .rgb8, name: "\(stem)_\(line.id)")
                        }.encodedDisplay(.png)
                        let base = "lines/\(stem)_\(line.id)"
                        try add("\(base).png", png)
                        try add("\(base).gt.txt", Data((line.text + "\n").utf8))
                        labels += "\(base).png\t\(line.text)\n"
                    }
                    try add("pages/\(stem).png", try source.turnedUpright(from: rotation).encodedDisplay(.png))
                    read.source.path = "\(stem).png"
                }
                try add("pages/page/\(stem).xml", try ResultFormat.pageXML.render(read, created: job.record.created))
            }
            try add("rec_gt.txt", Data(labels.utf8))
            try ZipArchive.write(files, to: scratch)
            removeDerived(job, prefix: prefix, keeping: target)
            guard rename(scratch.path, target.path) == 0 else { throw ZipArchive.Refusal(description: "cannot store the ground-truth zip") }
        } catch {
            try? FileManager.default.removeItem(at: scratch)
            if error is CancellationError || error is ModelStoreError { throw error }
            throw JobError.storage("cannot make the ground-truth zip: \(ErrorText.line(error))")
        }
        return target
    }
}
