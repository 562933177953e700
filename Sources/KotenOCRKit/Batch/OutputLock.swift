import Foundation

/// One writer per output folder (issue 17): a batch holds an `flock` on a lock file in the output folder for as
/// long as its plan lives. An unsharded batch holds `.koten-ocr.lock` exclusively. A shard holds it shared
/// (shards of one batch share a folder) and its own `.koten-ocr.shard-K-of-N.lock` exclusively. A second
/// writer is refused at once, naming the holder's process id (from `/proc/locks`; nothing is written in the lock
/// file, so a refused run changes nothing in the folder). The kernel releases an `flock` when its holder
/// exits, even after `kill -9`, so a stale lock file never blocks.
package final class OutputLock: Sendable {
    package static let fileName = ".koten-ocr.lock"

    /// The lock files this lock holds (by device and inode), each counted in `held`.
    private let files: [FileID]

    private init(files: [FileID]) { self.files = files }

    deinit { Self.held.release(files) }

    /// The lock file of `shard` (nil: the folder's own).
    package static func fileName(shard: Shard?) -> String {
        guard let shard else { return fileName }
        return ".koten-ocr.shard-\(shard.index)-of-\(shard.count).lock"
    }

    /// Takes the locks of a batch (`shard`: its shard) writing to `directory`. Throws `BatchSetupError.outputInUse`
    /// naming the holders when another process holds them, `.outputDirectory` when a lock file cannot be opened
    /// (a symbolic link is refused). Within one process, plans share a lock they both take (an app coordinates
    /// its own batches; the lock keeps other processes out).
    package static func acquire(in directory: URL, shard: Shard?) throws(BatchSetupError) -> OutputLock {
        var taken: [FileID] = []
        do {
            taken.append(try lock(directory.appendingPathComponent(fileName), exclusive: shard == nil, directory: directory))
            if let shard {
                taken.append(try lock(directory.appendingPathComponent(fileName(shard: shard)), exclusive: true, directory: directory))
            }
        } catch {
            held.release(taken)
            throw error
        }
        return OutputLock(files: taken)
    }

    private static func lock(_ url: URL, exclusive: Bool, directory: URL) throws(BatchSetupError) -> FileID {
        let fd = open(url.path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let code = errno
            let reason = code == ELOOP ? "is a symbolic link; a lock file is never opened through one" : FileKind.reason(code)
            throw .outputDirectory(path: url.path, reason: "cannot open the output folder's lock file: \(reason)")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw .outputDirectory(path: url.path, reason: "cannot lock the output folder: \(FileKind.reason(code))")
        }
        let id = FileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        if held.retainIfHeld(id) {
            close(fd)
            return id
        }
        guard flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0 else {
            let code = errno
            close(fd)
            guard code == EWOULDBLOCK else {
                throw .outputDirectory(path: url.path, reason: "cannot lock the output folder: \(FileKind.reason(code))")
            }
            throw .outputInUse(path: directory.path, holders: holders(of: id))
        }
        held.add(id, descriptor: fd)
        return id
    }

    /// The process ids holding an `flock` on the file `id`, from `/proc/locks` (Linux; none elsewhere).
    private static func holders(of id: FileID) -> [Int32] {
        guard let table = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return [] }
        let major = ((id.device >> 8) & 0xfff) | ((id.device >> 32) & ~UInt64(0xfff))
        let minor = (id.device & 0xff) | ((id.device >> 12) & ~UInt64(0xff))
        let file = String(format: "%02llx:%02llx:%llu", major, minor, id.inode)
        let pids = table.split(separator: "\n").compactMap { line -> Int32? in
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[1] == "FLOCK", fields[5] == file else { return nil }
            return Int32(fields[4])
        }
        return Array(Set(pids)).sorted()
    }

    struct FileID: Hashable, Sendable {
        let device: UInt64
        let inode: UInt64
    }

    /// The lock files this process holds: one descriptor each, and how many plans hold it.
    private static let held = Held()

    private final class Held: @unchecked Sendable {
        private let mutex = NSLock()
        private var files: [FileID: (descriptor: Int32, count: Int)] = [:]

        func retainIfHeld(_ id: FileID) -> Bool {
            mutex.withLock {
                guard let entry = files[id] else { return false }
                files[id] = (entry.descriptor, entry.count + 1)
                return true
            }
        }

        func add(_ id: FileID, descriptor: Int32) {
            mutex.withLock { files[id] = (descriptor, 1) }
        }

        func release(_ ids: [FileID]) {
            mutex.withLock {
                for id in ids {
                    guard let entry = files[id] else { continue }
                    if entry.count > 1 {
                        files[id] = (entry.descriptor, entry.count - 1)
                    } else {
                        close(entry.descriptor)  // the kernel releases the flock with the last descriptor
                        files[id] = nil
                    }
                }
            }
        }
    }
}
