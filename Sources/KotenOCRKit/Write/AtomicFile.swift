import Foundation

/// Writes files so that no half-written file ever exists under its final name: the bytes go to a
/// temporary file in the same folder (`.<name>.tmp-<random>`), which is then renamed over the target.
public enum AtomicFile {
    /// Writes `data` to `url` atomically. Throws `CocoaError` / POSIX errors naming the path.
    public static func write(_ data: Data, to url: URL) throws {
        let dir = url.deletingLastPathComponent()
        let tmp = dir.appendingPathComponent(".\(url.lastPathComponent).tmp-\(UInt32.random(in: 0...UInt32.max))")
        do {
            try data.write(to: tmp, options: [])
            if rename(tmp.path, url.path) != 0 {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path,
                                 NSLocalizedDescriptionKey: String(cString: strerror(errno))])
            }
        } catch {
            try? FileManager.default.removeItem(at: tmp)
            throw error
        }
    }

    /// Writes `text` as UTF-8.
    public static func write(_ text: String, to url: URL) throws {
        try write(Data(text.utf8), to: url)
    }
}
