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
package enum BatchManifest {
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

    /// A page key (`PageTask.key`) compared by its bytes: the NFC and NFD spellings of one name are two pages
    /// (a `String` key would make them one).
    public struct Key: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        public let text: String
        private let bytes: [UInt8]
        public init(_ text: String) {
            self.text = text
            bytes = Array(text.utf8)
        }
        public init(stringLiteral value: String) { self.init(value) }
        public static func == (a: Key, b: Key) -> Bool { a.bytes == b.bytes }
        public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }
        public var description: String { text }
    }

    /// The last record of every page in all manifests in `directory` (later lines win; unreadable lines
    /// are skipped). An absent directory or manifest gives none; a manifest that is a symbolic link is not read.
    public static func load(from directory: URL) -> [Key: Record] {
        var records: [Key: Record] = [:]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names.sorted() where name.hasPrefix(filePrefix) && name.hasSuffix(".jsonl") {
            guard let data = readNoFollow(directory.appendingPathComponent(name)) else { continue }
            for (key, record) in Self.records(in: data) { records[key] = record }
        }
        return records
    }

    /// The records of one manifest's bytes, in order (unreadable lines skipped: a line cut off by a kill, or
    /// anything that is not a record).
    package static func records(in data: Data) -> [(Key, Record)] {
        let decoder = JSONDecoder()
        return data.split(separator: 0x0A).compactMap { line in
            (try? decoder.decode(Record.self, from: Data(line))).map { (Key($0.key), $0) }
        }
    }

    /// The bytes of the regular file at `url`, nil if it is missing, a link or anything else.
    private static func readNoFollow(_ url: URL) -> Data? {
        let fd = open(url.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        guard case .regular = FileKind.of(descriptor: fd) else { return nil }
        return try? handle.readToEnd() ?? Data()
    }

    /// Appends records to one manifest file, each line followed by fsync; one append at a time (the pages in
    /// flight append from their own tasks).
    public final class Writer: @unchecked Sendable {
        private let descriptor: Int32
        public let url: URL
        private let lock = NSLock()
        private let encoder: JSONEncoder = {
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return e
        }()

        /// Opens (creates) `url` for appending; a last line cut off by a kill is ended first. A symbolic link
        /// at `url` is refused, never written through. Throws `CocoaError` naming the path.
        public init(url: URL) throws {
            self.url = url
            let fd = open(url.path, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                let code = errno
                var info = stat()
                if lstat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
                    throw Self.error(url, "is a symbolic link; the manifest is never written through one")
                }
                throw Self.error(url, code)
            }
            descriptor = fd
            guard case .regular(let size) = FileKind.of(descriptor: fd) else {
                throw Self.error(url, "is not a regular file")
            }
            var last: UInt8 = 0x0A
            if size > 0, pread(fd, &last, 1, off_t(size - 1)) == 1, last != 0x0A { try write(Data([0x0A])) }
        }

        deinit { close(descriptor) }

        /// Appends `record` as one line and waits until it is on disk (fsync). Throws `CocoaError` naming the path.
        public func append(_ record: Record) throws {
            try lock.withLock {
                var line = try encoder.encode(record)
                line.append(0x0A)
                try write(line)
                guard fsync(descriptor) == 0 else { throw Self.error(url, errno) }
            }
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

        private static func error(_ url: URL, _ code: Int32) -> CocoaError { error(url, FileKind.reason(code)) }

        private static func error(_ url: URL, _ reason: String) -> CocoaError {
            CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path, NSLocalizedDescriptionKey: reason])
        }
    }
}
