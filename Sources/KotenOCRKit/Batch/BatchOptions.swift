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
    public var pages: PageSelection?
    /// Only this shard's pages (nil: all).
    public var shard: Shard?
    /// Skip pages the manifest records as done whose results are intact (SHA-256 checked).
    public var resume: Bool
    /// Replace result files that already exist.
    public var overwrite: Bool
    /// How text results show ruby lines (default: left out).
    public var ruby: RubyStyle = .drop

    public init(outputDirectory: URL? = nil, formats: [ResultFormat], recursive: Bool = false, pages: PageSelection? = nil,
                shard: Shard? = nil, resume: Bool = false, overwrite: Bool = false) {
        self.outputDirectory = outputDirectory
        self.formats = formats
        self.recursive = recursive
        self.pages = pages
        self.shard = shard
        self.resume = resume
        self.overwrite = overwrite
    }

    /// The formats with one file per page.
    public var pageFormats: [ResultFormat] { formats.filter(\.isPerPage) }
}

/// Why a batch cannot start (nothing has been read or written): a usage problem, exit status 2.
public enum BatchSetupError: Error, Equatable, CustomStringConvertible {
    /// Two inputs would write the same result file.
    case sameOutput(first: String, second: String, output: String)
    /// A result file exists that the batch may not replace (`more`: how many others are in the same case).
    case outputExists(path: String, reason: String, hint: String, more: Int)
    /// The output directory cannot be created or used.
    case outputDirectory(path: String, reason: String)

    public var description: String {
        switch self {
        case .sameOutput(let first, let second, let output):
            return "\(first) and \(second) would both write the results \(output) (rename one of them)"
        case .outputExists(let path, let reason, let hint, let more):
            return "\(path): \(reason)" + (more > 0 ? ", and so \(more == 1 ? "does 1 more result file" : "do \(more) more result files")" : "")
                + " (\(hint))"
        case .outputDirectory(let path, let reason): return "\(path): \(reason)"
        }
    }
}
