import Foundation

/// An output format `--format` names.
public enum ResultFormat: String, Sendable, CaseIterable {
    /// Plain text, lines in reading order (`<stem>.txt`).
    case txt
    /// The engine's JSON result (`<stem>.json`, docs/json-schema.md).
    case json

    public var fileExtension: String { rawValue }

    /// The bytes of `page` in this format.
    public func render(_ page: PageResult) throws -> Data {
        switch self {
        case .txt: return Data((page.text + (page.lines.isEmpty ? "" : "\n")).utf8)
        case .json: return try ResultJSON.encode(page)
        }
    }
}

/// JSON encoding of results: pretty-printed, keys sorted, slashes unescaped, UTF-8.
public enum ResultJSON {
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(value)
        data.append(0x0A)
        return data
    }
}
