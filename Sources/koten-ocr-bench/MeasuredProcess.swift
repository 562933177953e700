import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One run of another program, measured as a whole process: wall time from spawn to exit, its CPU time (user and
/// system, from `wait4`'s resource usage) and its peak resident memory (`ru_maxrss`, the kernel's high-water mark
/// of the child: the same figure as its VmHWM). Standard output goes to `stdoutPath` (default /dev/null), standard
/// error to a temporary file that is returned on failure.
struct MeasuredProcess {
    var wall: Double
    var user: Double
    var system: Double
    var peakBytes: Int
    var status: Int32
    /// The child's model-run report (`KOTEN_OCR_REPORT_MODEL_RUNS=1`; `ModelRunTimes.report`), if it wrote one:
    /// seconds inside each model's runs, and the wall time with at least one run in flight.
    var modelRuns: [String: Double] = [:]
    var busy: Double?

    var cpu: Double { user + system }

    /// Runs `executable` with `arguments` in `directory` and waits for it. Throws `BenchError.child` if it cannot
    /// start or exits non-zero (with the end of its standard error).
    static func run(_ executable: String, _ arguments: [String], stdoutPath: String = "/dev/null",
                    environment: [String: String]? = nil) throws -> MeasuredProcess {
        let errPath = FileManager.default.temporaryDirectory.appendingPathComponent("koten-ocr-bench-\(UUID().uuidString).err").path
        defer { try? FileManager.default.removeItem(atPath: errPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let env = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { env.forEach { free($0) } }
        var pid: pid_t = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let rc = posix_spawnp(&pid, executable, &actions, nil, argv, env)
        guard rc == 0 else { throw BenchError.child("\(executable): cannot start (\(String(cString: strerror(rc))))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let exited = (status & 0x7f) == 0, code = (status >> 8) & 0xff
        guard exited, code == 0 else {
            let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
            throw BenchError.child("\(([executable] + arguments).joined(separator: " ")) failed (status \(status)): \(err.suffix(800))")
        }
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        #if os(Linux)
        let peak = Int(usage.ru_maxrss) * 1024
        #else
        let peak = Int(usage.ru_maxrss)
        #endif
        var measured = MeasuredProcess(wall: wall, user: seconds(usage.ru_utime), system: seconds(usage.ru_stime), peakBytes: peak, status: code)
        measured.readReport((try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
        return measured
    }

    /// Reads the `koten-ocr-runs:` lines of a child's standard error.
    private mutating func readReport(_ text: String) {
        for line in text.split(separator: "\n") where line.hasPrefix("koten-ocr-runs: ") {
            let parts = line.split(separator: " ").map(String.init)
            if parts.count == 5, parts[1] == "model", let s = Double(parts[3]) { modelRuns[parts[2]] = s }
            if parts.count == 3, parts[1] == "busy", let s = Double(parts[2]) { busy = s }
        }
    }
}

/// The median of `values` (the mean of the middle two for an even count); 0 for none.
func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    guard !s.isEmpty else { return 0 }
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}
