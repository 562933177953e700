import Foundation

/// What is at a path, found without opening it (`lstat`, then `stat` through a symbolic link), so that only a
/// regular file is ever opened: opening a FIFO blocks and reading `/dev/zero` never ends (issue 17).
package enum FileKind: Equatable, Sendable {
    case regular(size: Int64)
    case directory
    /// No file at the path (and no link).
    case missing
    /// Something that is not read, with the reason as one line: a device, a FIFO, a socket, a symbolic link
    /// loop, a dangling link, a permission refused.
    case unusable(reason: String)

    /// The kind of `path`, following symbolic links.
    package static func of(_ path: FileSystemPath) -> FileKind {
        path.withCString { p in
            var link = stat()
            guard lstat(p, &link) == 0 else { return errno == ENOENT || errno == ENOTDIR ? .missing : .unusable(reason: reason(errno)) }
            var target = stat()
            guard stat(p, &target) == 0 else {
                switch errno {
                case ELOOP: return .unusable(reason: "a symbolic link loop")
                case ENOENT, ENOTDIR: return .unusable(reason: "a dangling symbolic link (its target does not exist)")
                default: return .unusable(reason: reason(errno))
                }
            }
            return kind(target)
        }
    }

    /// The kind of an open file.
    package static func of(descriptor: Int32) -> FileKind {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .unusable(reason: reason(errno)) }
        return kind(info)
    }

    private static func kind(_ info: stat) -> FileKind {
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regular(size: Int64(info.st_size))
        case S_IFDIR: return .directory
        case S_IFCHR: return .unusable(reason: "a character device, not an image file")
        case S_IFBLK: return .unusable(reason: "a block device, not an image file")
        case S_IFIFO: return .unusable(reason: "a FIFO (named pipe), not an image file")
        case S_IFSOCK: return .unusable(reason: "a socket, not an image file")
        default: return .unusable(reason: "not a regular file")
        }
    }

    /// The system's reason for `code`, lowercased as the rest of a message ("permission denied").
    package static func reason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        guard let first = text.first else { return text }
        return first.lowercased() + text.dropFirst()
    }

    /// Opens `path` for reading, never blocking (a FIFO opens at once with `O_NONBLOCK`, and is then refused)
    /// and only if it is a regular file. Returns the descriptor and the size; throws `Unreadable` with the
    /// reason (missing, permission, device, FIFO, socket, loop, dangling link).
    package static func openRegular(_ path: FileSystemPath) throws(Unreadable) -> (descriptor: Int32, size: Int64) {
        let fd = path.withCString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) }
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ELOOP, case .unusable(let reason) = of(path) { throw Unreadable(missing: false, reason: reason) }
            if code == ENOENT || code == ENOTDIR { throw Unreadable(missing: true, reason: "no such file or directory") }
            throw Unreadable(missing: false, reason: code == ELOOP ? "a symbolic link loop" : reason(code))
        }
        switch of(descriptor: fd) {
        case .regular(let size): return (fd, size)
        case .directory: close(fd); throw Unreadable(missing: false, reason: "a directory, not an image file")
        case .unusable(let reason): close(fd); throw Unreadable(missing: false, reason: reason)
        case .missing: close(fd); throw Unreadable(missing: true, reason: "no such file or directory")
        }
    }

    /// Why a path cannot be read as a file.
    package struct Unreadable: Error, Equatable {
        /// Nothing is at the path.
        package let missing: Bool
        package let reason: String
    }
}
