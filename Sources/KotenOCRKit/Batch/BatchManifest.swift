import Foundation

/// The batch manifest: a JSON Lines file in the output directory recording, page by page, what a batch
/// has written, so a killed batch can be resumed and a finished page's results checked.
///
/// Each page gets a `started` line (the files it will write) before its results are written and a `done`
/// line (each file with its SHA-256) after they have all been renamed into place; every line is appended
/// and fsync'd. A `started` page without a `done` line was cut off: its files belong to the batch and are
/// redone. One file per shard (`.koten-ocr-manifest.jsonl`, `.koten-ocr-manifest.shard-2-of-4.jsonl`), so
/// shards sharing an output directory never write the same file; all of them are read on resume.
/// A line cut off by a kill is skipped when reading and closed before the next append.
public enum BatchManifest {
    public static let filePrefix = ".koten-ocr-manifest"

    /// The manifest file name of `shard` (nil: an unsharded batch).
    public static func fileName(shard: Shard?) -> String {
        guard let shard else { return filePrefix + ".jsonl" }
        return "\(filePrefix).shard-\(shard.index)-of-\(shard.count).jsonl"
    }

    /// One line.
    public struct Record: Codable, Sendable, Equatable {
        public enum State: String, Codable, Sendable { case started, done }
        public struct Output: Codable, Sendable, Equatable {
            /// Relative to the output directory.
            public var file: String
            /// Lowercase hex; nil on `started` lines.
            public var sha256: String?

            public init(file: String, sha256: String?) {
                self.file = file
                self.sha256 = sha256
            }
        }

        public init(state: State, input: String, key: String, page: Int, outputs: [Output]) {
            self.state = state
            self.input = input
            self.key = key
            self.page = page
            self.outputs = outputs
        }

        public var state: State
        /// The input path as given.
        public var input: String
        /// `relativePath#page`: the page's identity (`PageTask.key`).
        public var key: String
        /// 1-based.
        public var page: Int
        public var outputs: [Output]
    }

    /// The last record of every page in all manifests in `directory` (later lines win; unreadable lines
    /// are skipped). An absent directory or manifest gives none.
    public static func load(from directory: URL) -> [String: Record] {
        var records: [String: Record] = [:]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let decoder = JSONDecoder()
        for name in names.sorted() where name.hasPrefix(filePrefix) && name.hasSuffix(".jsonl") {
            guard let data = try? Data(contentsOf: directory.appendingPathComponent(name)) else { continue }
            for line in data.split(separator: 0x0A) {
                if let record = try? decoder.decode(Record.self, from: Data(line)) { records[record.key] = record }
            }
        }
        return records
    }

    /// Appends records to one manifest file, each line followed by fsync.
    public final class Writer {
        private let descriptor: Int32
        public let url: URL
        private let encoder: JSONEncoder = {
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return e
        }()

        /// Opens (creates) `url` for appending; a last line cut off by a kill is ended first.
        /// Throws `CocoaError` naming the path.
        public init(url: URL) throws {
            self.url = url
            let fd = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw Self.error(url, errno) }
            descriptor = fd
            if let handle = try? FileHandle(forReadingFrom: url) {
                defer { try? handle.close() }
                if let end = try? handle.seekToEnd(), end > 0 {
                    try handle.seek(toOffset: end - 1)
                    if handle.readData(ofLength: 1) != Data([0x0A]) { try write(Data([0x0A])) }
                }
            }
        }

        deinit { close(descriptor) }

        /// Appends `record` as one line and waits until it is on disk (fsync). Throws `CocoaError` naming the path.
        public func append(_ record: Record) throws {
            var line = try encoder.encode(record)
            line.append(0x0A)
            try write(line)
            guard fsync(descriptor) == 0 else { throw Self.error(url, errno) }
        }

        private func write(_ data: Data) throws {
            try data.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let n = Foundation.write(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset)
                    if n < 0 {
                        if errno == EINTR { continue }
                        throw Self.error(url, errno)
                    }
                    offset += n
                }
            }
        }

        private static func error(_ url: URL, _ code: Int32) -> CocoaError {
            CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path,
                                                     NSLocalizedDescriptionKey: String(cString: strerror(code))])
        }
    }
}
