import Foundation

/// One writer per output folder (issue 17): a batch holds an `flock` on a lock file in the output folder for as
/// long as its plan lives. An unsharded batch holds `.koten-ocr.lock` exclusively. A shard holds it shared
/// (shards of one batch share a folder) and its own `.koten-ocr.shard-K-of-N.lock` exclusively. A second
/// writer is refused at once, naming the holder's process id. The kernel releases an `flock` when its holder
/// exits, even after `kill -9`, so a stale lock file never blocks.
package final class OutputLock: Sendable {
    package static let fileName = ".koten-ocr.lock"

    private let descriptors: [Int32]

    private init(descriptors: [Int32]) { self.descriptors = descriptors }

    deinit { for fd in descriptors { close(fd) } }

    /// The lock file of `shard` (nil: the folder's own).
    package static func fileName(shard: Shard?) -> String {
        guard let shard else { return fileName }
        return ".koten-ocr.shard-\(shard.index)-of-\(shard.count).lock"
    }

    /// Takes the locks of a batch (`shard`: its shard) writing to `directory`. Throws `BatchSetupError.outputInUse`
    /// when another process holds them, `.outputDirectory` when a lock file cannot be opened (a symbolic link
    /// is refused).
    package static func acquire(in directory: URL, shard: Shard?) throws(BatchSetupError) -> OutputLock {
        var held: [Int32] = []
        do {
            let folder = try lock(directory.appendingPathComponent(fileName), exclusive: shard == nil, directory: directory)
            held.append(folder)
            if let shard {
                held.append(try lock(directory.appendingPathComponent(fileName(shard: shard)), exclusive: true, directory: directory))
            }
        } catch {
            for fd in held { close(fd) }
            throw error
        }
        return OutputLock(descriptors: held)
    }

    private static func lock(_ url: URL, exclusive: Bool, directory: URL) throws(BatchSetupError) -> Int32 {
        let fd = open(url.path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let code = errno
            let reason = code == ELOOP ? "is a symbolic link; a lock file is never opened through one" : FileKind.reason(code)
            throw .outputDirectory(path: url.path, reason: "cannot open the output folder's lock file: \(reason)")
        }
        guard flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0 else {
            let code = errno
            let holders = holders(of: fd)
            close(fd)
            guard code == EWOULDBLOCK else {
                throw .outputDirectory(path: url.path, reason: "cannot lock the output folder: \(FileKind.reason(code))")
            }
            throw .outputInUse(path: directory.path, holders: holders)
        }
        // The holder's id, for a message when the lock is held; stale after it exits, and never trusted for
        // the lock itself.
        if exclusive {
            let text = Array("\(getpid())\n".utf8)
            _ = ftruncate(fd, 0)
            _ = pwrite(fd, text, text.count, 0)
        }
        return fd
    }

    /// The process ids holding an `flock` on the open file `fd` (`/proc/locks` on Linux), or the id written in
    /// the file by its last exclusive holder.
    private static func holders(of fd: Int32) -> [Int32] {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return [] }
        if let table = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) {
            let dev = UInt64(info.st_dev)
            let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & ~UInt64(0xfff))
            let minor = (dev & 0xff) | ((dev >> 12) & ~UInt64(0xff))
            let file = String(format: "%02llx:%02llx:%llu", major, minor, UInt64(info.st_ino))
            let pids = table.split(separator: "\n").compactMap { line -> Int32? in
                let fields = line.split(separator: " ")
                guard fields.count >= 6, fields[1] == "FLOCK", fields[5] == file else { return nil }
                return Int32(fields[4])
            }
            if !pids.isEmpty { return Array(Set(pids)).sorted() }
        }
        var buffer = [UInt8](repeating: 0, count: 32)
        let n = pread(fd, &buffer, buffer.count, 0)
        let text = String(decoding: buffer.prefix(max(0, n)), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return Int32(text).map { [$0] } ?? []
    }
}
