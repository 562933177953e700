import Foundation

/// The `iiif` format (`<stem>.annotations.json`, docs/iiif.md "What is written"): the page's text lines as W3C Web
/// Annotations on the IIIF canvas the page is (`IIIFCanvasSource`).
///
/// Presentation 3: an `AnnotationPage` whose items are `Annotation`s with `motivation` `supplementing`, a
/// `TextualBody` (`text/plain`, `language` `ja`) and the target `<canvas>#xywh=x,y,w,h`. Presentation 2.1: an
/// `sc:AnnotationList` of `oa:Annotation`s, `motivation` `sc:painting` (a transcription), a `cnt:ContentAsText`
/// resource and `on` `<canvas>#xywh=…`. Each box is the line's outline, taken from the upright page back to the
/// image as given (`PageResult.rotation`), scaled from the size of the image read to the canvas's size, its
/// enclosing whole-pixel rectangle clamped to the canvas. Lines in reading order (`PageResult.textLines`); JSON
/// with sorted keys, so the same page gives the same bytes.
package enum IIIFAnnotations {
    static func document(_ page: PageResult, canvas: IIIFCanvasSource) throws -> Data {
        let id = canvas.annotations ?? canvas.canvas + "/annotations"
        let items = page.textLines.enumerated().map { index, line -> [String: Any] in
            let target = canvas.canvas + "#xywh=" + fragment(line.polygon, page: page, canvas: canvas)
            let lineID = id + "#line" + String(index + 1)
            if canvas.presentation == 2 {
                return ["@id": lineID, "@type": "oa:Annotation", "motivation": "sc:painting", "on": target,
                        "resource": ["@type": "cnt:ContentAsText", "chars": line.text, "format": "text/plain", "language": "ja"]]
            }
            return ["id": lineID, "type": "Annotation", "motivation": "supplementing", "target": target,
                    "body": ["type": "TextualBody", "value": line.text, "format": "text/plain", "language": "ja"]]
        }
        let document: [String: Any] = canvas.presentation == 2
            ? ["@context": "http://iiif.io/api/presentation/2/context.json", "@id": id, "@type": "sc:AnnotationList",
               "resources": items]
            : ["@context": "http://iiif.io/api/presentation/3/context.json", "id": id, "type": "AnnotationPage", "items": items]
        return try json(document)
    }

    /// Pretty-printed, keys sorted, slashes unescaped, with a final newline: the bytes of every IIIF document
    /// written here.
    package static func json(_ object: Any) throws -> Data {
        var data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        data.append(0x0A)
        return data
    }

    /// `x,y,w,h` of the rectangle enclosing `polygon` (upright page pixels) in the canvas's coordinates.
    static func fragment(_ polygon: [[Double]], page: PageResult, canvas: IIIFCanvasSource) -> String {
        let rotation = page.rotation ?? .upright
        let width = Double(page.source.width), height = Double(page.source.height)
        // The image as given is the upright page turned clockwise by `rotation`.
        let given = rotation.uprightSize(width: page.source.width, height: page.source.height)
        let scaleX = Double(canvas.canvasWidth) / Double(max(1, given.width))
        let scaleY = Double(canvas.canvasHeight) / Double(max(1, given.height))
        let points = polygon.compactMap { point -> (Double, Double)? in
            guard point.count >= 2 else { return nil }
            let (x, y) = (point[0], point[1])
            switch rotation {
            case .upright: return (x * scaleX, y * scaleY)
            case .clockwise90: return ((height - y) * scaleX, x * scaleY)
            case .halfTurn: return ((width - x) * scaleX, (height - y) * scaleY)
            case .clockwise270: return (y * scaleX, (width - x) * scaleY)
            }
        }
        guard let minX = points.map(\.0).min(), let maxX = points.map(\.0).max(),
              let minY = points.map(\.1).min(), let maxY = points.map(\.1).max() else { return "0,0,0,0" }
        let left = clamp(Int(minX.rounded(.down)), canvas.canvasWidth), top = clamp(Int(minY.rounded(.down)), canvas.canvasHeight)
        let right = clamp(Int(maxX.rounded(.up)), canvas.canvasWidth), bottom = clamp(Int(maxY.rounded(.up)), canvas.canvasHeight)
        return "\(left),\(top),\(max(0, right - left)),\(max(0, bottom - top))"
    }

    private static func clamp(_ value: Int, _ limit: Int) -> Int { min(max(0, value), limit) }
}
