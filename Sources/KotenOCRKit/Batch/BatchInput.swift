import Foundation

/// One input file of a batch.
package struct BatchInput: Sendable, Hashable {
    /// The file.
    public let url: URL
    /// Its path as the user gave it (an argument or a list line; for a file found in a directory, the
    /// directory as given joined with the path below it). Errors and the manifest name it so.
    public let path: String
    /// Where its results go below the output directory, with the input's file name: its path below the
    /// directory given (`vol1/0001.jpg`) for a file found in a directory, its file name for a file given
    /// directly. Also the input's part of the shard key, so the partition does not depend on where the
    /// corpus is mounted or in which order it is listed.
    public let relativePath: String
    /// The file as the file system holds it: the bytes that are opened (`path` is their `display`: a name that is
    /// not UTF-8 shows its other bytes as `\xNN`). Two inputs are the same only if these bytes are.
    package let file: FileSystemPath
    /// A page fetched before it is read (a IIIF canvas: `RemotePage`): `file` is where its image is put, `path`
    /// names the canvas. Nil for a file on disk.
    package var remote: RemotePage? = nil
    /// How the results name the input's source (`PageResult.SourceInfo.path`, ALTO `fileName`, PAGE `imageFilename`,
    /// the html title), kept apart from the file that is read: an upload's name as its client gave it. Nil: `path`
    /// (a remote page: the address its fetcher returns).
    package var sourceName: String? = nil

    public init(path: String, relativePath: String) {
        self.init(file: FileSystemPath(path), relativePath: relativePath)
    }

    /// An input at `file`; `relativePath` as `init(path:relativePath:)` takes it (escaped text for a name that is
    /// not UTF-8).
    package init(file: FileSystemPath, relativePath: String) {
        self.file = file
        self.path = file.display
        self.url = URL(fileURLWithPath: path)
        self.relativePath = relativePath
    }

    /// A canvas's page: its image fetched into `file` by `remote` before it is read; `name` is how errors and the
    /// manifest name it (the manifest and the canvas), `relativePath` its results' path (`PageTask.outputStem`).
    package init(remote: RemotePage, file: FileSystemPath, name: String, relativePath: String) {
        self.file = file
        self.path = name
        self.url = URL(fileURLWithPath: file.display)
        self.relativePath = relativePath
        self.remote = remote
    }

    public static func == (a: BatchInput, b: BatchInput) -> Bool {
        a.file == b.file && Array(a.relativePath.utf8) == Array(b.relativePath.utf8)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(file)
        hasher.combine(Array(relativePath.utf8))
    }
}

extension BatchEvent {
    /// An input or page that could not be read: one line naming the file and the reason.
    public struct Failure: Sendable, Equatable, CustomStringConvertible {
        /// The path as given.
        public let path: String
        public let reason: String
        /// `relativePath#page` of the page it concerns (page 1 for a whole input), for the shard partition.
        public let shardKey: String

        public init(path: String, reason: String, shardKey: String) {
            self.path = path
            self.reason = reason
            self.shardKey = shardKey
        }

        public var description: String { "\(path): \(reason)" }
    }
}
