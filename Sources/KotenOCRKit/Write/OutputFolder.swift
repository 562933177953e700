import Foundation

/// The folders below an output folder, opened one component at a time without following a symbolic link, so
/// that nothing a batch writes lands outside the output folder (issue 17: a symbolic link placed inside it,
/// as a subfolder or as the manifest, would otherwise carry results elsewhere). The output folder itself may
/// be a link: the user named it.
package enum OutputFolder {
    /// Why a folder below the output folder cannot be used.
    package struct Refused: Error, CustomStringConvertible {
        /// The path (output folder joined with the relative folder that failed).
        package let path: String
        package let reason: String
        package var description: String { "\(path): \(reason)" }
    }

    /// Opens the folder `relative` (components separated by `/`; empty: the output folder) below `root` and
    /// returns its descriptor (close it). Each component is opened with `O_NOFOLLOW | O_DIRECTORY`; with
    /// `create`, missing ones are made (mode 0755). Throws `Refused` naming the folder: a symbolic link
    /// ("is a symbolic link; results are never written through one"), not a folder, or the system's reason.
    package static func open(_ relative: String, in root: URL, create: Bool) throws(Refused) -> Int32 {
        var fd = Foundation.open(root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Refused(path: root.path, reason: FileKind.reason(errno)) }
        var walked = root.path
        for component in relative.split(separator: "/") where component != "." {
            walked += "/" + component
            if component == ".." {
                close(fd)
                throw Refused(path: walked, reason: "climbs out of the output folder")
            }
            if create { _ = mkdirat(fd, String(component), 0o755) }
            let next = openat(fd, String(component), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            let failure = next >= 0 ? nil : reason(openFailure: errno, component: String(component), in: fd)
            close(fd)
            if let failure { throw Refused(path: walked, reason: failure) }
            fd = next
        }
        return fd
    }

    /// Throws `Refused` if a folder of `relative` (its folders; a missing one is fine) or the file itself is a
    /// symbolic link below `root`. Checked when a batch is planned, before anything is written.
    package static func checkNoLinks(_ relative: String, in root: URL) throws(Refused) {
        var walked = root.path
        for component in relative.split(separator: "/") where component != "." {
            walked += "/" + component
            var info = stat()
            guard lstat(walked, &info) == 0 else { return }
            if info.st_mode & S_IFMT == S_IFLNK {
                throw Refused(path: walked, reason: linkRefused)
            }
        }
    }

    private static let linkRefused = "is a symbolic link; results are never written through one"

    private static func reason(openFailure code: Int32, component: String, in folder: Int32) -> String {
        var info = stat()
        if fstatat(folder, component, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFLNK { return linkRefused }
        return code == ENOTDIR ? "is not a folder" : FileKind.reason(code)
    }
}
