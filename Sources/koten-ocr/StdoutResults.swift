import Foundation
import KotenOCRKit

/// Results written to standard output: text pages separated by a form feed (as Tesseract does), JSON one
/// line per page (JSON Lines).
struct StdoutResults {
    private var first = true

    mutating func write(_ format: ResultFormat, _ data: Data) {
        if !first && format != .json { FileHandle.standardOutput.write(Data("\u{0C}".utf8)) }
        first = false
        FileHandle.standardOutput.write(data)
    }
}
