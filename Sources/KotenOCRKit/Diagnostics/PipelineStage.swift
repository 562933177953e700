import Foundation

/// A named step of reading a page, timed and measured by the current run's diagnostics.
///
/// A pipeline marks each stage with one line, e.g.
/// `let detections = try await PipelineStage.detect.measure { try await detector.detect(page, store: store) }`.
/// With no `RunDiagnostics` bound to the task (`RunDiagnostics.withStages`, or `KotenOCR.read` with
/// diagnostics) `measure` just runs the body: one task-local read. With one, it costs two resident-size
/// readings, two high-water-mark readings and one 200-byte pwrite of the run marker per stage (docs/diagnostics.md,
/// "Overhead"). Stages nest; a stage's time excludes the stages nested in it. Child tasks inherit the stage.
/// The page's stages (`memoryBoundaries`) also return freed memory to the system when they end (`StageBoundary`).
package struct PipelineStage: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }

    /// Decoding pixels: the reduced decode for a detector, the full-resolution decode and line crops.
    public static let decode: PipelineStage = "decode"
    /// Running the text or layout detector and its post-processing.
    public static let detect: PipelineStage = "detect"
    /// Classifying and recognising the lines.
    public static let recognise: PipelineStage = "recognise"
    /// Putting lines into reading order.
    public static let order: PipelineStage = "order"
    /// Writing the results (done by `BatchRunner`: rendering, atomic writes and the manifest record).
    public static let write: PipelineStage = "write"

    /// The stages of a page whose end returns freed heap memory to the system (`StageBoundary`): what a stage
    /// freed goes back before the next one starts.
    static let memoryBoundaries: Set<PipelineStage> = [.decode, .detect, .recognise, .order]

    /// Whether this stage's end returns freed heap memory to the system, unless a stage of
    /// `memoryBoundaries` encloses it.
    var returnsFreedMemory: Bool { Self.memoryBoundaries.contains(self) }

    /// Runs `body` as this stage. Rethrows what `body` throws (counted as a failure of the stage). When the
    /// stage ends, freed memory goes back to the system (`returnsFreedMemory`, after the stage's own readings).
    public func measure<T>(isolation: isolated (any Actor)? = #isolation,
                           _ body: () async throws -> T) async rethrows -> T {
        try await StageBoundary.enclose(returnsMemory: returnsFreedMemory, isolation: isolation) {
            try await recorded(isolation: isolation, body)
        }
    }

    /// Runs synchronous `body` as this stage, as `measure(isolation:_:)` does.
    public func measure<T>(_ body: () throws -> T) rethrows -> T {
        try StageBoundary.enclose(returnsMemory: returnsFreedMemory) { try recorded(body) }
    }

    /// Told when each stage starts and ends (`true` at the start), with the resident bytes then: the memory benchmark's
    /// per-stage breakdown. Nil (one task-local read per stage) unless a benchmark binds it.
    @TaskLocal package static var observer: (@Sendable (_ stage: String, _ starts: Bool, _ residentBytes: Int) -> Void)?

    /// Runs `body` with `observer` told of every stage.
    package static func observing<T>(_ observer: (@Sendable (String, Bool, Int) -> Void)?,
                                     isolation: isolated (any Actor)? = #isolation,
                                     _ body: () async throws -> T) async rethrows -> T {
        try await $observer.withValue(observer, operation: body, isolation: isolation)
    }

    private func recorded<T>(isolation: isolated (any Actor)?, _ body: () async throws -> T) async rethrows -> T {
        if let observer = Self.observer {
            observer(rawValue, true, ResidentReader.bytes())
            defer { observer(rawValue, false, ResidentReader.bytes()) }
            return try await recordedInDiagnostics(isolation: isolation, body)
        }
        return try await recordedInDiagnostics(isolation: isolation, body)
    }

    private func recorded<T>(_ body: () throws -> T) rethrows -> T {
        if let observer = Self.observer {
            observer(rawValue, true, ResidentReader.bytes())
            defer { observer(rawValue, false, ResidentReader.bytes()) }
            return try recordedInDiagnostics(body)
        }
        return try recordedInDiagnostics(body)
    }

    private func recordedInDiagnostics<T>(isolation: isolated (any Actor)?, _ body: () async throws -> T) async rethrows -> T {
        guard let context = RunDiagnostics.context else { return try await body() }
        let frame = context.recorder.enter(rawValue, parent: context.frame)
        var failed = true
        defer { context.recorder.exit(frame, failed: failed, page: context.page) }
        let result = try await RunDiagnostics.$context.withValue(context.with(frame), operation: body, isolation: isolation)
        failed = false
        return result
    }

    private func recordedInDiagnostics<T>(_ body: () throws -> T) rethrows -> T {
        guard let context = RunDiagnostics.context else { return try body() }
        let frame = context.recorder.enter(rawValue, parent: context.frame)
        var failed = true
        defer { context.recorder.exit(frame, failed: failed, page: context.page) }
        let result = try RunDiagnostics.$context.withValue(context.with(frame), operation: body)
        failed = false
        return result
    }
}

/// What a task carries while diagnostics are bound: the run, the innermost open stage, the page being read.
struct StageContext: Sendable {
    let recorder: RunDiagnostics
    let frame: StageFrame?
    let page: PageOutcome?

    func with(_ frame: StageFrame) -> StageContext { StageContext(recorder: recorder, frame: frame, page: page) }
}

/// One open stage. Mutable fields change only under the recorder's lock.
final class StageFrame: @unchecked Sendable {
    let name: String
    let parent: StageFrame?
    let startNanos: UInt64
    let startResident: Int
    var childNanos: UInt64 = 0
    var peak: Int

    init(name: String, parent: StageFrame?, startNanos: UInt64, startResident: Int) {
        self.name = name
        self.parent = parent
        self.startNanos = startNanos
        self.startResident = startResident
        peak = startResident
    }
}

/// The first stage that failed while a page was read. Changed only under the recorder's lock.
final class PageOutcome: @unchecked Sendable {
    var failedStage: String?
}

/// Running totals of one stage.
struct StageTotals {
    var count = 0
    var failures = 0
    var nanos: UInt64 = 0
    var maxNanos: UInt64 = 0
    var peak = 0
    var maxGrowth = 0
}
