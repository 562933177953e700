import Foundation

/// Writes files so that no half-written file ever exists under its final name: the bytes go to a
/// temporary file in the same folder (`.<name>.tmp-<random>`), which is then renamed over the target.
package enum AtomicFile {
    /// Writes `data` to `url` atomically. Throws `CocoaError` / POSIX errors naming the path.
    public static func write(_ data: Data, to url: URL) throws {
        let dir = url.deletingLastPathComponent()
        let tmp = dir.appendingPathComponent(temporaryPrefix(for: url.lastPathComponent) + "\(UInt32.random(in: 0...UInt32.max))")
        do {
            try data.write(to: tmp, options: [])
            try moveIntoPlace(tmp, url)
        } catch {
            try? FileManager.default.removeItem(at: tmp)
            throw error
        }
    }

    /// The start of the name of every temporary file `write` makes for a target named `name`
    /// (`.<name>.tmp-`): hidden, and never mistaken for a result. A name too long for that to fit in a file
    /// name (255 bytes with the random suffix) keeps its first characters and a hash of the whole name.
    public static func temporaryPrefix(for name: String) -> String {
        let plain = ".\(name).tmp-"
        guard plain.utf8.count > 245 else { return plain }
        var head = ""
        for character in name {
            if head.utf8.count + String(character).utf8.count > 230 { break }
            head.append(character)
        }
        return ".\(head)~\(SHA256.hex(Data(name.utf8)).prefix(8)).tmp-"
    }

    /// Removes temporary files a killed writer left behind for the targets `urls` (only theirs: other
    /// writers' temporary files in the same folders are untouched). Returns the removed files.
    @discardableResult
    public static func removeStaleTemporaries(for urls: [URL]) -> [URL] {
        var targetsByFolder: [URL: Set<String>] = [:]
        for url in urls { targetsByFolder[url.deletingLastPathComponent(), default: []].insert(url.lastPathComponent) }
        var removed: [URL] = []
        for (folder, targets) in targetsByFolder {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { continue }
            let prefixes = targets.map(temporaryPrefix(for:))
            for name in names where name.hasPrefix(".") && prefixes.contains(where: { name.hasPrefix($0) }) {
                let suffix = name.split(separator: "-").last.map(String.init) ?? ""
                guard !suffix.isEmpty, suffix.allSatisfy(\.isNumber) else { continue }
                let url = folder.appendingPathComponent(name)
                if (try? FileManager.default.removeItem(at: url)) != nil { removed.append(url) }
            }
        }
        return removed
    }

    /// Writes `text` as UTF-8.
    public static func write(_ text: String, to url: URL) throws {
        try write(Data(text.utf8), to: url)
    }
}
