import Foundation

/// One option's value: its name, its parser and the one sentence that says what it takes (docs/architecture.md,
/// "The option vocabulary"). The same spec reads `--reading-order page` on the command line, `koten-ocr serve`'s
/// options and `?reading-order=page` in the HTTP API, and gives the OpenAPI document its fixed values.
package struct OptionSpec<Value: Sendable>: Sendable {
    /// The name without dashes: the API's parameter, the command line's `--name`.
    package let name: String
    /// What it takes, said after its name: `must be page or ndl`.
    package let takes: String
    /// Its fixed values when it has a list of them (OpenAPI's `enum`), nil for numbers and sizes.
    package let values: [String]?
    private let parser: @Sendable (String) -> Value?

    package init(_ name: String, takes: String, values: [String]? = nil, parse: @escaping @Sendable (String) -> Value?) {
        self.name = name
        self.takes = takes
        self.values = values
        parser = parse
    }

    /// `text` as this option's value. Throws the one-line message `<flag> <takes>, not '<text>'`, where `flag` is
    /// how the option was given (`--mode` on a command line; the bare name in the API, the default).
    package func parse(_ text: String, flag: String? = nil) throws(OptionError) -> Value {
        guard let value = parser(text) else {
            throw OptionError(description: "\(flag ?? name) \(takes), not '\(text.prefix(40))'")
        }
        return value
    }
}

/// A refused option: one line saying which and why.
package struct OptionError: Error, CustomStringConvertible, Equatable {
    package let description: String
    package init(description: String) { self.description = description }
}

/// Every option value the command line, `koten-ocr serve` and the HTTP API share, each parsed and explained once.
package enum OptionVocabulary {
    package static let mode = OptionSpec<OCRMode>(
        "mode", takes: "must be one of \(OCRMode.allCases.map(\.rawValue).joined(separator: ", "))",
        values: OCRMode.allCases.map(\.rawValue)) { OCRMode(rawValue: $0) }

    package static let readingOrder = OptionSpec<OCRConfiguration.ReadingOrderStyle>(
        "reading-order", takes: "must be page or ndl",
        values: OCRConfiguration.ReadingOrderStyle.allCases.map(\.rawValue)) { OCRConfiguration.ReadingOrderStyle(rawValue: $0) }

    /// `auto` is nil: the engine tells from each page.
    package static let pageRotation = OptionSpec<PageRotation?>(
        "page-rotation", takes: "must be auto, 0, 90, 180 or 270", values: ["auto", "0", "90", "180", "270"]) { text in
        if text == "auto" { return .some(nil) }
        return Int(text).flatMap(PageRotation.init(degrees:)).map { .some($0) }
    }

    package static let ruby = OptionSpec<ResultFormat.RubyStyle>(
        "ruby", takes: "must be drop, separate or inline",
        values: ResultFormat.RubyStyle.allCases.map(\.rawValue)) { ResultFormat.RubyStyle(rawValue: $0) }

    package static let minLineConfidence = OptionSpec<Float>("min-line-confidence", takes: "needs a number from 0 to 1") { text in
        Float(text).flatMap { (0...1).contains($0) ? $0 : nil }
    }

    /// One of `formats` (case ignored).
    package static func format(among formats: [ResultFormat], name: String = "format") -> OptionSpec<ResultFormat> {
        OptionSpec(name, takes: "must be one of \(formats.map(\.rawValue).joined(separator: ", "))", values: formats.map(\.rawValue)) { text in
            ResultFormat(rawValue: text.lowercased()).flatMap { formats.contains($0) ? $0 : nil }
        }
    }

    /// A size in bytes as a person types it (`MemoryBudget.parse`: 64MB, 1.5GB, 512MiB, bytes).
    package static func size(_ name: String) -> OptionSpec<Int> {
        OptionSpec(name, takes: "takes a size such as 200MB or 1.5GB") { MemoryBudget.parse($0) }
    }

    /// A whole number from `min` (to `max`, when given).
    package static func wholeNumber(_ name: String, min: Int = 1, max: Int? = nil) -> OptionSpec<Int> {
        let takes = max.map { "needs a whole number from \(min) to \($0)" } ?? "needs a whole number ≥ \(min)"
        return OptionSpec(name, takes: takes) { text in
            Int(text).flatMap { $0 >= min && $0 <= (max ?? Int.max) ? $0 : nil }
        }
    }
}

/// A command line's arguments read one at a time, as every `koten-ocr` command reads them: `--name value`,
/// `--name=value`, flags, and other arguments as they are.
package struct ArgumentReader {
    private let arguments: [String]
    private var index = -1
    private var inline: String?
    /// The argument just read, as given.
    package private(set) var raw = ""
    /// The option just read, without an `=value` (`--mode` of `--mode=ndl`).
    package private(set) var flag = ""

    package init(_ arguments: [String]) { self.arguments = arguments }

    /// The next argument (`flag` and `raw` are set), nil after the last.
    package mutating func next() -> String? {
        index += 1
        guard index < arguments.count else { return nil }
        raw = arguments[index]
        inline = nil
        flag = raw
        if raw.hasPrefix("--"), let eq = raw.firstIndex(of: "=") {
            inline = String(raw[raw.index(after: eq)...])
            flag = String(raw[..<eq])
        }
        return flag
    }

    /// The current option's value: after its `=`, or the next argument. Throws "<flag> needs a value".
    package mutating func value() throws(OptionError) -> String {
        if let inline { return inline }
        index += 1
        guard index < arguments.count else { throw OptionError(description: "\(flag) needs a value") }
        return arguments[index]
    }

    /// The current option's value read by `spec`.
    package mutating func value<Value>(_ spec: OptionSpec<Value>) throws(OptionError) -> Value {
        try spec.parse(try value(), flag: flag)
    }
}
