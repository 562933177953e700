import Foundation
import KotenOCRIIIF
import KotenOCRKit

/// The command line's IIIF part (docs/iiif.md): the manifests named read as books before the batch is planned,
/// and after it the run's `manifest.json` files for `--format iiif`.
struct IIIFRun {
    let books: [IIIFBook]
    /// The canvases to read, as the batch's remote pages.
    let inputs: [BatchInput]
    /// Manifests that could not be read (each named on standard error).
    let failures: Int
    /// Where canvases' images wait without an output folder.
    let scratch: URL

    /// Reads every manifest among the inputs; a manifest that cannot be read is one line on standard error.
    static func load(_ arguments: Arguments, outputDir: URL?) async -> IIIFRun {
        var limits = HTTPClient.Limits()
        limits.readTimeout = arguments.networkTimeout
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("koten-ocr-iiif-\(getpid())")
        var books: [IIIFBook] = [], inputs: [BatchInput] = [], failures = 0
        for source in arguments.inputs where IIIFBook.isManifest(source) {
            do {
                let book = try await IIIFBook.load(source, limits: limits)
                do {
                    inputs += try book.batchInputs(pages: arguments.pages, size: arguments.iiifSize, outputDirectory: outputDir,
                                                   scratch: scratch, limits: limits)
                    books.append(book)
                    // Sound, video or a PDF on a canvas: one line each, nothing fetched (not a failure).
                    for line in book.skippedLines(pages: arguments.pages) { stderrLine("koten-ocr: \(line)") }
                } catch {
                    stderrLine("koten-ocr: \(source): --pages asks for canvas \(error.page), but the manifest has \(error.pageCount) canvases")
                    failures += 1
                }
            } catch {
                stderrLine("koten-ocr: \(error)")
                failures += 1
            }
        }
        return IIIFRun(books: books, inputs: inputs, failures: failures, scratch: scratch)
    }

    /// With `--format iiif` and an output folder, writes each book's `manifest.json` and one for the local pages
    /// (`IIIFManifestWriter`). Removes the scratch folder. Returns false when a manifest could not be written
    /// (named on standard error).
    func finish(_ plan: BatchPlan, options: BatchOptions) -> Bool {
        try? FileManager.default.removeItem(at: scratch)
        guard options.formats.contains(.iiif), let directory = options.outputDirectory, let base = options.iiifBase else { return true }
        var ok = true
        for book in books {
            do { try IIIFManifestWriter.writeCopy(of: book, base: base, in: directory) } catch {
                stderrLine("koten-ocr: \(directory.appendingPathComponent(book.folderName).path)/manifest.json: \(error)")
                ok = false
            }
        }
        let local = plan.allTasks.filter { $0.input.remote == nil }.compactMap { task -> (task: PageTask, width: Int, height: Int, imagePath: String)? in
            guard let image = try? ImageSource(file: task.input.file, page: task.page) else { return nil }
            return (task, image.width, image.height, task.input.relativePath)
        }
        guard !local.isEmpty else { return ok }
        do {
            try IIIFManifestWriter.writeGenerated(local, label: directory.lastPathComponent, base: base, in: directory)
        } catch {
            stderrLine("koten-ocr: \(directory.appendingPathComponent("manifest.json").path): \(error)")
            ok = false
        }
        return ok
    }
}
