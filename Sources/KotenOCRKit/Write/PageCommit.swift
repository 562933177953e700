import Foundation

/// Commits a page's result files to the output folder together: all of them, or none (issue 17). Every writer
/// of a batch's files (each format's page files, the run's document) goes through `commit`.
///
/// 1. Each file's bytes go to a temporary file in its folder (`AtomicFile.temporaryPrefix` + a number: hidden,
///    found and removed by `AtomicFile.removeStaleTemporaries` after a kill), created exclusively and without
///    following a link, and fsync'd.
/// 2. Only when every temporary is complete is each renamed over its target (a rename replaces a link at the
///    target's name, it never writes through it).
/// 3. If any step fails, the temporaries are removed and so are the targets already renamed: the page has
///    none of its files, and its manifest line stays `started`, so `--resume` reads it again.
///
/// Folders are opened below the output folder without following links (`OutputFolder`).
package enum PageCommit {
    /// Test seam: when set, the commit fails after this many renames (0: before the first), as a full disk
    /// or a vanished folder would, to prove the roll-back. Bound per task (`$failAfterRenames.withValue`).
    @TaskLocal package static var failAfterRenames: Int?

    /// One file of a page: its path relative to the output folder and its bytes.
    package struct File: Sendable {
        package let name: String
        package let data: Data
        package init(name: String, data: Data) {
            self.name = name
            self.data = data
        }
    }

    /// Why a commit failed: the file it concerns and the system's reason, one line.
    package struct Failure: Error, CustomStringConvertible {
        package let path: String
        package let reason: String
        package var description: String { "\(path): \(reason)" }
    }

    /// Writes `files` below `root` all together or not at all (see the type). Throws `Failure` or
    /// `OutputFolder.Refused` naming the file or folder.
    package static func commit(_ files: [File], in root: URL) throws {
        var folders: [String: Int32] = [:]
        var staged: [(folder: Int32, temporary: String, name: String, path: String)] = []
        var renamed: [(folder: Int32, name: String)] = []
        defer { for fd in folders.values { close(fd) } }
        do {
            for file in files {
                let folderName = (file.name as NSString).deletingLastPathComponent
                let name = (file.name as NSString).lastPathComponent
                let folder: Int32
                if let open = folders[folderName] {
                    folder = open
                } else {
                    folder = try OutputFolder.open(folderName, in: root, create: true)
                    folders[folderName] = folder
                }
                let path = root.appendingPathComponent(file.name).path
                let temporary = try writeTemporary(file.data, for: name, in: folder, path: path)
                staged.append((folder, temporary, name, path))
            }
            for file in staged {
                if let limit = failAfterRenames, renamed.count >= limit {
                    throw Failure(path: file.path, reason: "failure injected by the test seam after \(limit) renames")
                }
                guard renameat(file.folder, file.temporary, file.folder, file.name) == 0 else {
                    throw Failure(path: file.path, reason: FileKind.reason(errno))
                }
                renamed.append((file.folder, file.name))
            }
        } catch {
            for file in staged { unlinkat(file.folder, file.temporary, 0) }
            for file in renamed { unlinkat(file.folder, file.name, 0) }
            throw error
        }
        for fd in Set(renamed.map(\.folder)) { fsync(fd) }
    }

    /// Writes `data` to a new temporary file for `name` in `folder`, fsync'd; returns its name.
    private static func writeTemporary(_ data: Data, for name: String, in folder: Int32, path: String) throws(Failure) -> String {
        let prefix = AtomicFile.temporaryPrefix(for: name)
        var temporary = ""
        var fd: Int32 = -1
        for _ in 0..<8 where fd < 0 {
            temporary = prefix + String(UInt32.random(in: 0...UInt32.max))
            fd = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd < 0 && errno != EEXIST { break }
        }
        guard fd >= 0 else { throw Failure(path: path, reason: FileKind.reason(errno)) }
        var failure: Int32 = 0
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count, let base = raw.baseAddress {
                let n = write(fd, base + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += n
            }
        }
        if failure == 0, fsync(fd) != 0 { failure = errno }
        if close(fd) != 0, failure == 0 { failure = errno }
        if failure != 0 {
            unlinkat(folder, temporary, 0)
            throw Failure(path: path, reason: FileKind.reason(failure))
        }
        return temporary
    }
}
