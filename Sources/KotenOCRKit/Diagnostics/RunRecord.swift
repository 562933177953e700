import Foundation

/// A run marker or crash record as CCrashRecord writes it: lines of "key value", fixed-width fields.
///
/// ```
/// koten-ocr-run 1            (a crash record starts "koten-ocr-crash 1" and has a "signal" line)
/// pid 0000012345
/// run 20261129-184600-4f3a9c
/// start 001764441960123      (milliseconds since 1970)
/// updated 001764441960456
/// stage detect
/// resident 000000123456789   (bytes)
/// watermark 000000123456789
/// end
/// ```
struct RunRecord: Equatable {
    var isCrash = false
    var complete = false
    var pid: Int?
    var runId: String?
    var start: Date?
    var updated: Date?
    var stage: String?
    var resident: Int?
    var watermark: Int?
    var signal: Int?

    /// Parses what is readable; a torn or truncated record yields the fields before the damage.
    init(text: String) {
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            guard let key = parts.first else { continue }
            let value = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
            func date() -> Date? { Int(value).map { Date(timeIntervalSince1970: Double($0) / 1000) } }
            switch key {
            case "koten-ocr-crash": isCrash = true
            case "pid": pid = Int(value)
            case "run": runId = value.isEmpty ? nil : value
            case "start": start = date()
            case "updated": updated = date()
            case "stage": stage = value.isEmpty ? nil : value
            case "resident": resident = Int(value)
            case "watermark": watermark = Int(value)
            case "signal": signal = Int(value)
            case "end": complete = true
            default: break
            }
        }
    }

    init(contentsOf url: URL) throws {
        self.init(text: String(decoding: try Data(contentsOf: url), as: UTF8.self))
    }
}
