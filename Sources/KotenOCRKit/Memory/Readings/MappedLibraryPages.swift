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

    /// The mappings of an smaps text, with their resident and anonymous sizes.
    static func parse(_ text: String) -> [Mapping] {
        var result: [Mapping] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if let dash = first.firstIndex(of: "-"), fields.count >= 5,
               let start = UInt(first[..<dash], radix: 16), let end = UInt(first[first.index(after: dash)...], radix: 16) {
                let path = fields.count >= 6 ? fields[5...].joined(separator: " ") : ""
                result.append(Mapping(start: start, end: end, permissions: String(fields[1]), path: path, residentKB: 0, anonymousKB: 0))
            } else if first == "Rss:", fields.count >= 2, let kb = Int(fields[1]), !result.isEmpty {
                result[result.count - 1].residentKB = kb
            } else if first == "Anonymous:", fields.count >= 2, let kb = Int(fields[1]), !result.isEmpty {
                result[result.count - 1].anonymousKB = kb
            }
        }
        return result
    }
}
