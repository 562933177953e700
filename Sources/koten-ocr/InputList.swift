import Foundation
import KotenOCRKit

/// Expands command-line inputs into page files: a file stands for itself; a directory for the image files
/// directly inside it (extensions case-insensitive, hidden files skipped, natural sort order).
enum InputList {
    static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "tif", "tiff", "webp", "bmp", "gif", "jp2", "j2k",
                                               "heic", "heif", "avif", "pdf"]

    enum Entry {
        case file(URL)
        case failure(path: String, reason: String)
    }

    static func expand(_ inputs: [String]) -> [Entry] {
        var entries: [Entry] = []
        for input in inputs {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input, isDirectory: &isDir) else {
                entries.append(.failure(path: input, reason: "no such file or directory"))
                continue
            }
            guard isDir.boolValue else {
                entries.append(.file(URL(fileURLWithPath: input)))
                continue
            }
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: input)
            } catch {
                entries.append(.failure(path: input, reason: "cannot list directory"))
                continue
            }
            let images = names.filter { !$0.hasPrefix(".") && imageExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
                .sorted { $0.compare($1, options: [.numeric, .caseInsensitive]) == .orderedAscending }
            if images.isEmpty {
                entries.append(.failure(path: input, reason: "directory contains no image files (\(imageExtensions.sorted().joined(separator: ", ")))"))
            }
            let base = URL(fileURLWithPath: input, isDirectory: true)
            entries += images.map { .file(base.appendingPathComponent($0)) }
        }
        return entries
    }

    /// The output stem of a page: the whole file name without its last extension (so `a.v1.jpg` and
    /// `a.v2.jpg` do not collide), with `_p0001` for pages of multi-page files.
    static func stem(for url: URL, page: Int, pageCount: Int) -> String {
        let base = url.deletingPathExtension().lastPathComponent
        return pageCount > 1 ? String(format: "%@_p%04d", base, page + 1) : base
    }
}
