import Foundation

/// The bytes of each format: the write stage's one switch over `ResultFormat` (docs/architecture.md, "Adding an
/// output format").
extension ResultFormat {
    /// The bytes of `page` for a stream of pages on standard output: `json` as one compact line (JSON Lines, one
    /// object per page); other formats as `render`. Throws as `render`.
    public func renderForStream(_ page: PageResult, image: ImageSource? = nil, ruby: RubyStyle = .drop, created: Date? = nil) throws -> Data {
        guard self == .json else { return try render(page, image: image, ruby: ruby, created: created) }
        return try ResultJSON.encodeLine(page)
    }

    /// The bytes of `page` in this format. `image` is the page the result was read from (`KotenOCR.open`), which
    /// the formats that show it need (`needsImage`: `pdf` — a PDF of this one page —, `viz`, `html`); the others
    /// ignore it. Throws `ResultFormatError` for a reference format of a page without a reference tree (`ppocr`,
    /// or a result decoded from JSON), for a per-run format (`tei`: `RunDocument`) and for a format that needs
    /// the image without one; `ImageError` naming the file when the image can no longer be read. `ruby`: how `txt`
    /// shows ruby lines (`PageResult.text(ruby:)`). `created`: when the page was read, PAGE XML's `Created` and
    /// `LastChange` (nil: the image file's modification time, the epoch for an image from memory).
    public func render(_ page: PageResult, image: ImageSource? = nil, ruby: RubyStyle = .drop, created: Date? = nil) throws -> Data {
        if let reference = page.reference, let data = render(reference) { return data }
        if needsImage && image == nil { throw ResultFormatError.needsImage(format: self) }
        switch self {
        case .txt: return Data((page.text(ruby: ruby) + (page.textLines.isEmpty ? "" : "\n")).utf8)
        case .json: return try ResultJSON.encode(page)
        case .xml, .ndlJSON: throw ResultFormatError.unsupported(format: self, mode: page.mode)
        case .tei: throw ResultFormatError.perRun(format: self)
        case .alto: return ALTOWriter.document(page)
        case .pageXML: return PageXMLWriter.document(page, created: created ?? Self.modificationDate(page, image))
        case .hocr: return HOCRWriter.document(page)
        case .iiif:
            guard let canvas = page.source.iiif else { throw ResultFormatError.needsCanvas(format: self) }
            return try IIIFAnnotations.document(page, canvas: canvas)
        case .pdf, .viz, .html:
            guard let image else { throw ResultFormatError.needsImage(format: self) }
            switch self {
            case .pdf: return try SearchablePDF.document([SearchablePDF.page(page, image: image)])
            case .viz: return try PageViz.picture(page, image: image)
            default: return try PageHTML.document(page, image: image)
            }
        }
    }

    /// When the page's file last changed: the image's file, or without the image the file at the result's
    /// `source.path` (nil for an image from memory, or a path that is no file).
    private static func modificationDate(_ page: PageResult, _ image: ImageSource?) -> Date? {
        guard image?.isFile ?? true else { return nil }
        let path = image?.url.path ?? page.source.path
        return (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }

    /// The bytes of a page's reference tree in this format, as NDL's code writes them (`txt`: the strings
    /// joined with "\n", no final newline; `xml`; `ndl-json`: the reference's own JSON); nil for a format not
    /// written from the tree (`json`, `tei`).
    package func render(_ reference: ReferencePage) -> Data? {
        switch self {
        case .txt: return Data(reference.text.utf8)
        case .xml: return Data(reference.xml.utf8)
        case .ndlJSON: return Data(reference.json.utf8)
        case .json, .tei, .pdf, .alto, .pageXML, .hocr, .viz, .html, .iiif: return nil
        }
    }
}

/// A page cannot be rendered in a format.
public enum ResultFormatError: Error, Equatable, CustomStringConvertible {
    /// The format needs the reference page tree of the `ndl` or `koten` mode (`tei`: koten).
    case unsupported(format: ResultFormat, mode: OCRMode)
    /// The format has one file per run, not per page.
    case perRun(format: ResultFormat)
    /// The format shows the page image, and none was given (`render(_:image:)`).
    case needsImage(format: ResultFormat)
    /// The format annotates a IIIF canvas, and the page is none (`PageResult.SourceInfo.iiif`: a canvas of a
    /// manifest, or a local image read by a batch with `--format iiif`).
    case needsCanvas(format: ResultFormat)

    public var description: String {
        switch self {
        case .unsupported(let f, let mode):
            return "format \(f.rawValue) is not available for pages read in mode \(mode) (it needs \(f == .tei ? "koten" : "ndl or koten"))"
        case .perRun(let f): return "format \(f.rawValue) is written once per run, not per page"
        case .needsImage(let f): return "format \(f.rawValue) shows the page image: render it with the page's ImageSource"
        case .needsCanvas(let f): return "format \(f.rawValue) annotates a IIIF canvas: read the page from a manifest or in a batch"
        }
    }
}
