import Foundation
import Testing
@testable import KotenOCRKit

@Suite("Model states")
struct ModelStateTests {
    @Test("unloaded → loading → loaded → evicted → loading → loaded → evicted; a failed load falls back")
    func transitions() async throws {
        let scene = try StoreScene()
        // One model fits in 110 MB with its headroom, two do not: each load evicts the other mode's model.
        let store = scene.store(budget: 110_000_000)
        let d = try scene.model(.ppocr, "d"), e = try scene.model(.ndl, "e"), bad = try scene.model(.ppocr, "bad")
        #expect(store.state(of: d) == .unloaded)
        #expect(store.states().isEmpty)
        await store.register(.ppocr, models: [d])
        #expect(store.states() == ["ppocr/d": .unloaded])

        let seenWhileLoading = Recorder()
        // Weak: the process is the store's loader, so a strong capture is a cycle (LeakSanitizer's leak, make test-asan).
        scene.process.duringLoad { [weak store] model in
            if let store { seenWhileLoading.add("\(model.id) \(store.state(of: model))") }
        }
        scene.process.failLoads(of: "ppocr/bad")
        let changes = store.stateChanges()
        let reader = Task {
            var got: [String] = []
            for await change in changes { got.append(change.description) }
            return got
        }
        await store.activate(.ppocr)
        try await store.touch(d)
        #expect(store.state(of: d) == .loaded)
        await store.activate(.ndl)
        try await store.touch(e)  // evicts d
        await store.activate(.ppocr)
        try await store.touch(d)  // evicts e
        await store.releaseAll()
        await #expect(throws: InferenceError.self) { try await store.touch(bad) }
        reader.cancel()  // the stream ends after what it has buffered

        #expect(await reader.value == ["ppocr/d loading", "ppocr/d loaded", "ppocr/d evicted", "ndl/e loading",
                                       "ndl/e loaded", "ndl/e evicted", "ppocr/d loading", "ppocr/d loaded",
                                       "ppocr/d evicted", "ppocr/bad loading", "ppocr/bad unloaded"])
        #expect(seenWhileLoading.items == ["ppocr/d loading", "ndl/e loading", "ppocr/d loading", "ppocr/bad loading"])
        #expect(store.states() == ["ppocr/d": .evicted, "ndl/e": .evicted, "ppocr/bad": .unloaded])
        #expect(await store.evictions() == ["ppocr/d for ndl/e", "ndl/e for ppocr/d"])
    }
}
