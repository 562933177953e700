import Foundation

/// Turns what the user named (files, directories, lines of an input list) into input files.
///
/// A file stands for itself. A directory stands for the image files directly inside it, or with
/// `recursive` in it and every subfolder: extensions are matched case-insensitively, hidden files and
/// folders (names starting with `.`) are skipped, names are in natural order (`2.jpg` before `10.jpg`,
/// `vol2/` before `vol10/`), and a symbolic link loop is followed once.
package enum InputCollector {
    /// File extensions a directory listing takes (lowercase).
    public static let imageExtensions: Set<String> = ["jpg", "jpeg", "jfif", "png", "tif", "tiff", "webp", "bmp", "gif",
                                                      "jp2", "j2k", "heic", "heif", "avif", "pdf"]

    /// Expands `paths` in order. Paths that do not exist, unreadable directories and directories without
    /// images are failures (the other paths are still expanded). A file's results are named after its file
    /// name; with `keepingFolders` (the lines of an input list) a relative path without `..` keeps its folders
    /// (`vol1/0001.jpg` → `vol1/0001.txt`), so a list made with `find . -type f` in the corpus mirrors it.
    /// Nothing is opened: a device, a FIFO, a socket, a symbolic link loop or a dangling link (named, or with an
    /// image extension in a directory) is a failure naming what it is.
    public static func collect(_ paths: [String], recursive: Bool,
                               keepingFolders: Bool = false) -> (inputs: [BatchInput], failures: [BatchEvent.Failure]) {
        collect(files: paths.map(FileSystemPath.init), recursive: recursive, keepingFolders: keepingFolders)
    }

    /// `collect(_:recursive:keepingFolders:)` over paths as the file system holds them (names compared by their
    /// bytes; a name that is not UTF-8 is read, and shown with its other bytes as `\xNN`).
    package static func collect(files paths: [FileSystemPath], recursive: Bool,
                                keepingFolders: Bool = false) -> (inputs: [BatchInput], failures: [BatchEvent.Failure]) {
        var inputs: [BatchInput] = []
        var failures: [BatchEvent.Failure] = []
        for path in paths {
            let name = path.display
            switch FileKind.of(path) {
            case .missing:
                failures.append(BatchEvent.Failure(path: name, reason: "no such file or directory", shardKey: "\(name)#1"))
            case .unusable(let reason):
                failures.append(BatchEvent.Failure(path: name, reason: reason, shardKey: "\(name)#1"))
            case .regular:
                inputs.append(BatchInput(file: path, relativePath: keepingFolders ? relativeFolders(name) : path.lastComponent.display))
            case .directory:
                var walk = Walk(root: path, recursive: recursive)
                walk.visit(relative: nil)
                if let unreadable = walk.unreadable {
                    failures.append(BatchEvent.Failure(path: unreadable.display, reason: "cannot list directory", shardKey: "\(unreadable.display)#1"))
                }
                failures += walk.failures
                if walk.found.isEmpty && walk.failures.isEmpty {
                    let hint = !recursive && walk.sawSubfolder ? "; use --recursive for its subfolders" : ""
                    failures.append(BatchEvent.Failure(
                        path: name, reason: "directory contains no image files (\(imageExtensions.sorted().joined(separator: ", "))\(hint))",
                        shardKey: "\(name)#1"))
                }
                inputs += walk.found
            }
        }
        return (inputs, failures)
    }

    /// The paths of an input list (`--input-list`): one per line; blank lines and lines starting with `#`
    /// are ignored, spaces around a path and a trailing CR are removed. Relative paths are relative to the
    /// working directory.
    public static func paths(inList text: String) -> [String] {
        text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// The paths of an input list as bytes, for a list whose names need not be UTF-8: one per line (LF, CR LF);
    /// blank lines and lines starting with `#` ignored, spaces and tabs around a path removed.
    package static func paths(inList data: Data) -> [FileSystemPath] {
        data.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D })
            .map { line in line.drop(while: Self.isBlank).reversed().drop(while: Self.isBlank).reversed() }
            .filter { !$0.isEmpty && $0.first != 0x23 }
            .map { FileSystemPath(bytes: $0) }
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// `path` without `.` components and empty ones; its file name alone if it is absolute or climbs with `..`.
    static func relativeFolders(_ path: String) -> String {
        let parts = path.split(separator: "/").filter { $0 != "." }
        guard !path.hasPrefix("/"), !parts.contains(".."), !parts.isEmpty else {
            return URL(fileURLWithPath: path).lastPathComponent
        }
        return parts.joined(separator: "/")
    }

    /// Natural order: digit runs compare as numbers, case ignored; ties broken by the exact names' bytes (the
    /// NFC and NFD spellings of one name are two names, in a fixed order).
    static func naturallyOrdered(_ a: String, _ b: String) -> Bool {
        switch a.compare(b, options: [.numeric, .caseInsensitive]) {
        case .orderedAscending: return true
        case .orderedDescending: return false
        case .orderedSame: return a.utf8.lexicographicallyPrecedes(b.utf8)
        }
    }

    /// A directory listing: names as bytes (`readdir`), each entry's kind found without opening it, subfolders
    /// visited once each (by device and inode, so a symbolic link loop is followed once).
    private struct Walk {
        let root: FileSystemPath
        let recursive: Bool
        var found: [BatchInput] = []
        var failures: [BatchEvent.Failure] = []
        var unreadable: FileSystemPath?
        var sawSubfolder = false
        var visited = Set<[UInt64]>()

        /// Visits the folder `relative` below the root (nil: the root).
        mutating func visit(relative: (path: FileSystemPath, display: String)?) {
            let folder = relative.map { root.appending($0.path) } ?? root
            var info = stat()
            guard folder.withCString({ stat($0, &info) }) == 0,
                  visited.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else { return }
            guard let names = Self.list(folder) else {
                if unreadable == nil { unreadable = folder }
                return
            }
            let entries = names.map { (name: $0, display: $0.display) }
                .sorted { InputCollector.naturallyOrdered($0.display, $1.display) }
            for entry in entries where entry.name.bytes.first != 0x2E {
                let child = (path: relative.map { $0.path.appending(entry.name) } ?? entry.name,
                             display: relative.map { $0.display + "/" + entry.display } ?? entry.display)
                let childPath = root.appending(child.path)
                let isImage = InputCollector.imageExtensions.contains((entry.display as NSString).pathExtension.lowercased())
                switch FileKind.of(childPath) {
                case .directory:
                    sawSubfolder = true
                    if recursive { visit(relative: child) }
                case .regular where isImage:
                    found.append(BatchInput(file: childPath, relativePath: child.display))
                case .unusable(let reason) where isImage:
                    failures.append(BatchEvent.Failure(path: childPath.display, reason: reason, shardKey: "\(child.display)#1"))
                default:
                    continue
                }
            }
        }

        /// The names in `folder` (without `.` and `..`), nil if it cannot be listed.
        static func list(_ folder: FileSystemPath) -> [FileSystemPath]? {
            guard let directory = folder.withCString({ opendir($0) }) else { return nil }
            defer { closedir(directory) }
            var names: [FileSystemPath] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                    FileSystemPath(bytes: raw.prefix { $0 != 0 })
                }
                if name.bytes == [0x2E] || name.bytes == [0x2E, 0x2E] { continue }
                names.append(name)
            }
            return names
        }
    }
}
