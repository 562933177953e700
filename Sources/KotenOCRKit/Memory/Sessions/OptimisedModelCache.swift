import Foundation

/// ONNX Runtime's optimised form of each model file, kept on disk so that a later process loads a model without
/// optimising its graph again (docs/performance.md, "Start-up: the optimised models kept").
///
/// ONNX Runtime optimises a graph when it creates a session (at `GraphOptimisation.all`: node fusions and the
/// layout of convolutions for this CPU's vector width), which was most of a session's load: the PP-OCRv5 models
/// loaded in 0.24 s at every start, in 0.14 s from their optimised form (its checksum checked), and read every page the same. The first
/// load of a model writes its optimised form in ONNX Runtime's own format (`session.save_model_format` = ORT) to a
/// temporary file renamed into place once the session exists; later loads read that file once its bytes match the
/// checksum in its name (`isWhole`). An entry is named by the model file's path and its identity (size, modification
/// and change times, inode, device), ONNX Runtime's version,
/// the CPU (the optimised layout may use its instructions) and the optimisation level, so a replaced model, another
/// runtime or another machine's cache is never used. When an entry is written, the folder is tidied: the model's
/// older entries, the entries of model files no longer there, and past `limitBytes` the least recently used go.
/// An entry that is damaged or fails to load is removed and the model loaded from its .onnx file.
package struct OptimisedModelCache: Sendable, Hashable {
    /// The folder of the entries (created, mode 0700, when the first one is written).
    public let directory: URL

    public init(directory: URL) { self.directory = directory }

    /// The folder the command line uses: `$KOTEN_OCR_CACHE_DIR`, else `$XDG_CACHE_HOME/koten-ocr`, else
    /// `~/.cache/koten-ocr` (on Apple platforms the user's Caches folder), with `optimised-models` under it. Nil
    /// without a home folder.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        func nonEmpty(_ key: String) -> String? { environment[key].flatMap { $0.isEmpty ? nil : $0 } }
        let root: URL
        if let explicit = nonEmpty("KOTEN_OCR_CACHE_DIR") {
            root = URL(fileURLWithPath: explicit, isDirectory: true)
        } else if let xdg = nonEmpty("XDG_CACHE_HOME") {
            root = URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("koten-ocr")
        } else {
            #if canImport(Darwin)
            guard let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first else { return nil }
            root = caches.appendingPathComponent("koten-ocr")
            #else
            guard let home = nonEmpty("HOME") else { return nil }
            root = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache/koten-ocr")
            #endif
        }
        return root.appendingPathComponent("optimised-models", isDirectory: true)
    }

    /// The name every entry of `model`'s optimised form for `level` starts with (an entry's name adds its own
    /// checksum: `<key>-<checksum>.ort`); nil when the model file cannot be examined.
    func key(for model: URL, level: SessionOptions.GraphOptimisation) -> String? {
        guard let identity = Self.identity(of: model) else { return nil }
        let key = [identity, ORT.libraryVersion, Self.processor, "\(level)"].joined(separator: "\n")
        return "\(Self.prefix(of: model))-\(Self.digest(key))"
    }

    /// The entry kept for `key`, if any (the most recently written when two processes wrote one each).
    func entry(for key: String) -> URL? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasPrefix(key + "-") && $0.hasSuffix(".ort") }
            .map { directory.appendingPathComponent($0) }
            .max { Self.modified($0) < Self.modified($1) }
    }

    /// Whether `entry` is a regular file whose bytes have the checksum its name records: a damaged entry that ONNX
    /// Runtime would still load (a flipped weight reads every line wrong) is not used.
    func isWhole(_ entry: URL) -> Bool {
        let name = entry.deletingPathExtension().lastPathComponent
        guard let recorded = name.split(separator: "-").last, let sum = Self.checksum(of: entry) else { return false }
        return recorded == sum
    }

    /// A file beside the entries to write `key`'s entry into before it is renamed into place.
    func temporaryFile(for key: String) throws -> URL {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        return directory.appendingPathComponent(".\(key).\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString).tmp")
    }

    /// Puts the written `temporary` file in place as `key`'s entry, named with its checksum, records which model file
    /// it is of, and tidies the folder (`tidy`).
    func commit(_ temporary: URL, key: String, for model: URL) {
        guard let sum = Self.checksum(of: temporary) else {
            try? FileManager.default.removeItem(at: temporary)
            return
        }
        let entry = directory.appendingPathComponent("\(key)-\(sum).ort")
        guard rename(temporary.path, entry.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            return
        }
        let prefix = Self.prefix(of: model)
        try? Data(model.standardizedFileURL.path.utf8).write(to: directory.appendingPathComponent(prefix + ".source"), options: .atomic)
        tidy(keeping: entry, of: prefix)
    }

    /// Removes an entry that cannot be used.
    func remove(_ entry: URL) { try? FileManager.default.removeItem(at: entry) }

    /// Marks `entry` used now (the folder is trimmed least recently used first).
    func touch(_ entry: URL) { _ = utimes(entry.path, nil) }

    /// The most bytes of entries kept: every mode's models twice over (PP-OCRv5 29 MB, NDLOCR-Lite's four about
    /// 160 MB, Koten's two about 80 MB).
    static let limitBytes = 512_000_000

    /// Removes `prefix`'s entries but `entry` (a model file's older forms), the entries of model files that are no
    /// longer there (a `.source` file names each model), temporary files an hour old (a writer killed), and then
    /// the least recently used entries while they hold more than `limitBytes`.
    private func tidy(keeping entry: URL, of prefix: String) {
        let files = FileManager.default
        let names = (try? files.contentsOfDirectory(atPath: directory.path)) ?? []
        func removeFile(_ name: String) { try? files.removeItem(at: directory.appendingPathComponent(name)) }
        func modified(_ name: String) -> Date { Self.modified(directory.appendingPathComponent(name)) }
        var gone: Set<String> = []
        for name in names where name.hasSuffix(".source") {
            let owner = String(name.dropLast(".source".count))
            guard owner != prefix, let path = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8),
                  !files.fileExists(atPath: path) else { continue }
            gone.insert(owner)
            removeFile(name)
        }
        var kept: [(name: String, used: Date, bytes: Int)] = []
        for name in names where name.hasSuffix(".ort") {
            let owner = String(name.prefix { $0 != "-" })
            if gone.contains(owner) || (owner == prefix && name != entry.lastPathComponent) {
                removeFile(name)
            } else {
                let bytes = (try? files.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[.size] as? Int) ?? 0
                kept.append((name, modified(name), bytes))
            }
        }
        for name in names where name.hasSuffix(".tmp") && modified(name).timeIntervalSinceNow < -3600 { removeFile(name) }
        var total = kept.reduce(0) { $0 + $1.bytes }
        for old in kept.sorted(by: { $0.used < $1.used }) where total > Self.limitBytes && old.name != entry.lastPathComponent {
            removeFile(old.name)
            total -= old.bytes
        }
    }

    private static func modified(_ file: URL) -> Date {
        (try? FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date) ?? .distantPast
    }

    /// A checksum of a regular file's bytes: 64-bit Fletcher sums over its little-endian 64-bit words in four lanes
    /// (every flipped bit and every moved block changes it; about 0.02 s for the 17 MB recogniser), with its size,
    /// as 40 hex digits. Nil when `file` is not a regular file or cannot be read.
    static func checksum(of file: URL) -> String? {
        var info = stat()
        guard stat(file.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
              let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        defer { try? handle.close() }
        typealias Words = SIMD4<UInt64>
        var a = Words(repeating: 0), b = Words(repeating: 0), size = 0
        while true {
            let next: Data?
            do { next = try handle.read(upToCount: 1 << 20) } catch { return nil }
            guard let chunk = next, !chunk.isEmpty else { break }  // nil or empty at the end
            size += chunk.count
            chunk.withUnsafeBytes { raw in
                let whole = raw.count / 32
                for k in 0..<whole {
                    a &+= raw.loadUnaligned(fromByteOffset: k * 32, as: Words.self)
                    b &+= a
                }
                var tail = [UInt8](raw[(whole * 32)...])  // only a file's last chunk has a tail (chunks are 1 MiB)
                if !tail.isEmpty {
                    tail += [UInt8](repeating: 0, count: 32 - tail.count)
                    a &+= tail.withUnsafeBytes { $0.loadUnaligned(as: Words.self) }
                    b &+= a
                }
            }
        }
        let lanes = (0..<4).map { a[$0] ^ (b[$0] &* 0x9E37_79B9_7F4A_7C15) }
        let folded = [lanes[0] ^ (lanes[2] &* 0xBF58_476D_1CE4_E5B9), lanes[1] ^ (lanes[3] &* 0xBF58_476D_1CE4_E5B9)]
        return String(format: "%08x", UInt32(truncatingIfNeeded: size)) + folded.map { String(format: "%016llx", $0) }.joined()
    }

    /// The entries' names start with a digest of the model's absolute path.
    private static func prefix(of model: URL) -> String { digest(model.standardizedFileURL.path) }

    private static func digest(_ text: String) -> String { String(SHA256.hex(Data(text.utf8)).prefix(16)) }

    /// The model file's size, modification and change times (ns; a file rewritten in place with its modification
    /// time set back still changes the second), inode and device; nil when it cannot be examined.
    private static func identity(of model: URL) -> String? {
        var info = stat()
        guard stat(model.path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        let changed = Int64(info.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(info.st_ctimespec.tv_nsec)
        #else
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        let changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        #endif
        return "\(info.st_size) \(modified) \(changed) \(info.st_ino) \(info.st_dev)"
    }

    /// What of the CPU an optimised graph may depend on: on Linux the model name and feature flags of
    /// `/proc/cpuinfo`, elsewhere the architecture.
    private static let processor: String = {
        #if os(Linux)
        if let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) {
            let wanted = text.split(separator: "\n").filter { $0.hasPrefix("model name") || $0.hasPrefix("flags") || $0.hasPrefix("Features") }
            // The first processor's lines (every processor of a machine is alike for this purpose).
            var seen = Set<Substring>(), first: [Substring] = []
            for line in wanted {
                let key = line.prefix { $0 != ":" }
                if seen.insert(key).inserted { first.append(line) }
            }
            if !first.isEmpty { return first.joined(separator: "\n") }
        }
        #endif
        var name = utsname()
        uname(&name)
        return withUnsafeBytes(of: &name.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }()
}
