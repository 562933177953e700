import Foundation

/// One page of one input, and where its results go. With `ResultFormat.fileName(stem:)` the one authority for
/// output names: the stem here (`outputStem`), the ending per format there (docs/architecture.md, "Output
/// names").
public struct PageTask: Sendable, Equatable {
    package let input: BatchInput
    /// 0-based page within the input.
    public let page: Int
    /// Pages in the input.
    public let pageCount: Int
    /// Whether the input is a JPEG (its `viz` is then a JPEG too: `ResultFormat.fileName(stem:jpegSource:)`).
    public let jpegSource: Bool
    /// Resuming a page some of whose formats failed (issue 25): the formats still to write (nil: all the batch's),
    /// and the files of the others, intact as the manifest records them, which the page's `done` line lists again.
    package var missingFormats: [ResultFormat]? = nil
    package var keptOutputs: [BatchManifest.Record.Output] = []

    package init(input: BatchInput, page: Int, pageCount: Int, jpegSource: Bool = false) {
        self.input = input
        self.page = page
        self.pageCount = pageCount
        self.jpegSource = jpegSource
    }

    /// Results path without extension, relative to the output directory: the input's relative path without
    /// its last extension (so `a.v1.jpg` gives `a.v1`), with `_p0001` (1-based, 4 digits or more) when the
    /// input has more than one page. A name too long for every format's file name to fit the file system's
    /// limit is shortened deterministically (`fitted`), so all of a page's files keep one stem.
    public var outputStem: String {
        guard pageCount > 1 else { return inputStem }
        let number = String(page + 1)
        return Self.joined(folder, Self.fitted(base + "_p" + String(repeating: "0", count: max(0, 4 - number.count)) + number))
    }

    /// The input's results path without extension, relative to the output directory: its relative path without
    /// its last extension (`vol1/book.tif` gives `vol1/book`), shortened as `outputStem` is; the stem of a
    /// per-input format (`pdf`).
    public var inputStem: String { Self.joined(folder, Self.fitted(base)) }

    private var base: String { Self.stem(ofImageName: (input.relativePath as NSString).lastPathComponent) }
    private var folder: String { (input.relativePath as NSString).deletingLastPathComponent }
    private static func joined(_ folder: String, _ stem: String) -> String { folder.isEmpty ? stem : folder + "/" + stem }

    /// The longest a file name may be, in bytes (NAME_MAX on Linux and macOS file systems).
    static let nameLimit = 255

    /// The longest ending a format adds to a stem (`.ndl.json`), or a hidden page file adds (`.` + `.pdf-page`).
    static let longestEnding = max(ResultFormat.allCases.map { $0.fileName(stem: "").utf8.count }.max() ?? 0,
                                   ResultFormat.pdfPageFileName(pageStem: "").utf8.count)

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

    /// The result file of `format`, relative to the output directory (`ResultFormat.fileName(stem:jpegSource:)`):
    /// the page's file of a per-page format; the input's file of a per-input format (`book.pdf`); for a per-run
    /// format (`tei`) the run's file when this is the run's first page.
    public func outputFile(_ format: ResultFormat) -> String {
        format.fileName(stem: format.isPerInput ? inputStem : outputStem, jpegSource: jpegSource)
    }

    /// The file this page itself writes for `format`, relative to the output directory: `outputFile(format)`,
    /// except for a per-input format of a multi-page input, whose page waits in a hidden page file
    /// (`ResultFormat.pdfPageFileName`) until its input's document is written (`InputDocument`).
    public func pageFile(_ format: ResultFormat) -> String {
        waitsForInput(format) ? ResultFormat.pdfPageFileName(pageStem: outputStem) : outputFile(format)
    }

    /// Whether this page's `format` result waits for its input's other pages (a per-input format of a multi-page
    /// input).
    public func waitsForInput(_ format: ResultFormat) -> Bool { format.isPerInput && pageCount > 1 }

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
