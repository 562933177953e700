import Foundation

/// What a batch reads and where its results go.
public struct BatchOptions: Sendable {
    /// Results folder; nil sends results to the caller only (e.g. standard output), with no manifest.
    public var outputDirectory: URL?
    /// Result formats, in the order they are written (`tei`: one document for the run, see `BatchPlan.runDocument`).
    public var formats: [ResultFormat]
    /// Directories are searched in their subfolders too.
    public var recursive: Bool
    /// Pages to read of each multi-page input (nil: all).
    package var pages: PageSelection? = nil
    /// Only this shard's pages (nil: all).
    package var shard: Shard? = nil
    /// Checks each PDF input before this process opens it (`PDFGuard`; the command line's opens it in a child
    /// process under a memory and a time limit). A refused PDF is a failed input. Nil: PDFs are opened unchecked.
    package var pdfGuard: (any PDFGuard)? = nil
    /// Every page's searchable-PDF page file (`SearchablePDF.pageFile`, named `ResultFormat.pdfPageFileName`) is
    /// kept beside the input's PDF, also for a one-page input, so that pages of several inputs can be joined into
    /// one PDF (`koten-ocr serve`'s job result, docs/serve.md). Default false: page files are removed once joined.
    package var keepsPDFPageFiles = false
    /// Skip pages the manifest records as done whose results are intact (SHA-256 checked).
    public var resume: Bool
    /// Replace result files that already exist.
    public var overwrite: Bool
    /// How text results show ruby lines (default: left out).
    public var ruby: ResultFormat.RubyStyle = .drop
    /// Plan inputs whose decoder reports damaged data (their page counts are read leniently); set it as the
    /// engine's `OCRConfiguration.acceptDamagedImages`, which reads their pages.
    public var acceptDamagedImages = false
    /// Where the output folder is served (ends in `/`): the base of the ids of `--format iiif`'s annotation pages,
    /// of the canvases made for local images and of the run's manifest (docs/iiif.md). Nil: no canvas is made for
    /// a local image.
    package var iiifBase: URL? = nil
    /// When PAGE XML says each page's results were made (`Created`, `LastChange`). Default: the image file's
    /// modification time (`koten-ocr serve` stores an upload with the epoch, until its jobs keep their own time);
    /// the command line's is the time each page is read (`SOURCE_DATE_EPOCH` fixes it).
    package var readingTime: ReadingTime = .imageModified

    public init(outputDirectory: URL? = nil, formats: [ResultFormat], recursive: Bool = false, resume: Bool = false, overwrite: Bool = false) {
        self.outputDirectory = outputDirectory
        self.formats = formats
        self.recursive = recursive
        self.resume = resume
        self.overwrite = overwrite
    }

    /// The formats with one file per page.
    public var pageFormats: [ResultFormat] { formats.filter(\.isPerPage) }

    /// The format of the run's document (`tei`), if one is asked for: the first per-run format.
    var runFormat: ResultFormat? { formats.first { !$0.isPerPage } }
}

/// When PAGE XML's `Created` and `LastChange` say a page's results were made (docs/formats.md, "PAGE").
package enum ReadingTime: Sendable, Equatable {
    /// The image file's modification time (the epoch for an image from memory): the same file gives the same bytes.
    case imageModified
    /// The moment each page is read.
    case eachPage
    /// One time for every page: a job's own time, so that a job read again after a restart writes the same bytes;
    /// or `SOURCE_DATE_EPOCH`'s (reproducible builds' convention).
    case fixed(Date)

    /// The time to write for a page read at `now`; nil for `imageModified` (the renderer reads the file's).
    package func created(now: Date) -> Date? {
        switch self {
        case .imageModified: return nil
        case .eachPage: return now
        case .fixed(let date): return date
        }
    }
}

/// Why a batch cannot start (nothing has been read or written): a usage problem, exit status 2.
public enum BatchSetupError: Error, Equatable, CustomStringConvertible {
    /// Two inputs would write the same result file.
    case sameOutput(first: String, second: String, output: String)
    /// A result file exists that the batch may not replace (`more`: how many others are in the same case).
    case outputExists(path: String, reason: String, hint: String, more: Int)
    /// The output directory cannot be created or used.
    case outputDirectory(path: String, reason: String)
    /// Another process is writing to the output directory (or to this shard of it): `holders` are its process ids.
    case outputInUse(path: String, holders: [Int32])

    public var description: String {
        switch self {
        case .sameOutput(let first, let second, let output):
            return "\(first) and \(second) would both write the results \(output) (rename one of them)"
        case .outputExists(let path, let reason, let hint, let more):
            return "\(path): \(reason)" + (more > 0 ? ", and so \(more == 1 ? "does 1 more result file" : "do \(more) more result files")" : "")
                + " (\(hint))"
        case .outputDirectory(let path, let reason): return "\(path): \(reason)"
        case .outputInUse(let path, let holders):
            let who = holders.isEmpty ? "another process" : "another process (pid \(holders.map(String.init).joined(separator: ", ")))"
            return "\(path): output folder in use: \(who) is writing a batch to it (wait for it to end, or write to another folder)"
        }
    }
}
