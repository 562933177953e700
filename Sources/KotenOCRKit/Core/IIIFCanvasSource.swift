import Foundation

/// Where a page came from when it is a IIIF canvas (docs/iiif.md): the manifest's metadata and the canvas, kept
/// in the result (`PageResult.SourceInfo.iiif`, the JSON's `source.iiif`) for the formats that hold metadata
/// (JSON, ALTO) and for the `iiif` format's annotations (`IIIFAnnotations`). A local image written with
/// `--format iiif` gets one too, made by `generated(base:stem:width:height:)`, so that any book read here can be
/// opened in a viewer.
package struct IIIFCanvasSource: Sendable, Codable, Hashable {
    /// The Presentation API's major version of the manifest: 2 (2.1: `sc:AnnotationList` back) or 3.
    package var presentation: Int
    /// The manifest's `id` (3.0) or `@id` (2.1).
    package var manifest: String
    /// The manifest's label (3.0: the first value of its language map, `none` or `ja` first).
    package var label: String?
    /// 2.1 `attribution`, or 3.0 `requiredStatement` as `label: value`.
    package var attribution: String?
    /// 3.0 `rights`, or 2.1 `license`.
    package var rights: String?
    /// The canvas's id.
    package var canvas: String
    /// The canvas's label, if any.
    package var canvasLabel: String?
    /// 1-based position of the canvas in the manifest.
    package var canvasIndex: Int
    /// The canvas's size in its own coordinates (annotations' `xywh` are in these).
    package var canvasWidth: Int
    package var canvasHeight: Int
    /// The image fetched for the page (an Image API request or the body as is); nil for a local image.
    package var image: String?
    /// The id of the page's annotations (`<stem>.annotations.json` under the run's base), when `--format iiif`.
    package var annotations: String?

    package init(presentation: Int, manifest: String, label: String? = nil, attribution: String? = nil, rights: String? = nil,
                 canvas: String, canvasLabel: String? = nil, canvasIndex: Int, canvasWidth: Int, canvasHeight: Int,
                 image: String? = nil, annotations: String? = nil) {
        self.presentation = presentation
        self.manifest = manifest
        self.label = label
        self.attribution = attribution
        self.rights = rights
        self.canvas = canvas
        self.canvasLabel = canvasLabel
        self.canvasIndex = canvasIndex
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        self.image = image
        self.annotations = annotations
    }

    /// The canvas of a local image in the manifest generated for a run (Presentation 3): the manifest
    /// `<base>manifest.json`, the canvas `<base>canvas/<stem>` of the image's size as given (`width` × `height`),
    /// the annotations `<base><stem>.annotations.json`. `base` ends in `/`; `stem` is percent-encoded.
    package static func generated(base: URL, stem: String, index: Int, width: Int, height: Int) -> IIIFCanvasSource {
        IIIFCanvasSource(presentation: 3, manifest: resolve("manifest.json", base), canvas: resolve("canvas/" + stem, base),
                         canvasLabel: (stem as NSString).lastPathComponent, canvasIndex: index, canvasWidth: width, canvasHeight: height,
                         annotations: resolve(ResultFormat.iiif.fileName(stem: stem), base))
    }

    /// `relative` (a path below the run's output folder) under `base`, percent-encoded as a URL path.
    package static func resolve(_ relative: String, _ base: URL) -> String {
        let encoded = relative.addingPercentEncoding(withAllowedCharacters: pathCharacters) ?? relative
        let root = base.absoluteString.hasSuffix("/") ? base.absoluteString : base.absoluteString + "/"
        return root + encoded
    }

    /// The characters a URL path keeps as they are (RFC 3986 unreserved, and `/`).
    private static let pathCharacters = CharacterSet(charactersIn:
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/")
}
