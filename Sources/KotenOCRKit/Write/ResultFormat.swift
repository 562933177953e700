import Foundation

/// An output format `--format` names.
///
/// Per page: `txt`, `json` (the engine's result), and for the `ndl` and `koten` modes `xml` (NDL XML) and
/// `ndl-json` (the reference's JSON), written byte for byte as NDL's code writes them. Per run: `tei`
/// (koten only), one document for all pages (`TEIRun`).
public enum ResultFormat: String, Sendable, CaseIterable {
    /// Plain text, lines in reading order (`<stem>.txt`). For `ndl`/`koten` pages exactly the reference's
    /// TXT (strings joined with "\n", no final newline); otherwise with a final newline, ruby as `RubyStyle` says
    /// (default: left out).
    case txt
    /// The engine's JSON result (`<stem>.json`, docs/json-schema.md).
    case json
    /// NDL XML (`<stem>.xml`): `<OCRDATASET>` around the ordered PAGE with STRING on every LINE.
    case xml
    /// The reference's own JSON (`<stem>.ndl.json`: `contents`/`imginfo`, `isVertical` always "true").
    case ndlJSON = "ndl-json"
    /// NDL Koten OCR-Lite's TEI for a whole run (`<first-stem>_tei.xml`, a `surface` per page).
    case tei

    /// The end of the file name after the stem: `txt`, `json`, `xml`, `ndl.json`; `tei.xml` for `tei`,
    /// whose file is named `<first-stem>_tei.xml` (see `TEIRun`).
    public var fileExtension: String {
        switch self {
        case .ndlJSON: return "ndl.json"
        case .tei: return "tei.xml"
        default: return rawValue
        }
    }

    /// Whether the format has one file per page (`tei` has one per run).
    public var isPerPage: Bool { self != .tei }

    /// Whether pages of `mode` can be written in this format (`ModeDescriptor.formats`: `xml`, `ndl-json` for
    /// ndl and koten; `tei` for koten).
    public func supports(_ mode: OCRMode) -> Bool { mode.descriptor.formats.contains(self) }

    /// The bytes of `page` for a stream of pages on standard output: `json` as one compact line (JSON Lines, one
    /// object per page); other formats as `render`. Throws as `render`.
    public func renderForStream(_ page: PageResult, ruby: RubyStyle = .drop) throws -> Data {
        guard self == .json else { return try render(page, ruby: ruby) }
        return try ResultJSON.encodeLine(page)
    }

    /// The bytes of `page` in this format. Throws `ResultFormatError` for a reference format of a page
    /// without a reference tree (`ppocr`, or a result decoded from JSON) and for `tei` (see `TEIRun`). `ruby`: how
    /// `txt` shows ruby lines (`PageResult.text(ruby:)`).
    public func render(_ page: PageResult, ruby: RubyStyle = .drop) throws -> Data {
        switch self {
        case .txt:
            if let reference = page.reference { return Data(reference.text.utf8) }
            return Data((page.text(ruby: ruby) + (page.lines.isEmpty ? "" : "\n")).utf8)
        case .json: return try ResultJSON.encode(page)
        case .xml, .ndlJSON:
            guard let reference = page.reference else { throw ResultFormatError.unsupported(format: self, mode: page.mode) }
            return Data((self == .xml ? reference.xml : reference.json).utf8)
        case .tei: throw ResultFormatError.perRun(format: self)
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

/// JSON encoding of results: pretty-printed, keys sorted, slashes unescaped, UTF-8, dates as ISO 8601 UTC
/// with milliseconds ("2026-11-29T18:46:00.123Z").
public enum ResultJSON {
    /// Pretty-printed, keys sorted, with a final newline.
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        try encode(value, pretty: true)
    }

    /// One line (JSON Lines): compact, keys sorted, with a final newline.
    public static func encodeLine<T: Encodable>(_ value: T) throws -> Data {
        try encode(value, pretty: false)
    }

    private static func encode<T: Encodable>(_ value: T, pretty: Bool) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(dateFormatter().string(from: date))
        }
        var data = try encoder.encode(value)
        data.append(0x0A)
        return data
    }

    /// Decodes what `encode` wrote. Throws `DecodingError`.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = dateFormatter().date(from: text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 date: \(text)")
            }
            return date
        }
        return try decoder.decode(type, from: data)
    }

    private static func dateFormatter() -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
