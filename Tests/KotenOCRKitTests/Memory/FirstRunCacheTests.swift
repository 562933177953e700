import Foundation
import Testing
@testable import KotenOCRKit

/// The first run after an install writes the optimised models' cache (`ModelStore.writeMissingOptimisedForms`,
/// called by `KotenOCR.prepare` before the check loads anything): each model's optimised form is written while
/// no model is loaded, so the write's moment (ONNX Runtime serialising the graph) never stands beside the other
/// models and a page. Measured: `--mode ndl` on the 12 MP photo peaked at 500 MB on the first run, 379 MB after
/// (docs/memory-design.md, "The first run's cache write").
@Suite("The first run's cache write")
struct FirstRunCacheTests {
    @Test("each missing optimised form is written once, with no model loaded; none while one is loaded")
    func writtenAlone() async throws {
        let scene = try StoreScene()
        let models = try ["det", "cls", "rec"].map { try scene.model(.ppocr, $0) }
        let store = scene.store(budget: 2_000_000_000)
        await store.register(.ppocr, models: models)
        scene.process.lackOptimisedForms(models)
        #expect(await store.writeMissingOptimisedForms(of: .ppocr) == 3)
        #expect(scene.process.writes == models.map { "\($0.id) (with 0 bytes of weights loaded)" }, "\(scene.process.writes)")
        #expect(scene.process.loads.isEmpty)
        // The write's moment stood beside nothing: the high-water mark is the baseline and one model's write.
        #expect(scene.process.highWaterBytes == StoreScene.baseline + 2 * StoreScene.fileBytes)
        #expect(await store.writeMissingOptimisedForms(of: .ppocr) == 0)   // nothing missing now

        // With a model loaded, nothing is written (the pages' models would stand beside the write).
        scene.process.lackOptimisedForms(models)
        try await store.touch(models[0])
        #expect(await store.writeMissingOptimisedForms(of: .ppocr) == 0)
        #expect(scene.process.writes.count == 3)
    }

    @Test("prepare with an empty cache writes every entry of the real models before the check; the page reads the same")
    func prepareWritesFirst() async throws {
        let (models, cache) = try OptimisedModelCacheTests.scene()
        let plain = try await OptimisedModelCacheTests.read(models: models, cache: nil)
        var config = OCRConfiguration(mode: .ppocr, models: ModelDirectory(root: models))
        config.optimisedModelCache = cache
        config.watchMemoryPressure = false
        let engine = try KotenOCR(configuration: config)
        try await engine.prepare(.ppocr, keepLoaded: true)
        #expect(OptimisedModelCacheTests.entries(cache).count == 3)
        let written = OptimisedModelCacheTests.entries(cache)
        // With nothing loaded, a second write finds none missing (each entry whole), and none is written again.
        _ = await engine.store.releaseAll()
        #expect(await engine.store.writeMissingOptimisedForms(of: .ppocr) == 0)
        #expect(OptimisedModelCacheTests.entries(cache) == written)
        let lines = try await engine.read(OptimisedModelCacheTests.page).lines.map { "\($0.text) \($0.polygon)" }
        #expect(lines == plain)
    }
}
