/// The memory rule at a page's stage boundaries: when a stage that returns memory ends and no such stage
/// encloses it, the C allocator's free pages go back to the system (`AllocatorPolicy.trim()`), whether the stage
/// succeeded or threw — so the next stage, or the next page's detector, starts from what is live
/// (docs/memory-design.md, "What dominates peak memory": return a stage's activation memory before the next stage
/// starts). Measured (docs/performance.md, "System time"): a trim costs about a millisecond and returns tens of MB
/// that glibc keeps otherwise (libvips' freed decode buffers, a session load's scratch), so it stays at every
/// boundary; what cost system time was the arena shrunk after every run (`MemoryTightness`).
///
/// `PipelineStage.measure` applies it to the page's stages (`PipelineStage.returnsFreedMemory`: detect, decode,
/// recognise, order), so pipelines do not call `AllocatorPolicy.trim()` themselves. A stage nested in another
/// (ppocr's reduced decode inside detect) leaves the trim to the outer one. Costs one task-local read and
/// binding per such stage; other stages pass straight through.
enum StageBoundary {
    /// Whether a stage that returns memory is open in this task (child tasks inherit it).
    @TaskLocal static var isOpen = false
    /// What a boundary does: `AllocatorPolicy.trim()`. Tests bind a counting action to see the boundaries.
    @TaskLocal static var returnFreedMemory: @Sendable () -> Void = { AllocatorPolicy.trim() }

    /// Runs `body` as a stage; trims after it when `returnsMemory` and it is the outermost such stage.
    static func enclose<T>(returnsMemory: Bool, isolation: isolated (any Actor)? = #isolation,
                           _ body: () async throws -> T) async rethrows -> T {
        guard returnsMemory, !isOpen else { return try await body() }
        defer { returnFreedMemory() }
        return try await $isOpen.withValue(true, operation: body, isolation: isolation)
    }

    /// Runs synchronous `body` as a stage, as `enclose(returnsMemory:isolation:_:)` does.
    static func enclose<T>(returnsMemory: Bool, _ body: () throws -> T) rethrows -> T {
        guard returnsMemory, !isOpen else { return try body() }
        defer { returnFreedMemory() }
        return try $isOpen.withValue(true, operation: body)
    }
}
