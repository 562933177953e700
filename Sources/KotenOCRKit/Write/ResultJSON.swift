import Foundation

/// JSON encoding of results: pretty-printed, keys sorted, slashes unescaped, UTF-8, dates as ISO 8601 UTC
/// with milliseconds ("2026-11-29T18:46:00.123Z").
package enum ResultJSON {
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
