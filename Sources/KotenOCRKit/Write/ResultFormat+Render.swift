import Foundation

/// The bytes of each format: the write stage's one switch over `ResultFormat` (docs/architecture.md, "Adding an
/// output format").
extension ResultFormat {
    /// The bytes of `page` for a stream of pages on standard output: `json` as one compact line (JSON Lines, one
    /// object per page); other formats as `render`. Throws as `render`.
    public func renderForStream(_ page: PageResult) throws -> Data {
        guard self == .json else { return try render(page) }
        return try ResultJSON.encodeLine(page)
    }

    /// The bytes of `page` in this format. Throws `ResultFormatError` for a reference format of a page
    /// without a reference tree (`ppocr`, or a result decoded from JSON) and for a per-run format (`tei`:
    /// `RunDocument`).
    public func render(_ page: PageResult) throws -> Data {
        if let reference = page.reference, let data = render(reference) { return data }
        switch self {
        case .txt: return Data((page.text + (page.lines.isEmpty ? "" : "\n")).utf8)
        case .json: return try ResultJSON.encode(page)
        case .xml, .ndlJSON: throw ResultFormatError.unsupported(format: self, mode: page.mode)
        case .tei: throw ResultFormatError.perRun(format: self)
        }
    }

    /// The bytes of a page's reference tree in this format, as NDL's code writes them (`txt`: the strings
    /// joined with "\n", no final newline; `xml`; `ndl-json`: the reference's own JSON); nil for a format not
    /// written from the tree (`json`, `tei`).
    package func render(_ reference: ReferencePage) -> Data? {
        switch self {
        case .txt: return Data(reference.text.utf8)
        case .xml: return Data(reference.xml.utf8)
        case .ndlJSON: return Data(reference.json.utf8)
        case .json, .tei: return nil
        }
    }
}

/// A page cannot be rendered in a format.
public enum ResultFormatError: Error, Equatable, CustomStringConvertible {
    /// The format needs the reference page tree of the `ndl` or `koten` mode (`tei`: koten).
    case unsupported(format: ResultFormat, mode: OCRMode)
    /// The format has one file per run, not per page.
    case perRun(format: ResultFormat)

    public var description: String {
        switch self {
        case .unsupported(let f, let mode):
            return "format \(f.rawValue) is not available for pages read in mode \(mode) (it needs \(f == .tei ? "koten" : "ndl or koten"))"
        case .perRun(let f): return "format \(f.rawValue) is written once per run, not per page"
        }
    }
}
