import Foundation

/// A PARSeq recogniser's charset: token k (k ≥ 1) is entry k − 1; token 0 is end of sequence.
///
/// Read from `model.charset_train` of NDL's `NDLmoji.yaml` (NDLOCR-Lite: 7141 code points; NDL Koten
/// OCR-Lite: the same with its four astral characters replaced by '〓'), one entry per Unicode scalar —
/// never per `Character` or UTF-16 unit, which would merge U+FE0E with its neighbour or split astral
/// characters (docs/reference-pipelines.md §1.5 "Charset", §2.2, §3).
package struct PARSeqCharset: Sendable, Equatable {
    public let entries: [Unicode.Scalar]

    public init(entries: [Unicode.Scalar]) { self.entries = entries }

    /// Reads `url` (an NDLmoji.yaml). Throws `ModelError.invalidFile` naming the file: unreadable, not the
    /// YAML subset NDL writes, no `model.charset_train`, or an empty charset.
    public init(contentsOf url: URL) throws {
        let values = try NDLConfigFile.read(url)
        guard let charset = values["model.charset_train"] else {
            throw ModelError.invalidFile(path: url.path, reason: "no model.charset_train (NDLmoji.yaml's charset)")
        }
        guard !charset.isEmpty else { throw ModelError.invalidFile(path: url.path, reason: "model.charset_train is empty") }
        entries = Array(charset.unicodeScalars)
    }

    /// Output classes a recogniser over this charset has: the entries plus end of sequence.
    public var outputClasses: Int { entries.count + 1 }
}

/// NDL's YAML configuration files, read with `YAMLSubset`.
enum NDLConfigFile {
    /// Every scalar of `url` by dotted key path. Throws `ModelError.invalidFile` with the line and reason.
    static func read(_ url: URL) throws -> [String: String] {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            let exists = FileManager.default.fileExists(atPath: url.path)
            throw ModelError.invalidFile(path: url.path, reason: exists ? "not readable as UTF-8 text" : "not found")
        }
        do {
            return try YAMLSubset.scalars(text)
        } catch let e as YAMLSubset.ParseError {
            throw ModelError.invalidFile(path: url.path, reason: "not a YAML file this tool reads (\(e))")
        }
    }
}
