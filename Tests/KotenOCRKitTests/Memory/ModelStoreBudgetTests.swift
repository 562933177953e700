import Foundation
import Testing
@testable import KotenOCRKit

/// The store's budget rules on a simulated process (no ONNX Runtime): every model weighs `StoreScene.weight`
/// (≈ 30.0 MB), the process starts at 50 MB, and budgets are chosen so that the rule under test decides.
@Suite("Model store budget")
struct ModelStoreBudgetTests {
    let w = StoreScene.weight

    @Test("eviction takes the least recently used idle model of an inactive mode, and reports it with its bytes")
    func leastRecentlyUsed() async throws {
        let scene = try StoreScene()
        // 50 MB + 3 models + 8.5 MB headroom fit in 170 MB; a fourth model does not.
        let store = scene.store(budget: 170_000_000)
        let a = try scene.model(.ndl, "a"), b = try scene.model(.ndl, "b"), c = try scene.model(.ndl, "c")
        await store.activate(.ndl)
        for m in [a, b, c] { try await store.touch(m) }
        try await store.touch(a)  // a is used again: b is now the least recently used
        await store.activate(.koten)
        try await store.touch(try scene.model(.koten, "a"))
        try await store.touch(try scene.model(.koten, "b"))

        #expect(await store.evictions() == ["ndl/b for koten/a", "ndl/c for koten/b"])
        #expect(await store.loadedModels() == ["ndl/a": w, "koten/a": w, "koten/b": w])
        let log = await store.eventLog()
        #expect(log.contains(.evicted(model: "ndl/b", residentBytes: w, forModel: "koten/a")))
        let loaded = log.compactMap { if case .loaded(let m, let r, let f, _) = $0 { return "\(m) \(r) \(f)" }; return nil }
        #expect(loaded == ["ndl/a", "ndl/b", "ndl/c", "koten/a", "koten/b"].map { "\($0) \(w) \(StoreScene.fileBytes)" })
        #expect(scene.process.highWaterBytes <= store.budgetBytes)
    }

