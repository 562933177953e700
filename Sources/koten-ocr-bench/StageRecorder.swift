import Foundation
import KotenOCRKit

/// The memory of each stage of a page (issue 15's breakdown): resident bytes when it starts and ends, the highest
/// resident bytes while it runs (sampled every millisecond), and the models resident when it starts; what else was
/// resident then (above the baseline and the models) is what the page held across the stage's start.
final class StageRecorder: @unchecked Sendable {
    struct Stage: Codable {
        var name: String
        var before: Int
        var after = 0
        var peak: Int
        var models: Int
        var ended = false
    }

    private let lock = NSLock()
    private var stages: [Stage] = []
    /// The outermost open stage, and how deep the stages now open are nested.
    private var current: Int?
    private var depth = 0
    private var running = true
    private let store: ModelStore

    init(store: ModelStore) { self.store = store }

    /// Starts sampling resident memory (every millisecond) for the stages' peaks.
    func start() {
        let sampler = Thread { [self] in
            while lock.withLock({ running }) {
                let now = ResidentReader.bytes()
                lock.withLock { if let i = current { stages[i].peak = max(stages[i].peak, now) } }
                Thread.sleep(forTimeInterval: 0.001)
            }
        }
        sampler.stackSize = 64 << 10
        sampler.start()
    }

    /// Stops sampling; returns the outermost stages in the order they started.
    func finish() -> [Stage] {
        lock.withLock {
            running = false
            return stages
        }
    }

    /// What `PipelineStage.observer` is bound to while a page is read.
    var observer: @Sendable (String, Bool, Int) -> Void {
        { [self] name, starts, resident in
            lock.withLock {
                // Only outermost stages: a stage nested in an open one (ppocr's reduced decode) is part of it.
                if starts {
                    depth += 1
                    if depth == 1 {
                        stages.append(Stage(name: name, before: resident, peak: resident, models: store.loadedModelBytesNow()))
                        current = stages.count - 1
                    }
                } else {
                    depth -= 1
                    if depth == 0, let i = current {
                        stages[i].after = resident
                        stages[i].peak = max(stages[i].peak, resident)
                        stages[i].ended = true
                        current = nil
                    }
                }
            }
        }
    }
}
