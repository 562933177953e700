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
    /// The manifest's label in one language (`ja`, else `none`, else the first language).
    package var label: String?
    /// The manifest's label in every language it has, as a IIIF language map (language → values; `none` for a
    /// label without a language; a 2.1 label's `@language`s gathered the same way), for a viewer to show the book
    /// in the reader's language. Nil when the manifest has none.
    package var labels: [String: [String]]?
    /// 2.1 `attribution`, or 3.0 `requiredStatement` as `label: value`.
    package var attribution: String?
    /// 3.0 `rights`, or 2.1 `license`.
    package var rights: String?
    /// The canvas's id.
    package var canvas: String
    /// The canvas's label in one language (as `label`), if any.
    package var canvasLabel: String?
    /// The canvas's label in every language it has (as `labels`).
    package var canvasLabels: [String: [String]]?
    /// 1-based position of the canvas in the manifest.
    package var canvasIndex: Int
    /// The canvas's size in its own coordinates (annotations' `xywh` are in these).
    package var canvasWidth: Int
    package var canvasHeight: Int
    /// The id of the image that paints the canvas (the painting annotation's body, or its `source` when the body
    /// is a part of an image); nil for a local image. The address of the pixels read is `SourceInfo.path`.
    package var image: String?
    /// The id of the page's annotations (`<stem>.annotations.json` under the run's base), when `--format iiif`.
    package var annotations: String?

    package init(presentation: Int, manifest: String, label: String? = nil, labels: [String: [String]]? = nil,
                 attribution: String? = nil, rights: String? = nil, canvas: String, canvasLabel: String? = nil,
                 canvasLabels: [String: [String]]? = nil, canvasIndex: Int, canvasWidth: Int, canvasHeight: Int,
                 image: String? = nil, annotations: String? = nil) {
        self.presentation = presentation
        self.manifest = manifest
        self.label = label
        self.labels = labels
        self.attribution = attribution
        self.rights = rights
        self.canvas = canvas
        self.canvasLabel = canvasLabel
        self.canvasLabels = canvasLabels
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
