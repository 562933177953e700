import Foundation

extension AtomicFile {
    /// Renames the temporary file `tmp` over `url` (one `rename`, atomic within a folder). Throws `CocoaError`
    /// naming `url`.
    static func moveIntoPlace(_ tmp: URL, _ url: URL) throws {
        if rename(tmp.path, url.path) != 0 {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path,
                             NSLocalizedDescriptionKey: String(cString: strerror(errno))])
        }
    }

    /// Writes what `body` writes to the handle it is given to `url` atomically: into a temporary file in the same
    /// folder (`temporaryPrefix`), renamed over `url` once `body` returns. For a file too large to hold in memory
    /// (a multi-page searchable PDF). Throws what `body` throws, or `CocoaError` naming the path; the temporary
    /// file is then removed.
    public static func write(to url: URL, _ body: (FileHandle) throws -> Void) throws {
        let tmp = url.deletingLastPathComponent()
            .appendingPathComponent(temporaryPrefix(for: url.lastPathComponent) + "\(UInt32.random(in: 0...UInt32.max))")
        do {
            guard FileManager.default.createFile(atPath: tmp.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
            let handle = try FileHandle(forWritingTo: tmp)
            do {
                try body(handle)
                try handle.close()
            } catch {
                try? handle.close()
                throw error
            }
            try moveIntoPlace(tmp, url)
        } catch {
            try? FileManager.default.removeItem(at: tmp)
            throw error
        }
    }
}