    @Test("inactive modes' models go first, then the active mode's for another mode's model, own mode's last")
    func inactiveModesFirst() async throws {
        let scene = try StoreScene()
        let store = scene.store(budget: 170_000_000)  // three models fit
        await store.activate(.ppocr)
        try await store.touch(try scene.model(.ppocr, "a"))  // the least recently used of all
        try await store.touch(try scene.model(.ndl, "x"))
        try await store.touch(try scene.model(.koten, "y"))
        for role in ["b", "c", "d"] { try await store.touch(try scene.model(.ppocr, role)) }
        try await store.touch(try scene.model(.ndl, "z"))

        #expect(await store.evictions() == ["ndl/x for ppocr/b", "koten/y for ppocr/c", "ppocr/a for ppocr/d",
                                            "ppocr/b for ndl/z"])
        #expect(scene.process.highWaterBytes <= store.budgetBytes)
    }

    @Test("a run that does not fit beside a run in flight waits for it to finish, then runs")
    func waitsForRoom() async throws {
        let scene = try StoreScene()
        // Two loaded models (110 MB) and one run of 40 MB fit in 180 MB with 9 MB headroom; two runs do not.
        let store = scene.store(budget: 180_000_000)
        let x = try scene.model(.ppocr, "x", activationBytes: 40_000_000)
        let y = try scene.model(.ppocr, "y", activationBytes: 40_000_000)
        await store.activate(.ppocr)
        try await store.runOnce(x)  // first runs: measured, each alone
        try await store.runOnce(y)
        #expect(await store.activationPeak(of: "ppocr/x", inputElements: StoreScene.inputElements) == 40_000_000)

        let (events, sink) = AsyncStream<String>.makeStream()
        scene.process.onEvent { sink.yield($0) }
        await store.observeRoomWaits { sink.yield("wait \($0)") }
        var next = events.makeAsyncIterator()
        scene.process.hold("ppocr/x")
        let first = Task { try await store.runOnce(x) }
        let started = await next.next()
        #expect(started == "start ppocr/x")
        let second = Task { try await store.runOnce(y) }
        let waiting = await next.next()
        #expect(waiting == "wait ppocr/y")  // not "start ppocr/y": its activations do not fit yet
        scene.process.release("ppocr/x")
        try await first.value
        try await second.value
        sink.finish()  // every event has been told
        var after: [String] = []
        while let event = await next.next() { after.append(event) }
        #expect(after == ["end ppocr/x", "start ppocr/y", "end ppocr/y"])
        #expect(scene.process.highWaterBytes <= store.budgetBytes)
    }

    @Test("a budget below the mode's floor fails with belowFloor naming the floor and its parts; nothing loads")
    func budgetTooSmallForTheMode() async throws {
        let scene = try StoreScene()
        let store = scene.store(budget: 90_000_000)
        let model = try scene.model(.ppocr, "detector")
        // baseline + weights + activations and input (1,000 float32) of a typical run + headroom (8 MB at this budget)
        let floor = ModelStore.ModeFloor(mode: .ppocr, baselineBytes: StoreScene.baseline, model: "ppocr/detector", weightBytes: w,
                                         activationBytes: 10_000_000, inputBytes: 4_000, headroomBytes: 8_000_000)
        #expect(floor.bytes == StoreScene.baseline + w + 10_000_000 + 4_000 + 8_000_000)
        await #expect(throws: ModelStoreError.belowFloor(floor, budgetBytes: 90_000_000)) {
            try await store.touch(model)
        }
        let text = ModelStoreError.belowFloor(floor, budgetBytes: 90_000_000).description
        // The floor first, the parts after (issue 25).
        #expect(text.hasPrefix("mode ppocr needs a memory budget of at least 98.0 MB (its floor), not 90.0 MB: "
                               + "raise --memory-budget to at least 98.0 MB. The floor: runtime baseline "))
        #expect(text.contains("ppocr/detector: 30.0 MB weights + 10.0 MB activations + 0.0 MB input"))
        #expect(scene.process.loads.isEmpty)
        #expect(store.state(of: model) == .unloaded)
    }

    @Test("a first run on a tiny input (its fixed part dominating) does not inflate the estimate of a typical run or the floor")
    func tinyFirstRun() async throws {
        let scene = try StoreScene()
        let store = scene.store(budget: 800_000_000)
        // 10 KB per element (10 MB for the typical 1,000 elements) and 4 MB any run takes: the typical run needs 14 MB.
        let detector = try scene.model(.ppocr, "detector")
        scene.process.setFixedRunBytes(detector.id, 4_000_000)
        await store.register(.ppocr, models: [detector])
        await store.activate(.ppocr)
        try await store.runOnce(detector, elements: 20)  // measured: 4.2 MB for 20 elements
        #expect(await store.activationPeak(of: detector.id, inputElements: 20) == 4_200_000)
        // Scaled per element the typical run would look like 210 MB; it is the measured run plus 10 KB per element more.
        #expect(await store.activationEstimate(detector, inputElements: 1_000) == 4_200_000 + 10_000 * 980)
        #expect(await store.floor(of: .ppocr).activationBytes == 14_000_000)
        #expect(await store.activationEstimate(detector, inputElements: 10) == 2_100_000)  // smaller: in proportion
    }

    @Test("a load that cannot fit even after evicting every idle model fails with what it needs")
    func budgetTooSmallAfterEvicting() async throws {
        let scene = try StoreScene()
        let store = scene.store(budget: 120_000_000)
        try await store.touch(try scene.model(.ndl, "m"))
        scene.process.setOtherBytes(60_000_000)  // pages the store does not see
        await store.activate(.ppocr)
        // A first load needs room for its peak: the weights and the file's bytes beside them while it is built.
        let needed = StoreScene.baseline + 60_000_000 + w + StoreScene.fileBytes + 8_000_000
        await #expect(throws: ModelStoreError.budgetTooSmall(mode: .ppocr, neededBytes: needed, budgetBytes: 120_000_000)) {
            try await store.touch(try scene.model(.ppocr, "d"))
        }
        #expect(await store.evictions() == ["ndl/m for ppocr/d"])
        #expect(scene.process.loads == ["ndl/m"])
    }

    @Test("the headroom (5% of the budget, at least 8 MB) is kept free: a load that fits only without it evicts")
    func headroom() async throws {
        #expect(AdmissionRule(budgetBytes: 100_000_000).headroomBytes == 8_000_000)
        #expect(AdmissionRule(budgetBytes: 400_000_000).headroomBytes == 20_000_000)
        let scene = try StoreScene()
        let store = scene.store(budget: 200_000_000)
        #expect(store.headroomBytes == 10_000_000)
        try await store.touch(try scene.model(.ndl, "a"))
        scene.process.setOtherBytes(85_000_000)
        await store.activate(.ppocr)
        // 165 MB resident + 30 MB fits in 200 MB, but not with the 10 MB headroom: ndl/a must go.
        try await store.touch(try scene.model(.ppocr, "b"))
        #expect(await store.evictions() == ["ndl/a for ppocr/b"])
        #expect(scene.process.highWaterBytes <= store.budgetBytes)
    }
}
