import Foundation

/// A cheap resident-size reading, in bytes: /proc/self/statm on Linux (one small read), footprint elsewhere.
package enum ResidentReader {
    #if os(Linux)
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
    #endif

    public static func bytes() -> Int {
        #if os(Linux)
        let fd = open("/proc/self/statm", O_RDONLY)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var buf = [UInt8](repeating: 0, count: 128)
        let n = read(fd, &buf, buf.count)
        guard n > 0 else { return 0 }
        let fields = buf.prefix(n).split(separator: UInt8(ascii: " "))
        guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return 0 }
        return pages * pageSize
        #else
        return ProcessMemory.residentBytes()
        #endif
    }

    /// The whole text of a /proc file (read to its end: procfs files report no size, and Foundation's file reading
    /// stops after the first page of them), nil if it cannot be read.
    package static func procText(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 { return nil }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    #if os(Linux)
    /// A "kB" field of /proc/self/status (e.g. "VmHWM:", "VmRSS:") in bytes, read with one small read and no
    /// string conversion of the whole file; 0 if absent.
    static func statusField(_ key: StaticString) -> Int {
        let fd = open("/proc/self/status", O_RDONLY)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var buf = [UInt8](repeating: 0, count: 4096)
        var filled = 0
        while filled < buf.count {
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress.map { $0 + filled }, $0.count - filled) }
            if n <= 0 { break }
            filled += n
        }
        let keyBytes = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        var lineStart = 0
        while lineStart + keyBytes.count <= filled {
            if buf[lineStart..<lineStart + keyBytes.count].elementsEqual(keyBytes) {
                var value = 0
                var i = lineStart + keyBytes.count
                while i < filled, buf[i] == UInt8(ascii: " ") || buf[i] == UInt8(ascii: "\t") { i += 1 }
                while i < filled, buf[i] >= UInt8(ascii: "0"), buf[i] <= UInt8(ascii: "9") {
                    value = value * 10 + Int(buf[i] - UInt8(ascii: "0"))
                    i += 1
                }
                return value * 1024
            }
            guard let newline = buf[lineStart..<filled].firstIndex(of: UInt8(ascii: "\n")) else { break }
            lineStart = newline + 1
        }
        return 0
    }
    #endif
}
