import Foundation

/// Stage boundaries and resident-memory samples. Each boundary reads resident memory (/proc/self/statm) and
/// the kernel high-water mark (/proc/self/status VmHWM), updates the totals under the lock, and rewrites the
/// run marker; the timer thread reads statm only.
extension RunDiagnostics {
    func enter(_ name: String, parent: StageFrame?) -> StageFrame {
        let resident = ResidentReader.bytes()
        let mark = ProcessMemory.highWaterMarkBytes()
        let now = Date()
        let frame = StageFrame(name: name, parent: parent, startNanos: DispatchTime.now().uptimeNanoseconds,
                               startResident: resident)
        let runPeak: Int = lock.withLock {
            // A rise of the kernel mark before this stage began happened in the enclosing stage (or between stages).
            if noteHighWaterMark(mark, at: now, stage: parent?.name) { parent?.peak = max(parent?.peak ?? 0, mark) }
            noteSample(resident, at: now)
            openFrames.append(frame)
            if stageTotals[name] == nil {
                stageOrder.append(name)
                stageTotals[name] = StageTotals()
            }
            return kernelPeak?.bytes ?? 0
        }
        if ownsProcessState { ProcessRunState.stage(name, resident: resident, peak: runPeak) }
        hooks?.atStageStart(name)
        return frame
    }

    func exit(_ frame: StageFrame, failed: Bool, page: PageOutcome?) {
        let endNanos = DispatchTime.now().uptimeNanoseconds
        let resident = ResidentReader.bytes()
        let mark = ProcessMemory.highWaterMarkBytes()
        let now = Date()
        let runPeak: Int = lock.withLock {
            if let i = openFrames.lastIndex(where: { $0 === frame }) { openFrames.remove(at: i) }
            noteSample(resident, at: now, stage: frame.name)
            frame.peak = max(frame.peak, resident)
            if noteHighWaterMark(mark, at: now, stage: frame.name) { frame.peak = max(frame.peak, mark) }
            let total = endNanos &- frame.startNanos
            let own = total > frame.childNanos ? total - frame.childNanos : 0
            if let parent = frame.parent {
                parent.childNanos += total
                parent.peak = max(parent.peak, frame.peak)
            }
            var totals = stageTotals[frame.name, default: StageTotals()]
            totals.count += 1
            if failed { totals.failures += 1 }
            totals.nanos += own
            totals.maxNanos = max(totals.maxNanos, own)
            totals.peak = max(totals.peak, frame.peak)
            totals.maxGrowth = max(totals.maxGrowth, frame.peak - frame.startResident)
            stageTotals[frame.name] = totals
            if failed, let page, page.failedStage == nil { page.failedStage = frame.name }
            return kernelPeak?.bytes ?? 0
        }
        if ownsProcessState {
            ProcessRunState.stage(frame.parent?.name ?? "after \(frame.name)", resident: resident, peak: runPeak)
        }
    }

    /// A resident reading. Called under `lock`.
    func noteSample(_ resident: Int, at time: Date, stage: String? = nil) {
        samples += 1
        for frame in openFrames where resident > frame.peak { frame.peak = resident }
        if resident > sampledPeak.bytes { sampledPeak = (resident, time, stage ?? openFrames.last?.name) }
    }

    /// A reading of the kernel high-water mark; true if it rose since the last one (the process's peak grew
    /// since the previous boundary). Called under `lock`.
    @discardableResult
    func noteHighWaterMark(_ mark: Int, at time: Date, stage: String?) -> Bool {
        guard mark > lastHighWaterMark else { return false }
        lastHighWaterMark = mark
        if mark > (kernelPeak?.bytes ?? 0) { kernelPeak = (mark, time, stage) }
        return true
    }

    /// Starts the timer thread: one statm read per interval until `finish()` (or the run is released).
    func startSampling(_ stop: DispatchSemaphore) {
        let interval = options.sampleInterval
        let thread = Thread { [weak self] in
            while stop.wait(timeout: .now() + interval) == .timedOut {
                guard let self else { return }
                self.sampleTick()
            }
        }
        thread.name = "koten-ocr diagnostics"
        thread.stackSize = 64 << 10
        thread.start()
    }

    package func sampleTick() {
        let resident = ResidentReader.bytes()
        let now = Date()
        lock.withLock { noteSample(resident, at: now) }
        if ownsProcessState { ProcessRunState.sample(resident: resident) }
    }
}
