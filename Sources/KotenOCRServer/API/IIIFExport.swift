import Foundation
import KotenOCRKit

/// `GET /v1/jobs/{id}/result?format=iiif` (docs/serve.md, "Exports with corrections"): a IIIF Presentation 3
/// manifest of the job, a canvas per page read, each page's lines as annotations on it (the format the command
/// line's `--format iiif` writes per page: `supplementing` `TextualBody`s in Japanese, each targeting
/// `<canvas>#xywh=…`), embedded in the manifest, with the current text (`?text=model`: the engine's).
extension OCRService {
    /// The manifest's bytes (keys sorted). An uploaded page's canvas is `<server>/v1/jobs/{id}/pages/{n}/canvas`, of
    /// the upright page's size, painted by the page's image route (JPEG); a IIIF job's canvas is the library's (its
    /// id, its size, its image), the lines mapped onto it as the command line maps them. `origin`: the scheme, host and
    /// port the ids start with.
    func iiifManifest(_ job: Job, origin: String, corrections: JobCorrections) throws -> Data {
        let base = origin + linkPrefix + "/v1/jobs/\(job.id)"
        let manifestID = base + "/result?format=iiif"
        var canvases: [[String: Any]] = []
        for record in job.record.pages {
            guard job.read({ $0.pages[record.n - 1].state == .done }), let url = store.files.result(job, record.n, .json) else { continue }
            var page: PageResult
            if let fixes = corrections.pages[record.n] {
                page = try store.files.corrected(job, record.n, fixes)
            } else {
                page = try JSONDecoder().decode(PageResult.self, from: Data(contentsOf: url))
            }
            let annotations = base + "/pages/\(record.n)/annotations"
            var canvas: IIIFCanvasSource
            if var library = page.source.iiif {
                library.presentation = 3
                library.annotations = annotations
                canvas = library
            } else {
                canvas = IIIFCanvasSource(presentation: 3, manifest: manifestID, canvas: base + "/pages/\(record.n)/canvas",
                                          canvasIndex: record.n, canvasWidth: page.source.width, canvasHeight: page.source.height,
                                          image: base + "/pages/\(record.n)/image", annotations: annotations)
                page.rotation = .upright  // the canvas is the upright page (the image route's)
            }
            page.source.iiif = canvas
            guard var lines = try JSONSerialization.jsonObject(with: ResultFormat.iiif.render(page)) as? [String: Any] else { continue }
            lines["@context"] = nil
            var entry: [String: Any] = [
                "id": canvas.canvas, "type": "Canvas", "width": canvas.canvasWidth, "height": canvas.canvasHeight,
                "label": ["none": [record.name]], "annotations": [lines],
            ]
            if let image = canvas.image {
                let painting = canvas.canvas + "/painting"
                var body: [String: Any] = ["id": image, "type": "Image", "width": canvas.canvasWidth, "height": canvas.canvasHeight]
                if record.file == nil { body["format"] = "image/jpeg" }  // the image route's; a library's image as it is
                entry["items"] = [["id": painting, "type": "AnnotationPage", "items": [[
                    "id": painting + "/image", "type": "Annotation", "motivation": "painting", "target": canvas.canvas, "body": body,
                ]]]]
            } else {
                entry["items"] = [[String: Any]]()
            }
            canvases.append(entry)
        }
        let stem = DownloadName.stem(inputName: job.record.inputs.first?.name, manifest: job.record.manifest)
        let manifest: [String: Any] = [
            "@context": "http://iiif.io/api/presentation/3/context.json", "id": manifestID, "type": "Manifest",
            "label": ["none": [stem]], "items": canvases,
        ]
        var data = try JSONSerialization.data(withJSONObject: manifest, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        data.append(0x0A)
        return data
    }

    /// The scheme, host and port a request's ids start with: `--public-url`'s, else `http://` and its `Host`.
    func origin(_ request: APIRequest) -> String {
        if let url = options.publicURL, let scheme = url.scheme, let host = url.host {
            return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
        }
        return "http://" + (request.headers["host"] ?? "127.0.0.1")
    }
}
