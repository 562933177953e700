import Foundation

#if os(Linux)
/// Linux pressure-stall information: a PSI trigger on the cgroup's `memory.pressure` (cgroup v2) or on
/// `/proc/pressure/memory`, waited on with poll(2) in a background thread. Raised when tasks stalled on
/// memory for `stallMicroseconds` within `windowMicroseconds` ("some" stall).
/// Unprivileged processes may need a window that is a multiple of 2 s (kernel rule); the default is 2 s.
package final class PSIPressureSource: MemoryPressureSource, @unchecked Sendable {
    public let name = "psi"
    public let stallMicroseconds: Int
    public let windowMicroseconds: Int
    private let lock = NSLock()
    private var fd: Int32 = -1
    private var stopPipe: [Int32] = [-1, -1]

    public init(stallMicroseconds: Int = 150_000, windowMicroseconds: Int = 2_000_000) {
        self.stallMicroseconds = stallMicroseconds
        self.windowMicroseconds = windowMicroseconds
    }

    /// The pressure file for this process: its cgroup v2 `memory.pressure` if present, else the system's.
    public static func pressureFile() -> String? {
        if let cgroup = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8) {
            for line in cgroup.split(separator: "\n") where line.hasPrefix("0::") {
                let path = "/sys/fs/cgroup" + line.dropFirst(3) + "/memory.pressure"
                if FileManager.default.isReadableFile(atPath: path) { return path }
            }
        }
        return FileManager.default.isReadableFile(atPath: "/proc/pressure/memory") ? "/proc/pressure/memory" : nil
    }

    public func start(_ handler: @escaping @Sendable (MemoryPressureEvent) -> Void) throws {
        guard let path = Self.pressureFile() else {
            throw MemoryPressureError.unavailable(source: name, reason: "no memory.pressure or /proc/pressure/memory")
        }
        let fd = open(path, O_RDWR | O_NONBLOCK)
        guard fd >= 0 else { throw MemoryPressureError.unavailable(source: name, reason: "\(path): \(String(cString: strerror(errno)))") }
        let trigger = "some \(stallMicroseconds) \(windowMicroseconds)"
        let written = trigger.withCString { write(fd, $0, strlen($0) + 1) }
        guard written > 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw MemoryPressureError.unavailable(source: name, reason: "\(path): trigger refused (\(reason))")
        }
        var pipeFDs: [Int32] = [-1, -1]
        guard pipe(&pipeFDs) == 0 else {
            close(fd)
            throw MemoryPressureError.unavailable(source: name, reason: "pipe: \(String(cString: strerror(errno)))")
        }
        lock.withLock {
            self.fd = fd
            self.stopPipe = pipeFDs
        }
        let wakeFD = pipeFDs[0]
        let thread = Thread { [self] in
            var fds = [pollfd(fd: fd, events: Int16(POLLPRI), revents: 0),
                       pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
            while true {
                fds[0].revents = 0
                fds[1].revents = 0
                let n = poll(&fds, 2, -1)
                if n < 0 && errno == EINTR { continue }
                if n < 0 || fds[1].revents != 0 || fds[0].revents & Int16(POLLERR) != 0 { break }
                if fds[0].revents & Int16(POLLPRI) != 0 { handler(MemoryPressureEvent(source: name, level: .warning)) }
            }
            close(fd)
            close(wakeFD)
        }
        thread.stackSize = 64 << 10
        thread.start()
    }

    public func stop() {
        let w = lock.withLock { () -> Int32 in
            let w = stopPipe[1]
            stopPipe[1] = -1
            return w
        }
        if w >= 0 {
            var byte: UInt8 = 1
            _ = write(w, &byte, 1)
            close(w)
        }
    }
}
#endif
