import CLibZip
import Foundation

/// Zip files through libzip (Debian's libzip-dev), the only file that names it: uploads read with every entry
/// checked before one byte is extracted, results written (docs/serve.md, "Zip uploads").
enum ZipArchive {
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    struct Limits {
        var entries: Int
        var entryBytes: Int
        var totalBytes: Int
        /// Largest uncompressed/compressed ratio of an entry over 1 MB (a zip bomb's is in the thousands).
        var ratio = 200
    }

    /// The checked entries of the zip at `url`: (index, name) of each file (folders and hidden entries skipped).
    /// Throws `Refusal` naming the first entry that breaks a rule: an absolute name or one with `..`, more entries
    /// than `limits.entries`, an entry or a total larger than the limits, a ratio past `limits.ratio`.
    static func checkedEntries(_ url: URL, limits: Limits) throws -> [(index: UInt64, name: String, size: Int)] {
        var error: Int32 = 0
        guard let archive = zip_open(url.path, ZIP_RDONLY, &error) else { throw Refusal(description: "not a readable zip file") }
        defer { zip_discard(archive) }
        let count = zip_get_num_entries(archive, 0)
        guard count >= 0 else { throw Refusal(description: "not a readable zip file") }
        guard count <= Int64(limits.entries) else { throw Refusal(description: "the zip has \(count) entries (at most \(limits.entries))") }
        var entries: [(UInt64, String, Int)] = []
        var total = 0
        for index in 0..<UInt64(count) {
            var info = zip_stat_t()
            zip_stat_init(&info)
            guard zip_stat_index(archive, index, 0, &info) == 0, let raw = info.name else {
                throw Refusal(description: "zip entry \(index + 1) cannot be read")
            }
            let name = String(cString: raw)
            let parts = name.split(separator: "/", omittingEmptySubsequences: false)
            guard !name.hasPrefix("/"), !name.contains("\\"), !parts.contains(".."), !name.contains("\0") else {
                throw Refusal(description: "zip entry '\(name)': a name outside the archive (absolute or with ..)")
            }
            if name.hasSuffix("/") || parts.last?.hasPrefix(".") == true || parts.contains("__MACOSX") { continue }
            let size = Int(clamping: info.size), packed = Int(clamping: info.comp_size)
            guard size <= limits.entryBytes else {
                throw Refusal(description: "zip entry '\(name)' holds \(size) bytes (at most \(limits.entryBytes))")
            }
            if size > 1_000_000, size / max(1, packed) > limits.ratio {
                throw Refusal(description: "zip entry '\(name)' expands \(size / max(1, packed)) times (at most \(limits.ratio)): a zip bomb")
            }
            total += size
            guard total <= limits.totalBytes else {
                throw Refusal(description: "the zip's files hold more than \(limits.totalBytes) bytes")
            }
            entries.append((index, name, size))
        }
        return entries
    }

    /// Extracts entry `index` of the zip at `url` to `destination` (created new), at most `size` bytes (its
    /// checked size: an entry that holds more than it declared is refused).
    static func extract(_ url: URL, index: UInt64, size: Int, to destination: URL) throws {
        var error: Int32 = 0
        guard let archive = zip_open(url.path, ZIP_RDONLY, &error) else { throw Refusal(description: "not a readable zip file") }
        defer { zip_discard(archive) }
        guard let file = zip_fopen_index(archive, index, 0) else { throw Refusal(description: "zip entry \(index + 1) cannot be opened") }
        defer { zip_fclose(file) }
        guard FileManager.default.createFile(atPath: destination.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw Refusal(description: "cannot store a zip entry")
        }
        let handle = try FileHandle(forWritingTo: destination)
        defer { try? handle.close() }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var written = 0
        while true {
            let n = zip_fread(file, &buffer, UInt64(buffer.count))
            guard n >= 0 else { throw Refusal(description: "zip entry \(index + 1) is damaged") }
            if n == 0 { break }
            written += Int(n)
            guard written <= size else { throw Refusal(description: "zip entry \(index + 1) holds more than it declares") }
            try handle.write(contentsOf: Data(buffer[0..<Int(n)]))
        }
    }

    /// Writes a zip at `destination` holding `files` (name in the archive, file on disk), deflated.
    static func write(_ files: [(name: String, file: URL)], to destination: URL) throws {
        var error: Int32 = 0
        guard let archive = zip_open(destination.path, ZIP_CREATE | ZIP_TRUNCATE, &error) else {
            throw Refusal(description: "cannot create the result zip")
        }
        for (name, file) in files {
            guard let source = zip_source_file(archive, file.path, 0, -1) else {
                zip_discard(archive)
                throw Refusal(description: "cannot add \(name) to the result zip")
            }
            guard zip_file_add(archive, name, source, zip_flags_t(ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE)) >= 0 else {
                zip_source_free(source)
                zip_discard(archive)
                throw Refusal(description: "cannot add \(name) to the result zip")
            }
        }
        guard zip_close(archive) == 0 else {
            zip_discard(archive)
            throw Refusal(description: "cannot write the result zip")
        }
    }
}
