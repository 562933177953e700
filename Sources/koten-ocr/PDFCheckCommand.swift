import Foundation
import KotenOCRKit

/// `koten-ocr __check-pdf MEGABYTES SECONDS FILE`: the child process `ChildProcessPDFGuard` starts (hidden, not in
/// `--help`). It limits itself — `RLIMIT_DATA` to MEGABYTES (its heap and every private writable mapping: what
/// poppler allocates), `RLIMIT_CPU` to SECONDS, no core file — then opens every page of the PDF at FILE (the raw
/// bytes of the last argument) as the batch will, header only (`ImageSource.openPDFPages`). Exit status 0: every
/// page was found; `refusedByReader` (10): the PDF fails to open as any damaged file does (the batch then says why).
/// Killed by a signal, or any other status: it did not come back within its limits. Writes nothing.
enum PDFCheckCommand {
    static let name = "__check-pdf"
    static let refusedByReader: Int32 = 10

    static func run(_ args: [String]) -> Int32 {
        guard args.count == 3, let megabytes = Int(args[0]), megabytes > 0, let seconds = Int(args[1]), seconds > 0,
              let raw = CommandLine.unsafeArgv[Int(CommandLine.argc) - 1] else { return 2 }
        PDFCheckLimits.apply(memoryBytes: megabytes << 20, cpuSeconds: seconds)
        let file = FileSystemPath(bytes: Array(UnsafeBufferPointer(start: raw, count: strlen(raw))).map { UInt8(bitPattern: $0) })
        do {
            _ = try ImageSource.openPDFPages(of: file)
            return 0
        } catch {
            return refusedByReader
        }
    }
}

/// The limits of the PDF check's child process, and what the parent must know of them.
enum PDFCheckLimits {
    /// Whether this binary was built with AddressSanitizer or ThreadSanitizer (`make test-asan`, `make test-tsan`):
    /// their shadow memory is terabytes of private writable mappings, which `RLIMIT_DATA` counts, so the child is
    /// bounded by the sanitizer's own resident limit instead (`hard_rss_limit_mb`, `sanitizerOptions`).
    static let sanitized: Bool = {
        let program = dlopen(nil, RTLD_NOW)
        return dlsym(program, "__asan_init") != nil || dlsym(program, "__tsan_init") != nil
    }()

    /// Limits this process (the child): memory (unless `sanitized`), CPU time (`SIGXCPU` at `cpuSeconds`, `SIGKILL`
    /// a second later), and no core file from the abort that ends a PDF stopped by the memory limit.
    static func apply(memoryBytes: Int, cpuSeconds: Int) {
        if !sanitized { set(RLIMIT_DATA, rlim_t(memoryBytes), rlim_t(memoryBytes)) }
        set(RLIMIT_CPU, rlim_t(cpuSeconds), rlim_t(cpuSeconds + 1))
        set(RLIMIT_CORE, 0, 0)
    }

    /// The environment of a sanitized child: its resident memory capped at `memoryBytes` by the sanitizer.
    static func sanitizerOptions(_ environment: [String: String], memoryBytes: Int) -> [String: String] {
        guard sanitized else { return environment }
        var environment = environment
        for key in ["ASAN_OPTIONS", "TSAN_OPTIONS"] {
            let given = environment[key].map { $0 + ":" } ?? ""
            environment[key] = given + "hard_rss_limit_mb=\(memoryBytes >> 20)"
        }
        return environment
    }

    /// Lowers `resource` to `soft` / `hard`, never above a hard limit already set (which cannot be raised).
    #if os(Linux)
    private static func set(_ resource: __rlimit_resource, _ soft: rlim_t, _ hard: rlim_t) {
        let which = __rlimit_resource_t(resource.rawValue)
        var limit = rlimit()
        _ = getrlimit(which, &limit)
        limit = rlimit(rlim_cur: min(soft, limit.rlim_max), rlim_max: min(hard, limit.rlim_max))
        _ = setrlimit(which, &limit)
    }
    #else
    private static func set(_ resource: Int32, _ soft: rlim_t, _ hard: rlim_t) {
        var limit = rlimit()
        _ = getrlimit(resource, &limit)
        limit = rlimit(rlim_cur: min(soft, limit.rlim_max), rlim_max: min(hard, limit.rlim_max))
        _ = setrlimit(resource, &limit)
    }
    #endif
}
