import Foundation
import Testing
@testable import KotenOCRKit

/// Room is made before memory grows, not after: a load's peak (the file's bytes beside the weights while the
/// session is built) and a stage's buffers before a run (the decoded page, its tensors) evict another mode's idle
/// models first, so the process never passes the budget on its way to a run (the alternation's overshoot,
/// docs/performance.md). On the simulated process: models weigh ≈ 30 MB from 20 MB files, the baseline is 50 MB.
@Suite("Room before buffers")
struct RoomBeforeBuffersTests {
    @Test("a first load makes room for its peak, weights and file together: another mode's idle model goes first")
    func loadPeak() async throws {
        let scene = try StoreScene()
        // 50 + 30 (ndl/m) + 30 (ppocr/d) + 10 headroom = 120 fits the weights; the load's peak (+20 MB file) does not.
        let store = scene.store(budget: 130_000_000)
        try await store.touch(try scene.model(.ndl, "m"))
        await store.activate(.ppocr)
        let d = try scene.model(.ppocr, "d")
        try await store.touch(d)
        #expect(await store.evictions() == ["ndl/m for ppocr/d"])
        #expect(scene.process.highWaterBytes <= store.budgetBytes)
        #expect(await store.loadPeak(of: "ppocr/d") == StoreScene.weight + StoreScene.fileBytes)
    }

    @Test("a stage's buffers get their room before they are made; without it they would pass the budget")
    func buffersBeforeRun() async throws {
        let scene = try StoreScene()
        let store = scene.store(budget: 150_000_000)
        let m = try scene.model(.ndl, "m"), d = try scene.model(.koten, "d")
        try await store.touch(m)
        await store.activate(.koten)
        try await store.touch(d)
        #expect(await store.evictions().isEmpty)  // 50 + 30 + 30 + 20 (load peak) + 8 headroom fits 150
        // 45 MB of buffers beside both models would make 155 MB, past the budget: the idle ndl model goes first.
        try await store.withRoom(45_000_000, for: d) { scene.process.setOtherBytes(45_000_000) }
        #expect(await store.evictions() == ["ndl/m for koten/d"])
        #expect(scene.process.highWaterBytes <= store.budgetBytes)
        // The reservation ends with the body: the room is not counted twice afterwards.
        scene.process.setOtherBytes(0)
        try await store.withRoom(10_000_000, for: d) {}
        #expect(await store.evictions() == ["ndl/m for koten/d"])
    }

    @Test("buffers that cannot fit even after evicting every idle model are refused with what they need")
    func buffersTooLarge() async throws {
        let scene = try StoreScene()
        let store = scene.store(budget: 160_000_000)
        let d = try scene.model(.koten, "d")
        await store.activate(.koten)
        try await store.touch(d)
        var built = false
        await #expect(throws: ModelStoreError.self) {
            try await store.withRoom(100_000_000, for: d) { built = true }
        }
        #expect(!built)
    }
}
