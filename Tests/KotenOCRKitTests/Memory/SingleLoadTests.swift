import Foundation
import Testing
@testable import KotenOCRKit

/// Each model loads once per process: the check before the first page keeps what it loaded when the budget allows.
@Suite("Single load")
struct SingleLoadTests {
    @Test("ppocr: prepare, then a page: every model is loaded exactly once")
    func ppocrOnce() async throws {
        let engine = try KotenOCR(configuration: OCRConfiguration(mode: .ppocr, models: try TestPaths.ppocrModels()))
        try await engine.prepare()
        let page = try await engine.read(TestPaths.image("ndlocr-lite-rs/scaned0.png"))
        #expect(!page.lines.isEmpty)
        let loads = await engine.store.eventLog().compactMap { if case .loaded(let m, _, _, _) = $0 { return m }; return nil }
        #expect(loads.sorted() == ["ppocr/classifier", "ppocr/detector", "ppocr/recogniser"])
    }

    @Test("under a tight budget the models used last are released first until the largest run fits beside the rest")
    func keepWhatFits() async throws {
        let scene = try StoreScene()
        // 50 MB + three 30 MB models = 140 MB; the largest run takes 40 MB and the headroom is 9 MB: 189 MB.
        let store = scene.store(budget: 180_000_000)
        let det = try scene.model(.ppocr, "det", activationBytes: 40_000_000)
        let cls = try scene.model(.ppocr, "cls"), rec = try scene.model(.ppocr, "rec")
        for m in [det, cls, rec] { try await store.touch(m) }
        let released = await store.keepWhatFits([det, cls, rec])
        #expect(released == StoreScene.weight)
        #expect(await store.loadedModels().keys.sorted() == ["ppocr/cls", "ppocr/det"])
        // With room for everything nothing goes.
        let roomy = try StoreScene()
        let big = roomy.store(budget: 400_000_000)
        let models = try ["det", "cls", "rec"].map { try roomy.model(.ppocr, $0) }
        for m in models { try await big.touch(m) }
        #expect(await big.keepWhatFits(models) == 0)
        #expect(await big.loadedModels().count == 3)
    }
}
