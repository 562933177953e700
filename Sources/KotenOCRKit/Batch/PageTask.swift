import Foundation

/// One page of one input, and where its results go. With `ResultFormat.fileName(stem:)` the one authority for
/// output names: the stem here (`outputStem`), the ending per format there (docs/architecture.md, "Output
/// names").
public struct PageTask: Sendable, Equatable {
    public let input: BatchInput
    /// 0-based page within the input.
    public let page: Int
    /// Pages in the input.
    public let pageCount: Int

    public init(input: BatchInput, page: Int, pageCount: Int) {
        self.input = input
        self.page = page
        self.pageCount = pageCount
    }

    /// Results path without extension, relative to the output directory: the input's relative path without
    /// its last extension (so `a.v1.jpg` gives `a.v1`), with `_p0001` (1-based, 4 digits or more) when the
    /// input has more than one page. A name too long for every format's file name to fit the file system's
    /// limit is shortened deterministically (`fitted`), so all of a page's files keep one stem.
    public var outputStem: String {
        let relative = input.relativePath
        let base = Self.stem(ofImageName: (relative as NSString).lastPathComponent)
        let folder = (relative as NSString).deletingLastPathComponent
        let number = String(page + 1)
        let stem = Self.fitted(pageCount > 1 ? base + "_p" + String(repeating: "0", count: max(0, 4 - number.count)) + number : base)
        return folder.isEmpty ? stem : folder + "/" + stem
    }

    /// The longest a file name may be, in bytes (NAME_MAX on Linux and macOS file systems).
    static let nameLimit = 255

    /// The longest ending a format adds to a stem (`.ndl.json`).
    static let longestEnding = ResultFormat.allCases.map { $0.fileName(stem: "").utf8.count }.max() ?? 0

    /// `stem` when every format's file name made from it fits `nameLimit`; otherwise its first characters and
    /// `~` and the first 8 hex digits of the SHA-256 of the whole stem (`<head>~1a2b3c4d`), as long as fits.
    /// The same stem always gives the same name, so `--resume` finds it; the manifest records the files.
    package static func fitted(_ stem: String) -> String {
        guard stem.utf8.count + longestEnding > nameLimit else { return stem }
        let hash = SHA256.hex(Data(stem.utf8)).prefix(8)
        let room = nameLimit - longestEnding - 1 - hash.count
        var head = ""
        for character in stem {
            if head.utf8.count + String(character).utf8.count > room { break }
            head.append(character)
        }
        return head + "~" + hash
    }

    /// The result file of `format`, relative to the output directory (`ResultFormat.fileName(stem:)`): the page's
    /// file of a per-page format; for a per-run format (`tei`) the run's file when this is the run's first page.
    public func outputFile(_ format: ResultFormat) -> String { format.fileName(stem: outputStem) }

    /// The output stem of an image file name: the name without its last extension (`a.b.jpg` → `a.b`). NDL does
    /// the same; the koten reference cuts at the first dot (`a`), which this package deliberately does not do.
    static func stem(ofImageName name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// `relativePath#page` (1-based): the page's identity in the manifest and for the shard partition.
    public var key: String { "\(input.relativePath)#\(page + 1)" }

    /// How errors name the page: the path, with the page number for multi-page inputs.
    public var displayName: String { pageCount > 1 ? "\(input.path) page \(page + 1)" : input.path }
}
