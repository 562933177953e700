import Foundation
import KotenOCRKit

/// The run's `manifest.json` for `--format iiif` (docs/iiif.md, "What is written"), written after the batch:
/// for a book read from a manifest, a copy of that manifest whose canvases reference the annotation pages in the
/// output folder; for local images, a Presentation 3 manifest made for them. Either lists only the canvases
/// whose `<stem>.annotations.json` is in the folder (so a shard's or a resumed run's manifest holds what is
/// there), is written through `PageCommit` (temporary file, rename) and has sorted keys.
package enum IIIFManifestWriter {
    /// `<folderName>/manifest.json` for `book`: its JSON with its `id` now `<base><folderName>/manifest.json`, the
    /// source named in `seeAlso`, and on each canvas whose annotations are in `directory` a reference to them: 3.0
    /// `annotations: [{id, type: AnnotationPage}]`, 2.1 `otherContent: [{@id, @type: sc:AnnotationList}]`
    /// (appended to what the canvas had, once). Returns the file's name below `directory`, nil when no canvas has
    /// annotations yet.
    @discardableResult
    package static func writeCopy(of book: IIIFBook, base: URL, in directory: URL) throws -> String? {
        guard var manifest = try JSONSerialization.jsonObject(with: book.data) as? [String: Any] else { return nil }
        let folder = book.folderName
        let name = folder + "/manifest.json"
        var annotated = 0
        func annotations(of canvas: [String: Any], index: Int) -> String? {
            let stem = folder + "/" + IIIFNames.canvasStem(index: index, label: IIIFBook.text(canvas["label"]))
            let file = ResultFormat.iiif.fileName(stem: stem)
            guard FileManager.default.fileExists(atPath: directory.appendingPathComponent(file).path) else { return nil }
            annotated += 1
            return IIIFCanvasSource.resolve(file, base)
        }
        if book.presentation == 3 {
            var position = 0
            manifest["items"] = (manifest["items"] as? [Any] ?? []).map { item -> Any in
                guard var canvas = item as? [String: Any], (canvas["type"] as? String) == "Canvas" else { return item }
                position += 1
                guard let id = annotations(of: canvas, index: position) else { return canvas }
                let others = (canvas["annotations"] as? [Any] ?? []).filter { (($0 as? [String: Any])?["id"] as? String) != id }
                canvas["annotations"] = others + [["id": id, "type": "AnnotationPage"]]
                return canvas
            }
            manifest["id"] = IIIFCanvasSource.resolve(name, base)
            manifest["seeAlso"] = (manifest["seeAlso"] as? [Any] ?? [])
                + [["id": book.id, "type": "Dataset", "format": "application/ld+json", "label": ["none": ["the source manifest"]]]]
        } else {
            var sequences = manifest["sequences"] as? [[String: Any]] ?? []
            if var first = sequences.first {
                first["canvases"] = (first["canvases"] as? [Any] ?? []).enumerated().map { offset, item -> Any in
                    guard var canvas = item as? [String: Any], let id = annotations(of: canvas, index: offset + 1) else { return item }
                    let others = (canvas["otherContent"] as? [Any] ?? []).filter { (($0 as? [String: Any])?["@id"] as? String) != id }
                    canvas["otherContent"] = others + [["@id": id, "@type": "sc:AnnotationList"]]
                    return canvas
                }
                sequences[0] = first
                manifest["sequences"] = sequences
            }
            manifest["@id"] = IIIFCanvasSource.resolve(name, base)
            manifest["seeAlso"] = ["@id": book.id, "format": "application/ld+json"]
        }
        guard annotated > 0 else { return nil }
        try PageCommit.commit([.init(name: name, data: try IIIFAnnotations.json(manifest))], in: directory)
        return name
    }

    /// `manifest.json` at the top of `directory` for the local `pages` (each a task and its image's size as given),
    /// in their order: a Presentation 3 manifest labelled `label`, a canvas per page with annotations in the
    /// folder (`IIIFCanvasSource.generated`: the ids the pages' annotations target), painted by the page's image
    /// at `<base><input's relative path>` (serve the images there, e.g. copied beside the results). Returns the
    /// name, nil when no page has annotations.
    @discardableResult
    package static func writeGenerated(_ pages: [(task: PageTask, width: Int, height: Int, imagePath: String)], label: String,
                                       base: URL, in directory: URL) throws -> String? {
        var canvases: [[String: Any]] = []
        for page in pages {
            let file = page.task.outputFile(.iiif)
            guard FileManager.default.fileExists(atPath: directory.appendingPathComponent(file).path) else { continue }
            let canvas = IIIFCanvasSource.generated(base: base, stem: page.task.outputStem, index: canvases.count + 1,
                                                    width: page.width, height: page.height)
            let annotationPage = canvas.canvas + "/page"
            canvases.append([
                "id": canvas.canvas, "type": "Canvas", "width": page.width, "height": page.height,
                "label": ["none": [canvas.canvasLabel ?? page.task.outputStem]],
                "items": [["id": annotationPage, "type": "AnnotationPage", "items": [[
                    "id": annotationPage + "/image", "type": "Annotation", "motivation": "painting", "target": canvas.canvas,
                    "body": ["id": IIIFCanvasSource.resolve(page.imagePath, base), "type": "Image", "format": mediaType(page.imagePath),
                             "width": page.width, "height": page.height],
                ]]]],
                "annotations": [["id": IIIFCanvasSource.resolve(file, base), "type": "AnnotationPage"]],
            ])
        }
        guard !canvases.isEmpty else { return nil }
        let manifest: [String: Any] = [
            "@context": "http://iiif.io/api/presentation/3/context.json",
            "id": IIIFCanvasSource.resolve("manifest.json", base), "type": "Manifest",
            "label": ["none": [label]], "items": canvases,
        ]
        try PageCommit.commit([.init(name: "manifest.json", data: try IIIFAnnotations.json(manifest))], in: directory)
        return "manifest.json"
    }

    /// The media type of an image by its file name's extension.
    static func mediaType(_ path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "jpg", "jpeg", "jfif": return "image/jpeg"
        case "png": return "image/png"
        case "tif", "tiff": return "image/tiff"
        case "webp": return "image/webp"
        case "gif": return "image/gif"
        case "jp2", "j2k": return "image/jp2"
        case "pdf": return "application/pdf"
        default: return "image/" + (path as NSString).pathExtension.lowercased()
        }
    }
}
