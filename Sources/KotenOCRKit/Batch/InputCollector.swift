import Foundation

/// Turns what the user named (files, directories, lines of an input list) into input files.
///
/// A file stands for itself. A directory stands for the image files directly inside it, or with
/// `recursive` in it and every subfolder: extensions are matched case-insensitively, hidden files and
/// folders (names starting with `.`) are skipped, names are in natural order (`2.jpg` before `10.jpg`,
/// `vol2/` before `vol10/`), and a symbolic link loop is followed once.
public enum InputCollector {
    /// File extensions a directory listing takes (lowercase).
    public static let imageExtensions: Set<String> = ["jpg", "jpeg", "jfif", "png", "tif", "tiff", "webp", "bmp", "gif",
                                                      "jp2", "j2k", "heic", "heif", "avif", "pdf"]

    /// Expands `paths` in order. Paths that do not exist, unreadable directories and directories without
    /// images are failures (the other paths are still expanded). A file's results are named after its file
    /// name; with `keepingFolders` (the lines of an input list) a relative path without `..` keeps its folders
    /// (`vol1/0001.jpg` → `vol1/0001.txt`), so a list made with `find . -type f` in the corpus mirrors it.
    public static func collect(_ paths: [String], recursive: Bool,
                               keepingFolders: Bool = false) -> (inputs: [BatchInput], failures: [BatchFailure]) {
        var inputs: [BatchInput] = []
        var failures: [BatchFailure] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                failures.append(BatchFailure(path: path, reason: "no such file or directory", shardKey: "\(path)#1"))
                continue
            }
            guard isDirectory.boolValue else {
                inputs.append(BatchInput(path: path, relativePath: keepingFolders ? relativeFolders(path)
                                                                                  : URL(fileURLWithPath: path).lastPathComponent))
                continue
            }
            var walk = Walk(root: path, recursive: recursive)
            walk.visit(relative: "")
            if let unreadable = walk.unreadable {
                failures.append(BatchFailure(path: unreadable, reason: "cannot list directory", shardKey: "\(unreadable)#1"))
            }
            if walk.found.isEmpty {
                let hint = !recursive && walk.sawSubfolder ? "; use --recursive for its subfolders" : ""
                failures.append(BatchFailure(
                    path: path, reason: "directory contains no image files (\(imageExtensions.sorted().joined(separator: ", "))\(hint))",
                    shardKey: "\(path)#1"))
            }
            inputs += walk.found
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

    /// `path` without `.` components and empty ones; its file name alone if it is absolute or climbs with `..`.
    static func relativeFolders(_ path: String) -> String {
        let parts = path.split(separator: "/").filter { $0 != "." }
        guard !path.hasPrefix("/"), !parts.contains(".."), !parts.isEmpty else {
            return URL(fileURLWithPath: path).lastPathComponent
        }
        return parts.joined(separator: "/")
    }

    /// Natural order: digit runs compare as numbers, case ignored; ties broken by the exact names.
    static func naturallyOrdered(_ a: String, _ b: String) -> Bool {
        switch a.compare(b, options: [.numeric, .caseInsensitive]) {
        case .orderedAscending: return true
        case .orderedDescending: return false
        case .orderedSame: return a < b
        }
    }

    private struct Walk {
        let root: String
        let recursive: Bool
        var found: [BatchInput] = []
        var unreadable: String?
        var sawSubfolder = false
        var visited = Set<String>()

        mutating func visit(relative: String) {
            let folder = relative.isEmpty ? root : join(root, relative)
            let resolved = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
            guard visited.insert(resolved).inserted else { return }
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
                if unreadable == nil { unreadable = folder }
                return
            }
            for name in names.sorted(by: InputCollector.naturallyOrdered) where !name.hasPrefix(".") {
                let childRelative = relative.isEmpty ? name : relative + "/" + name
                let childPath = join(root, childRelative)
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: childPath, isDirectory: &isDirectory) else { continue }
                if isDirectory.boolValue {
                    sawSubfolder = true
                    if recursive { visit(relative: childRelative) }
                } else if InputCollector.imageExtensions.contains((name as NSString).pathExtension.lowercased()) {
                    found.append(BatchInput(path: childPath, relativePath: childRelative))
                }
            }
        }

        private func join(_ base: String, _ relative: String) -> String {
            base.hasSuffix("/") ? base + relative : base + "/" + relative
        }
    }
}
