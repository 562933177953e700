import Foundation
import KotenOCRKit

#if os(Linux) || os(macOS)
/// The command line's `PDFGuard`: each PDF is first opened by a child process — this binary again, `koten-ocr
/// __check-pdf` (`PDFCheckCommand`), started with `posix_spawn` (never `fork`: this process runs threads) — under a
/// memory limit (`memoryBytes`, `RLIMIT_DATA`) and a time limit (`seconds` of CPU, `RLIMIT_CPU`, and as long on the
/// clock, after which it is killed). A PDF whose child does not come back is refused with one line; this process
/// never opens it (docs/reliability.md, "PDFs: opened under a limit").
///
/// The limits are generous for a whole page tree (a header-only open of every page: 0.4 s and 60 MB for a 500-page
/// book with both cores busy) and far below what a looping one takes: the fuzz crash file reaches 1 GB in 5 s,
/// 14 s on a loaded machine (stopped by the memory limit, not the clock). On macOS the kernel does not enforce `RLIMIT_DATA`
/// on mapped memory: there the clock bounds the check.
struct ChildProcessPDFGuard: PDFGuard {
    /// The child's memory limit in bytes (whole mebibytes).
    var memoryBytes = 1 << 30
    /// The child's CPU time limit, and its wall-clock deadline, in seconds.
    var seconds = 60

    func check(_ file: FileSystemPath) throws(PDFRefusal) {
        let ended: Ending
        do {
            ended = try run(file)
        } catch {
            throw PDFRefusal(reason: "PDF not opened: its check could not start (\(error.reason))")
        }
        let limits = "within \(seconds) s / \(Self.size(memoryBytes))"
        switch ended {
        case .exited(0), .exited(PDFCheckCommand.refusedByReader): return
        case .deadline, .signal(SIGXCPU):
            throw PDFRefusal(reason: "PDF could not be opened \(limits) (stopped by the time limit; a damaged page tree?)")
        case .signal(SIGABRT), .signal(SIGKILL), .exited(1):
            // Past the memory limit poppler's allocation fails (std::bad_alloc: abort); a sanitizer's own limit exits 1,
            // the kernel's out-of-memory killer sends SIGKILL.
            throw PDFRefusal(reason: "PDF could not be opened \(limits) (stopped by the memory limit; a damaged page tree?)")
        case .signal(let signal):
            throw PDFRefusal(reason: "PDF could not be opened \(limits) (its reader stopped on signal \(signal); a damaged PDF?)")
        case .exited(let status):
            throw PDFRefusal(reason: "PDF could not be opened \(limits) (its check exited with status \(status))")
        }
    }

    /// How the child ended.
    enum Ending: Equatable {
        case exited(Int32)
        case signal(Int32)
        /// Still running at the deadline: killed.
        case deadline
    }

    struct SpawnFailure: Error { let reason: String }

    /// Starts the check of `file` and waits for it, killing it at the deadline.
    private func run(_ file: FileSystemPath) throws(SpawnFailure) -> Ending {
        #if os(Linux)
        let executable = "/proc/self/exe"  // this binary, even if its file was replaced since it started
        #else
        guard let executable = Bundle.main.executablePath else { throw SpawnFailure(reason: "this program's path is unknown") }
        #endif
        let words: [String] = [executable, PDFCheckCommand.name, String(memoryBytes >> 20), String(seconds)]
        var arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) }
        arguments.append(file.withCString { strdup($0) })
        arguments.append(nil)
        let variables = PDFCheckLimits.sanitizerOptions(ProcessInfo.processInfo.environment, memoryBytes: memoryBytes)
        var environment: [UnsafeMutablePointer<CChar>?] = variables.map { key, value in strdup(key + "=" + value) }
        environment.append(nil)
        defer {
            arguments.forEach { free($0) }
            environment.forEach { free($0) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Nothing in, nothing out: poppler's complaints about a damaged file would flood standard error.
        for descriptor: Int32 in 0...2 {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Default signal handling and no blocked signal, whatever this process set up (SIGXCPU must end the child).
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        // (The output folder's lock is opened close-on-exec: the child never holds it.)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, arguments, environment)
        guard spawned == 0 else { throw SpawnFailure(reason: String(cString: strerror(spawned))) }
        return wait(for: pid)
    }

    /// Waits for `pid`, looking every 10 ms; at the deadline kills it.
    private func wait(for pid: pid_t) -> Ending {
        let deadline = Date().addingTimeInterval(TimeInterval(seconds))
        var status: Int32 = 0
        while true {
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid { break }
            if waited < 0 && errno != EINTR { return .exited(-1) }
            if Date() >= deadline {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                return .deadline
            }
            usleep(10_000)
        }
        return status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signal(status & 0x7f)
    }

    /// `bytes` as people write it: "1 GB", "512 MB".
    static func size(_ bytes: Int) -> String {
        bytes % (1 << 30) == 0 ? "\(bytes >> 30) GB" : "\(bytes >> 20) MB"
    }
}
#endif
