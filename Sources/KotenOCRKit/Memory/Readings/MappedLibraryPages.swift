import Foundation

/// The clean pages of shared libraries and the executable that are mapped into the process: code and read-only
/// data, identical to their files. Linux counts them in resident memory (VmRSS, VmHWM, a cgroup's usage) although
/// the kernel can drop them at any time; Darwin's footprint (what jetsam counts) never does.
///
/// Measured here (`koten-ocr-bench case baseline`, docs/performance.md "Runtime baseline"): they are most of the runtime
/// baseline, ONNX Runtime's library alone about 30 MB — its start-up touches its kernel registrations and the page
/// cache's fault-around maps their neighbours — though a page's runs use a small part of them. `release()` unmaps
/// them (`madvise(MADV_DONTNEED)`): they stay in the page cache, and what a run needs comes back on its first touch
/// (a minor fault), so the process is charged for the code a page uses, not for all the code start-up touched.
///
/// Only mappings that cannot hold anything but the file's own bytes are released: file-backed, private, not
/// writable, with no anonymous (copied-on-write) page — never relocated data (RELRO), which is anonymous once
/// written. Linux only; elsewhere a no-op.
package enum MappedLibraryPages {
    /// One mapping of /proc/self/smaps.
    struct Mapping: Equatable {
        var start: UInt
        var end: UInt
        var permissions: String
        var path: String
        var residentKB: Int
        var anonymousKB: Int

        /// Whether its pages are all clean copies of its file, so unmapping them loses nothing.
        var isReleasable: Bool {
            path.hasPrefix("/") && !permissions.contains("w") && permissions.hasSuffix("p") && permissions.hasPrefix("r")
                && anonymousKB == 0 && residentKB > 0 && end > start
        }
    }

    /// Unmaps the clean library pages now. Returns the resident bytes they held (what the process stops being
    /// charged for). Cost: one read of /proc/self/smaps and one `madvise` per mapping, about a millisecond.
    @discardableResult
    package static func release() -> Int {
        #if os(Linux)
        guard let text = ResidentReader.procText("/proc/self/smaps") else { return 0 }
        var released = 0
        for m in parse(text) where m.isReleasable {
            guard let address = UnsafeMutableRawPointer(bitPattern: m.start) else { continue }
            if madvise(address, Int(m.end - m.start), MADV_DONTNEED) == 0 { released += m.residentKB * 1024 }
        }
        return released
        #else
        return 0
        #endif
    }

    /// The mappings of an smaps text, with their resident and anonymous sizes. Scans the bytes once (the file
    /// holds a few hundred mappings of twenty lines each; splitting it as Swift strings cost about 80 ms per read).
    static func parse(_ text: String) -> [Mapping] {
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    static func parse(bytes: UnsafeBufferPointer<UInt8>) -> [Mapping] {
        var result: [Mapping] = []
        var lineStart = 0
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count && bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd])
            if let field = SmapsLine.field(line) {
                if !result.isEmpty {
                    if field.key == .rss { result[result.count - 1].residentKB = field.kB }
                    if field.key == .anonymous { result[result.count - 1].anonymousKB = field.kB }
                }
            } else if let mapping = SmapsLine.header(line) {
                result.append(mapping)
            }
            lineStart = lineEnd + 1
        }
        return result
    }
}

/// One line of /proc/self/smaps, read from its bytes: a mapping's header ("start-end perms offset dev inode
/// [path]") or one of its "Key: value kB" fields.
private enum SmapsLine {
    enum Key { case rss, anonymous, other }

    /// A "Key:   123 kB" field line; nil for a header.
    static func field(_ line: UnsafeBufferPointer<UInt8>) -> (key: Key, kB: Int)? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")),
              !line[..<colon].contains(UInt8(ascii: "-")), !line[..<colon].contains(UInt8(ascii: " ")) else { return nil }
        let name = String(decoding: UnsafeBufferPointer(rebasing: line[..<colon]), as: UTF8.self)
        let key: Key = name == "Rss" ? .rss : name == "Anonymous" ? .anonymous : .other
        guard key != .other else { return (key, 0) }
        var value = 0, i = colon + 1
        while i < line.count && line[i] == UInt8(ascii: " ") { i += 1 }
        while i < line.count, line[i] >= UInt8(ascii: "0"), line[i] <= UInt8(ascii: "9") {
            value = value * 10 + Int(line[i] - UInt8(ascii: "0"))
            i += 1
        }
        return (key, value)
    }

    /// A mapping's header; nil when the line is not one.
    static func header(_ line: UnsafeBufferPointer<UInt8>) -> MappedLibraryPages.Mapping? {
        var fields: [Range<Int>] = []
        var i = 0
        while i < line.count && fields.count < 5 {
            while i < line.count && line[i] == UInt8(ascii: " ") { i += 1 }
            let start = i
            while i < line.count && line[i] != UInt8(ascii: " ") { i += 1 }
            if i > start { fields.append(start..<i) }
        }
        while i < line.count && line[i] == UInt8(ascii: " ") { i += 1 }
        guard fields.count == 5 else { return nil }
        func text(_ r: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: line[r]), as: UTF8.self) }
        let range = text(fields[0])
        guard let dash = range.firstIndex(of: "-"), let start = UInt(range[..<dash], radix: 16),
              let end = UInt(range[range.index(after: dash)...], radix: 16) else { return nil }
        return MappedLibraryPages.Mapping(start: start, end: end, permissions: text(fields[1]), path: text(i..<line.count),
                                          residentKB: 0, anonymousKB: 0)
    }
}
