import CCrashRecord
import Foundation

/// The process-wide run state kept in C (Sources/CCrashRecord) so a fatal-signal handler can write it: the run
/// marker file, the current stage and the resident watermark. One `RunDiagnostics` owns it at a time.
enum ProcessRunState {
    /// Marker rewrites from timer samples happen only when the watermark rose by this much (1 MiB).
    static let sampleRewriteStep = 1 << 20

    /// Takes the state for a run: creates and locks `marker`, installs the handlers. False if another run owns
    /// it or the marker cannot be created.
    static func begin(marker: URL, crashRecord: URL, runId: String, start: Date,
                      fatalSignals: Bool, terminationSignals: Bool) -> Bool {
        kcr_begin(marker.path, crashRecord.path, runId, Int64(start.timeIntervalSince1970 * 1000),
                  fatalSignals ? 1 : 0, terminationSignals ? 1 : 0) == 0
    }

    /// A stage boundary: `stage` becomes the recorded stage and the marker is rewritten (one pwrite). `peak`: a
    /// kernel high-water mark reached during this run (0 if none), raising the watermark with `resident`.
    static func stage(_ stage: String, resident: Int, peak: Int = 0) {
        kcr_stage(StageNames.shared.cString(stage), Int64(resident), Int64(peak))
    }

    /// A timer sample.
    static func sample(resident: Int) {
        kcr_sample(Int64(resident), Int64(sampleRewriteStep))
    }

    /// The highest resident bytes recorded in this run.
    static var watermark: Int { Int(kcr_watermark()) }

    /// Ends the run; `removeMarker` deletes the marker (a clean end).
    static func end(removeMarker: Bool) {
        kcr_end(removeMarker ? 1 : 0)
    }

    /// Tries to claim another run's marker. `.stale(fd)`: no live process holds it (close `fd` when done);
    /// `.live`: its process is running; `.unknown`: it cannot be opened or locked.
    enum Claim { case stale(Int32), live, unknown }

    static func claim(_ marker: URL) -> Claim {
        let fd = kcr_claim(marker.path)
        if fd >= 0 { return .stale(fd) }
        return fd == -1 ? .live : .unknown
    }
}

/// Stage names as C strings that live for the rest of the process (the signal handler may read them at any
/// time). Bounded: past `limit` distinct names, "other" is recorded.
final class StageNames: @unchecked Sendable {
    static let shared = StageNames()
    private let lock = NSLock()
    private var names: [String: UnsafeMutablePointer<CChar>] = [:]
    private let limit = 256

    func cString(_ name: String) -> UnsafePointer<CChar> {
        lock.lock()
        defer { lock.unlock() }
        if let p = names[name] { return UnsafePointer(p) }
        let key = names.count < limit ? name : "other"
        if let p = names[key] { return UnsafePointer(p) }
        guard let p = strdup(key) else { return Self.fallback }
        names[key] = p
        return UnsafePointer(p)
    }

    /// A literal: static, NUL-terminated storage.
    private static var fallback: UnsafePointer<CChar> {
        let literal: StaticString = "other"
        return UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
